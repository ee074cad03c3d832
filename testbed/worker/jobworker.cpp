// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobworker.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <cmath>
#include <cstdio>

namespace {

int milliseconds(double seconds)
{
    return static_cast<int>(std::max(0.0, std::round(seconds * 1000)));
}

constexpr int retryAfterErrorMs = 1000;

} // namespace

JobWorker::JobWorker(WorkerSettings settings, QObject *parent) : QObject(parent), m_settings(std::move(settings))
{
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &JobWorker::maybePoll);
    m_streamRetry.setSingleShot(true);
    connect(&m_streamRetry, &QTimer::timeout, this, &JobWorker::openStream);
}

JobWorker::~JobWorker()
{
    stop();
}

void JobWorker::start()
{
    m_running = true;
    if (m_settings.stream)
        openStream();
    maybePoll();
}

void JobWorker::stop()
{
    m_running = false;
    m_pollTimer.stop();
    m_streamRetry.stop();
    if (m_stream)
        m_stream->abort();
    if (m_poll)
        m_poll->abort();
}

QNetworkRequest JobWorker::jsonRequest(const QString &path) const
{
    QUrl url = m_settings.engine;
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + path);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "application/json");
    return request;
}

void JobWorker::openStream()
{
    if (!m_running || m_stream)
        return;
    QNetworkRequest request = jsonRequest(QStringLiteral("/v2/jobs/stream"));
    const QJsonObject body{{QStringLiteral("type"), m_settings.jobType},
                           {QStringLiteral("worker"), m_settings.name},
                           {QStringLiteral("capacity"), m_settings.capacity},
                           {QStringLiteral("timeout"), milliseconds(m_settings.timeoutSeconds)}};
    m_streamBuffer.clear();
    QNetworkReply *reply = m_network.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    m_stream = reply;
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply] {
        if (reply != m_stream)
            return; // an earlier stream's last words
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        m_counters.streamConnected = status == 200;
        if (status == 200)
            ++m_counters.streamsOpened;
    });
    connect(reply, &QNetworkReply::readyRead, this, &JobWorker::readStream);
    connect(reply, &QNetworkReply::finished, this, &JobWorker::streamFinished);
}

void JobWorker::readStream()
{
    if (!m_stream)
        return;
    if (m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
        return; // an error body, read when the reply finishes
    m_streamBuffer += m_stream->readAll();
    qsizetype newline = 0;
    while ((newline = m_streamBuffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_streamBuffer.left(newline).trimmed();
        m_streamBuffer.remove(0, newline + 1);
        if (line.isEmpty())
            continue;
        const QJsonDocument document = QJsonDocument::fromJson(line);
        if (document.isObject())
            accept(document.object(), true);
    }
}

void JobWorker::streamFinished()
{
    QNetworkReply *reply = m_stream;
    m_stream = nullptr;
    m_counters.streamConnected = false;
    if (!reply)
        return;
    reply->deleteLater();
    if (!m_running)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    logThrottled(status >= 400
                     ? QStringLiteral("the engine refused the job stream (%1): %2")
                           .arg(status)
                           .arg(QString::fromUtf8(reply->readAll().left(300)))
                     : QStringLiteral("the job stream ended (%1); opening it again").arg(reply->errorString()));
    m_streamRetry.start(retryAfterErrorMs);
}

void JobWorker::maybePoll()
{
    if (!m_running || m_poll)
        return;
    const int held = m_counters.held;
    const int threshold = static_cast<int>(std::round(m_settings.capacity * m_settings.activationThreshold));
    if (held > threshold)
        return; // a handler's return looks again
    QNetworkRequest request = jsonRequest(QStringLiteral("/v2/jobs/activation"));
    request.setTransferTimeout(milliseconds(m_settings.requestTimeoutSeconds) + 5000);
    const QJsonObject body{{QStringLiteral("type"), m_settings.jobType},
                           {QStringLiteral("worker"), m_settings.name},
                           {QStringLiteral("maxJobsToActivate"), m_settings.capacity - held},
                           {QStringLiteral("timeout"), milliseconds(m_settings.timeoutSeconds)},
                           {QStringLiteral("requestTimeout"), milliseconds(m_settings.requestTimeoutSeconds)}};
    ++m_counters.polls;
    QNetworkReply *reply = m_network.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    m_poll = reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply] { pollFinished(reply); });
}

void JobWorker::pollFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    m_poll = nullptr;
    if (!m_running)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    if (status != 200) {
        logThrottled(
            QStringLiteral("polling failed (%1): %2")
                .arg(status ? QString::number(status) : reply->errorString(), QString::fromUtf8(body.left(300))));
        m_pollTimer.start(retryAfterErrorMs);
        return;
    }
    const QJsonArray jobs = QJsonDocument::fromJson(body).object().value(QStringLiteral("jobs")).toArray();
    for (const QJsonValue job : jobs)
        accept(job.toObject(), false);
    if (jobs.isEmpty())
        m_pollTimer.start(milliseconds(m_settings.pollIntervalSeconds));
    else
        maybePoll();
}

void JobWorker::accept(const QJsonObject &object, bool pushed)
{
    Job job{object.value(QStringLiteral("jobKey")).toString().toUtf8(),
            object.value(QStringLiteral("activation")).toString().toUtf8()};
    if (job.key.isEmpty())
        return;
    ++(pushed ? m_counters.pushed : m_counters.polled);
    ++m_counters.held;
    m_waiting.push_back(std::move(job));
    dispatch();
}

void JobWorker::dispatch()
{
    while (m_counters.busy < m_settings.threads && !m_waiting.empty()) {
        const Job job = m_waiting.front();
        m_waiting.pop_front();
        ++m_counters.busy;
        QTimer::singleShot(milliseconds(m_settings.handlerSeconds), Qt::PreciseTimer, this,
                           [this, job] { handlerReturned(job); });
    }
}

void JobWorker::handlerReturned(const Job &job)
{
    --m_counters.busy;
    --m_counters.held;
    ++m_counters.handled; // counted when the handler returns, whatever the engine says
    complete(job);
    dispatch();
    maybePoll();
}

void JobWorker::complete(const Job &job)
{
    if (!m_running)
        return;
    QNetworkRequest request = jsonRequest(QStringLiteral("/v2/jobs/%1/completion").arg(QString::fromUtf8(job.key)));
    request.setTransferTimeout(10000);
    QJsonObject body;
    if (!job.activation.isEmpty())
        body.insert(QStringLiteral("activation"), QString::fromUtf8(job.activation));
    QNetworkReply *reply = m_network.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status >= 200 && status < 300)
            ++m_counters.completionsAccepted;
        else if (status == 404 || status == 409)
            ++m_counters.completionsRejected;
        else
            ++m_counters.completionsFailed;
    });
}

void JobWorker::logThrottled(const QString &message)
{
    // An engine that is away would otherwise make a line per second per cause forever.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - m_lastLogMs < 10000) {
        ++m_suppressedLogs;
        return;
    }
    if (m_suppressedLogs > 0)
        std::fprintf(stderr, "chaoscope-worker: (%d similar message(s) suppressed)\n", m_suppressedLogs);
    std::fprintf(stderr, "chaoscope-worker: %s\n", qPrintable(message));
    std::fflush(stderr);
    m_lastLogMs = now;
    m_suppressedLogs = 0;
}
