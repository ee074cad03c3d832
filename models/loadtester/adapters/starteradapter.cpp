// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/adapters/starteradapter.h"

#include "base/whenfinished.h"
#include "loadtester.pb.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <google/protobuf/util/json_util.h>

using chaoscope::admin::v1::LoadStatus;
using chaoscope::admin::v1::Problem;

namespace {

// Ignoring unknown fields keeps an older dashboard working against a newer starter.
bool parseJson(const QByteArray &body, google::protobuf::Message *message, QString *error)
{
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = true;
    const auto status = google::protobuf::util::JsonStringToMessage(body.toStdString(), message, options);
    if (!status.ok()) {
        *error = QString::fromStdString(std::string(status.message()));
        return false;
    }
    return true;
}

LoadTesterStatus toStatus(const LoadStatus &message)
{
    LoadTesterStatus status;
    status.rate = message.rate();
    status.inflightLimit = message.inflight_limit();
    status.inflight = message.inflight();
    status.pending = message.pending();
    status.poolSize = message.pool_size();
    status.paused = message.paused();
    status.sent = message.sent();
    status.state = message.paused() ? QStringLiteral("paused") : QStringLiteral("running");
    status.instance = QString::fromStdString(message.instance());
    status.version = message.version();
    return status;
}

QByteArray jsonObject(const char *name, double value)
{
    return QJsonDocument(QJsonObject{{QLatin1String(name), value}}).toJson(QJsonDocument::Compact);
}

} // namespace

StarterAdapter::StarterAdapter(QUrl baseUrl, const QString &bearerToken, QObject *parent)
    : LoadTesterAdapter(std::move(baseUrl), parent),
      m_http(new LoadTesterHttp(QStringLiteral("the starter"), bearerToken, this)), m_tokenSent(!bearerToken.isEmpty())
{}

LoadTesterCapabilities StarterAdapter::capabilities() const
{
    LoadTesterCapabilities capabilities;
    capabilities.kind = QStringLiteral("Chaoscope starter");
    capabilities.rateLabel = QStringLiteral("rate");
    capabilities.rateUnit = QStringLiteral("/s");
    return capabilities;
}

LoadTesterAdapter::Reply StarterAdapter::status()
{
    const bool tokenSent = m_tokenSent;
    return parseOffThread<LoadTesterStatus>(
        m_http->read(LoadTesterHttp::join(m_baseUrl, QStringLiteral("admin/status")), m_timeoutMs), this,
        [tokenSent](const HttpAnswer &http) { return parseAnswer(http, tokenSent); });
}

LoadTesterAdapter::Reply StarterAdapter::setRate(double rate)
{
    // JSON has no NaN or infinity to send; the starter judges everything else (--max-rate).
    if (!std::isfinite(rate) || rate < 0)
        return finishedFuture<Result<LoadTesterStatus>>(
            Error::make(Error::Kind::Invalid, QStringLiteral("The rate must be a number of at least 0 per second.")));
    return change("PUT", QStringLiteral("admin/rate"), jsonObject("rate", rate));
}

LoadTesterAdapter::Reply StarterAdapter::setInflightLimit(int limit)
{
    if (limit < 0)
        return finishedFuture<Result<LoadTesterStatus>>(Error::make(
            Error::Kind::Invalid, QStringLiteral("The in-flight limit must be at least 1, or 0 for unlimited.")));
    return change("PUT", QStringLiteral("admin/inflight-limit"), jsonObject("limit", limit));
}

LoadTesterAdapter::Reply StarterAdapter::pause()
{
    return change("POST", QStringLiteral("admin/pause"));
}

LoadTesterAdapter::Reply StarterAdapter::resume()
{
    return change("POST", QStringLiteral("admin/resume"));
}

LoadTesterAdapter::Reply StarterAdapter::change(const QByteArray &method, const QString &path,
                                                const QByteArray &jsonBody)
{
    // Every change is sent once: a retry of one the starter did make would make it twice.
    auto answer = m_http->send(method, LoadTesterHttp::join(m_baseUrl, path), m_timeoutMs, jsonBody,
                               QByteArrayLiteral("application/json"));
    const bool tokenSent = m_tokenSent;
    return parseOffThread<LoadTesterStatus>(
        answer, this, [tokenSent](const HttpAnswer &http) { return parseAnswer(http, tokenSent); });
}

Result<LoadTesterStatus> StarterAdapter::parseAnswer(const HttpAnswer &answer, bool tokenSent)
{
    const QString where = answer.hostPort();
    if (answer.isSuccess()) {
        LoadStatus message;
        QString error;
        if (answer.contentType != "application/json" || !parseJson(answer.body, &message, &error)) {
            if (error.isEmpty())
                error = QStringLiteral("content type '%1'").arg(QString::fromLatin1(answer.contentType));
            return Error::make(Error::Kind::Parse,
                               QStringLiteral("The starter at %1 answered %2 with something that is not a "
                                              "load status (%3): \"%4\"; is this the starter's admin URL?")
                                   .arg(where, answer.url.path(), error, answer.bodySnippet()),
                               answer.status);
        }
        return toStatus(message);
    }

    // The starter explains every refusal as application/problem+json; its detail is the
    // sentence for the user.
    Problem problem;
    QString ignored;
    const bool isProblem =
        (answer.contentType == "application/problem+json" || answer.contentType == "application/json") &&
        parseJson(answer.body, &problem, &ignored) && !problem.detail().empty();
    if (isProblem) {
        const QString detail = QString::fromStdString(problem.detail());
        QString message;
        if (answer.status == 401 && tokenSent)
            message = QStringLiteral("The starter at %1 refused the admin token: %2 (401)").arg(where, detail);
        else if (answer.status == 401)
            message = QStringLiteral("The starter at %1 needs an admin token: %2 (401)").arg(where, detail);
        else if (answer.status == 412)
            message =
                QStringLiteral("The starter at %1 was changed by someone else meanwhile: %2 (412)").arg(where, detail);
        else
            message =
                QStringLiteral("The starter at %1 refused: %2 (%3)").arg(where, detail, QString::number(answer.status));
        return Error::make(Error::Kind::Query, message, answer.status, detail);
    }

    QString message =
        QStringLiteral("The starter at %1 answered HTTP %2 to %3").arg(where).arg(answer.status).arg(answer.url.path());
    if (answer.status == 404)
        message += QStringLiteral("; is this the starter's admin URL?");
    else if (answer.status == 401 || answer.status == 403)
        message += tokenSent ? QStringLiteral("; check the admin token") : QStringLiteral("; it needs an admin token");
    if (!answer.body.isEmpty())
        message += QStringLiteral(": \"%1\"").arg(answer.bodySnippet());
    return Error::make(Error::Kind::Http, message, answer.status);
}
