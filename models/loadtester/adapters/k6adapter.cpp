// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/adapters/k6adapter.h"

#include "base/whenfinished.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>
#include <limits>

namespace {

Error parseError(const HttpAnswer &answer, const QString &why)
{
    return Error::make(Error::Kind::Parse,
                       QStringLiteral("k6 at %1 answered %2 with something that is not its status (%3): \"%4\"; "
                                      "is this the address of k6's REST API (--address)?")
                           .arg(answer.hostPort(), answer.url.path(), why, answer.bodySnippet()),
                       answer.status);
}

// k6 explains a refusal as {"errors":[{"status":"400","title":"…","detail":"…"}]}.
Error refusal(const HttpAnswer &answer)
{
    const QJsonArray errors = QJsonDocument::fromJson(answer.body).object().value(QLatin1String("errors")).toArray();
    QStringList reasons;
    for (const QJsonValue value : errors) {
        const QJsonObject error = value.toObject();
        const QString title = error.value(QLatin1String("title")).toString();
        const QString detail = error.value(QLatin1String("detail")).toString();
        if (!title.isEmpty() && !detail.isEmpty())
            reasons << QStringLiteral("%1: %2").arg(title, detail);
        else if (!title.isEmpty() || !detail.isEmpty())
            reasons << title + detail;
    }
    if (!reasons.isEmpty()) {
        const QString detail = reasons.join(QStringLiteral("; "));
        return Error::make(
            Error::Kind::Query,
            QStringLiteral("k6 at %1 refused: %2 (%3)").arg(answer.hostPort(), detail, QString::number(answer.status)),
            answer.status, detail);
    }
    QString message = QStringLiteral("k6 at %1 answered HTTP %2 to %3")
                          .arg(answer.hostPort())
                          .arg(answer.status)
                          .arg(answer.url.path());
    if (answer.status == 404)
        message += QStringLiteral("; is this the address of k6's REST API (--address)?");
    if (!answer.body.isEmpty())
        message += QStringLiteral(": \"%1\"").arg(answer.bodySnippet());
    return Error::make(Error::Kind::Http, message, answer.status);
}

} // namespace

K6Adapter::K6Adapter(QUrl baseUrl, const QString &bearerToken, QObject *parent)
    : LoadTesterAdapter(std::move(baseUrl), parent), m_http(new LoadTesterHttp(QStringLiteral("k6"), bearerToken, this))
{}

LoadTesterCapabilities K6Adapter::capabilities() const
{
    LoadTesterCapabilities capabilities;
    capabilities.kind = QStringLiteral("k6");
    capabilities.rateLabel = QStringLiteral("VUs");
    capabilities.rateUnit = QString();
    capabilities.canSetInflightLimit = false;
    capabilities.inflightLimitUnavailable =
        QStringLiteral("k6 runs a closed model: each VU waits for its answer, so the number of VUs is the limit.");
    return capabilities;
}

LoadTesterAdapter::Reply K6Adapter::status()
{
    auto answer = m_http->read(LoadTesterHttp::join(m_baseUrl, QStringLiteral("v1/status")), m_timeoutMs);
    return parseOffThread<LoadTesterStatus>(answer, this, &K6Adapter::parseAnswer);
}

LoadTesterAdapter::Reply K6Adapter::setRate(double vus)
{
    if (!std::isfinite(vus) || vus < 0 || vus != std::floor(vus) || vus > std::numeric_limits<int>::max())
        return finishedFuture<Result<LoadTesterStatus>>(Error::make(
            Error::Kind::Invalid, QStringLiteral("k6 takes a whole number of VUs (0 or more), not %1.").arg(vus)));
    const int target = int(vus);
    return patch(QJsonObject{{QLatin1String("vus"), target}},
                 [target](const LoadTesterStatus &status) { return int(status.rate) == target; });
}

LoadTesterAdapter::Reply K6Adapter::setInflightLimit(int)
{
    return finishedFuture<Result<LoadTesterStatus>>(
        Error::make(Error::Kind::Invalid, capabilities().inflightLimitUnavailable));
}

LoadTesterAdapter::Reply K6Adapter::pause()
{
    return patch(QJsonObject{{QLatin1String("paused"), true}},
                 [](const LoadTesterStatus &status) { return status.paused; });
}

LoadTesterAdapter::Reply K6Adapter::resume()
{
    return patch(QJsonObject{{QLatin1String("paused"), false}},
                 [](const LoadTesterStatus &status) { return !status.paused; });
}

LoadTesterAdapter::Reply K6Adapter::patch(const QJsonObject &attributes, const Settled &settled)
{
    const QJsonObject document{{QLatin1String("data"), QJsonObject{{QLatin1String("type"), QLatin1String("status")},
                                                                   {QLatin1String("id"), QLatin1String("default")},
                                                                   {QLatin1String("attributes"), attributes}}}};
    auto answer = m_http->send("PATCH", LoadTesterHttp::join(m_baseUrl, QStringLiteral("v1/status")), m_timeoutMs,
                               QJsonDocument(document).toJson(QJsonDocument::Compact), "application/json");
    Reply changed = parseOffThread<LoadTesterStatus>(answer, this, &K6Adapter::parseAnswer);

    auto promise = std::make_shared<QPromise<Result<LoadTesterStatus>>>();
    promise->start();
    whenFinished(changed, this, [this, promise, settled](const Result<LoadTesterStatus> &status) {
        // The executor scales its VUs after the answer; give it a moment before judging.
        if (status.ok() && !settled(status.value())) {
            forwardTo(readBackUntil(settled, m_settleTimeoutMs), this, promise);
            return;
        }
        promise->addResult(status);
        promise->finish();
    });
    return promise->future();
}

Result<LoadTesterStatus> K6Adapter::parseAnswer(const HttpAnswer &answer)
{
    if (!answer.isSuccess())
        return refusal(answer);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(answer.body, &error);
    if (error.error != QJsonParseError::NoError)
        return parseError(answer, error.errorString());
    const QJsonObject attributes =
        document.object().value(QLatin1String("data")).toObject().value(QLatin1String("attributes")).toObject();
    const QJsonValue vus = attributes.value(QLatin1String("vus"));
    const QJsonValue paused = attributes.value(QLatin1String("paused"));
    if (!vus.isDouble() || !paused.isBool())
        return parseError(answer, QStringLiteral("no data.attributes with vus and paused"));

    LoadTesterStatus status;
    status.rate = vus.toDouble();
    status.paused = paused.toBool();
    if (const QJsonValue max = attributes.value(QLatin1String("vus-max")); max.isDouble())
        status.maxRate = max.toDouble();
    const bool running = attributes.value(QLatin1String("running")).toBool();
    const bool stopped = attributes.value(QLatin1String("stopped")).toBool();
    if (stopped)
        status.state = QStringLiteral("stopped");
    else if (status.paused)
        status.state = QStringLiteral("paused");
    else if (running)
        status.state = QStringLiteral("running");
    else
        status.state = QStringLiteral("not running");
    status.instance = answer.hostPort();
    return status;
}
