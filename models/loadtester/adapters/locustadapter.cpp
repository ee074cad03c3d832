// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/adapters/locustadapter.h"

#include "base/whenfinished.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <limits>

namespace {

const QString kStopped = QStringLiteral("stopped");
const QString kRunning = QStringLiteral("running");

// Locust's runner states in which no user runs or will run until the next swarm.
bool isStoppedState(const QString &state)
{
    return state == kStopped || state == QLatin1String("stopping") || state == QLatin1String("cleanup");
}

Error httpError(const HttpAnswer &answer)
{
    QString message = QStringLiteral("Locust at %1 answered HTTP %2 to %3")
                          .arg(answer.hostPort())
                          .arg(answer.status)
                          .arg(answer.url.path());
    if (answer.status == 404)
        message += QStringLiteral("; is this the URL of Locust's web UI?");
    else if (answer.status == 401)
        message += QStringLiteral("; its web UI asks for a user and password (--web-auth)");
    if (!answer.body.isEmpty())
        message += QStringLiteral(": \"%1\"").arg(answer.bodySnippet());
    return Error::make(Error::Kind::Http, message, answer.status);
}

Result<QJsonObject> jsonObject(const HttpAnswer &answer, const QString &what)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(answer.body, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("Locust at %1 answered %2 with something that is not %3: \"%4\"; "
                                          "is this the URL of Locust's web UI?")
                               .arg(answer.hostPort(), answer.url.path(), what, answer.bodySnippet()),
                           answer.status);
    return document.object();
}

} // namespace

LocustAdapter::LocustAdapter(QUrl baseUrl, const QString &bearerToken, QObject *parent)
    : LoadTesterAdapter(std::move(baseUrl), parent),
      m_http(new LoadTesterHttp(QStringLiteral("Locust"), bearerToken, this))
{}

LoadTesterCapabilities LocustAdapter::capabilities() const
{
    LoadTesterCapabilities capabilities;
    capabilities.kind = QStringLiteral("Locust");
    capabilities.rateLabel = QStringLiteral("users");
    capabilities.rateUnit = QString();
    capabilities.canSetInflightLimit = false;
    capabilities.inflightLimitUnavailable =
        QStringLiteral("Locust runs a closed model: the number of users is the limit.");
    return capabilities;
}

LoadTesterAdapter::Reply LocustAdapter::status()
{
    auto answer = m_http->read(LoadTesterHttp::join(m_baseUrl, QStringLiteral("stats/requests")), m_timeoutMs);
    Reply reply = parseOffThread<LoadTesterStatus>(answer, this, &LocustAdapter::parseStats);
    whenFinished(reply, this, [this](const Result<LoadTesterStatus> &status) {
        if (status.ok())
            remember(status.value());
    });
    return reply;
}

LoadTesterAdapter::Reply LocustAdapter::setRate(double users)
{
    if (!std::isfinite(users) || users < 0 || users != std::floor(users) || users > std::numeric_limits<int>::max())
        return finishedFuture<Result<LoadTesterStatus>>(
            Error::make(Error::Kind::Invalid,
                        QStringLiteral("Locust takes a whole number of users (0 or more), not %1.").arg(users)));
    return swarm(int(users));
}

LoadTesterAdapter::Reply LocustAdapter::setInflightLimit(int)
{
    return finishedFuture<Result<LoadTesterStatus>>(
        Error::make(Error::Kind::Invalid, capabilities().inflightLimitUnavailable));
}

LoadTesterAdapter::Reply LocustAdapter::pause()
{
    // Stopping drops the user count to 0; read it first so that "resume" knows what to swarm.
    auto promise = std::make_shared<QPromise<Result<LoadTesterStatus>>>();
    promise->start();
    whenFinished(status(), this,
                 [this, promise](const Result<LoadTesterStatus> &) { forwardTo(stop(), this, promise); });
    return promise->future();
}

LoadTesterAdapter::Reply LocustAdapter::resume()
{
    if (m_resumeUsers <= 0)
        return finishedFuture<Result<LoadTesterStatus>>(Error::make(
            Error::Kind::Invalid, QStringLiteral("Chaoscope has not seen Locust at %1 run any users yet, so "
                                                 "it does not know how many to resume with; set the users "
                                                 "instead.")
                                      .arg(m_baseUrl.toDisplayString(QUrl::RemoveUserInfo))));
    return swarm(m_resumeUsers);
}

double LocustAdapter::effectiveSpawnRate(int fromUsers, int toUsers) const
{
    if (m_spawnRate > 0)
        return m_spawnRate;
    return std::max(1.0, std::max(fromUsers, toUsers) / 10.0);
}

int LocustAdapter::settleTimeoutMs(int fromUsers, int toUsers, double spawnRate) const
{
    if (m_settleTimeoutMs > 0)
        return m_settleTimeoutMs;
    const double spawningMs = std::abs(toUsers - fromUsers) / spawnRate * 1000.0;
    return int(std::min(spawningMs + 10000.0, 120000.0));
}

LoadTesterAdapter::Reply LocustAdapter::swarm(int users)
{
    const int fromUsers = m_lastUsers;
    const double spawnRate = effectiveSpawnRate(fromUsers, users);
    const QByteArray form =
        "user_count=" + QByteArray::number(users) + "&spawn_rate=" + QByteArray::number(spawnRate, 'g', 10);
    auto answer = m_http->send("POST", LoadTesterHttp::join(m_baseUrl, QStringLiteral("swarm")), m_timeoutMs, form,
                               "application/x-www-form-urlencoded");
    auto command = parseOffThread<bool>(answer, this, &LocustAdapter::parseCommandAnswer);

    auto promise = std::make_shared<QPromise<Result<LoadTesterStatus>>>();
    promise->start();
    const int deadlineMs = settleTimeoutMs(fromUsers, users, spawnRate);
    whenFinished(command, this, [this, promise, users, deadlineMs](const Result<bool> &started) {
        if (!started.ok()) {
            promise->addResult(Result<LoadTesterStatus>(started.error()));
            promise->finish();
            return;
        }
        if (users > 0)
            m_resumeUsers = users;
        auto settled = [users](const LoadTesterStatus &status) {
            return status.state == kRunning && int(status.rate) == users;
        };
        forwardTo(readBackUntil(settled, deadlineMs), this, promise);
    });
    return promise->future();
}

LoadTesterAdapter::Reply LocustAdapter::stop()
{
    // A GET, but it stops every user: sent once, like any change.
    auto answer = m_http->send("GET", LoadTesterHttp::join(m_baseUrl, QStringLiteral("stop")), m_timeoutMs);
    auto command = parseOffThread<bool>(answer, this, &LocustAdapter::parseCommandAnswer);
    auto promise = std::make_shared<QPromise<Result<LoadTesterStatus>>>();
    promise->start();
    const int deadlineMs = m_settleTimeoutMs > 0 ? m_settleTimeoutMs : 15000;
    whenFinished(command, this, [this, promise, deadlineMs](const Result<bool> &stopped) {
        if (!stopped.ok()) {
            promise->addResult(Result<LoadTesterStatus>(stopped.error()));
            promise->finish();
            return;
        }
        auto settled = [](const LoadTesterStatus &status) { return status.state == kStopped; };
        forwardTo(readBackUntil(settled, deadlineMs), this, promise);
    });
    return promise->future();
}

void LocustAdapter::remember(const LoadTesterStatus &status)
{
    m_lastUsers = int(status.rate);
    // Only a steady count: while spawning, the count is on its way, not the target.
    if (status.state == kRunning && status.rate > 0)
        m_resumeUsers = int(status.rate);
}

Result<LoadTesterStatus> LocustAdapter::parseStats(const HttpAnswer &answer)
{
    if (!answer.isSuccess())
        return httpError(answer);
    const Result<QJsonObject> parsed = jsonObject(answer, QStringLiteral("Locust's statistics"));
    if (!parsed.ok())
        return parsed.error();
    const QJsonObject &object = parsed.value();
    const QJsonValue users = object.value(QLatin1String("user_count"));
    const QJsonValue state = object.value(QLatin1String("state"));
    if (!users.isDouble() || users.toDouble() < 0 || !state.isString())
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("Locust at %1 answered %2 without a user count and state; is this "
                                          "Locust 2.x's web UI?")
                               .arg(answer.hostPort(), answer.url.path()),
                           answer.status);

    LoadTesterStatus status;
    status.rate = users.toDouble();
    status.state = state.toString();
    status.paused = isStoppedState(status.state);
    if (const QJsonValue rps = object.value(QLatin1String("total_rps")); rps.isDouble())
        status.observedRate = rps.toDouble();
    if (const QJsonValue failRatio = object.value(QLatin1String("fail_ratio")); failRatio.isDouble())
        status.failRatio = failRatio.toDouble();
    status.instance = answer.hostPort();
    return status;
}

Result<bool> LocustAdapter::parseCommandAnswer(const HttpAnswer &answer)
{
    if (!answer.isSuccess())
        return httpError(answer);
    const Result<QJsonObject> parsed = jsonObject(answer, QStringLiteral("an answer to a command"));
    if (!parsed.ok())
        return parsed.error();
    const QJsonObject &object = parsed.value();
    const QJsonValue success = object.value(QLatin1String("success"));
    if (!success.isBool())
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("Locust at %1 answered %2 without saying whether it succeeded: \"%3\"")
                               .arg(answer.hostPort(), answer.url.path(), answer.bodySnippet()),
                           answer.status);
    if (!success.toBool()) {
        const QString detail = object.value(QLatin1String("message")).toString();
        return Error::make(Error::Kind::Query,
                           QStringLiteral("Locust at %1 refused: %2").arg(answer.hostPort(), detail), answer.status,
                           detail);
    }
    return true;
}
