// SPDX-License-Identifier: GPL-3.0-or-later
#include "enginehttpserver.h"

#include "engineconfigpatch.h"
#include "enginemetricswriter.h"
#include "jobmetricswriter.h"
#include "problemdetail.h"
#include "processstats.h"

#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <cmath>
#include <cstdio>

using StatusCode = QHttpServerResponder::StatusCode;
using Method = QHttpServerRequest::Method;

namespace {

QHttpServerResponse problemResponse(StatusCode status, const QString &title, const QString &detail)
{
    return QHttpServerResponse(QByteArray(ProblemDetail::contentType),
                               ProblemDetail::json(static_cast<int>(status), title, detail), status);
}

void writeProblem(QHttpServerResponder &responder, StatusCode status, const QString &title, const QString &detail)
{
    responder.write(ProblemDetail::json(static_cast<int>(status), title, detail),
                    {{"Content-Type", ProblemDetail::contentType}}, status);
}

} // namespace

EngineHttpServer::EngineHttpServer(const EngineConfig &config, quint64 seed, ProcessDefinition process, QObject *parent)
    : QObject(parent), m_model(config, seed), m_jobs(std::move(process), [this] { return now(); })
{
    m_clock.start();
    m_completionTimer.setSingleShot(true);
    // Service times are tens of milliseconds: a coarse timer (5% slack) would skew them.
    m_completionTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_completionTimer, &QTimer::timeout, this, &EngineHttpServer::onCompletionTimer);

    m_server.route(
        QStringLiteral("/v2/process-instances"), Method::Post,
        [this](const QHttpServerRequest &, QHttpServerResponder &&responder) { createInstance(std::move(responder)); });
    m_server.route(QStringLiteral("/metrics"), Method::Get, [this] { return metrics(); });
    m_server.route(QStringLiteral("/admin/config"), Method::Get, [this] { return configResponse(); });
    m_server.route(QStringLiteral("/admin/config"), Method::Put,
                   [this](const QHttpServerRequest &request) { return putConfig(request); });
    m_server.route(QStringLiteral("/v2/jobs/activation"), Method::Post,
                   [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                       m_jobs.activate(request, std::move(responder));
                   });
    m_server.route(QStringLiteral("/v2/jobs/stream"), Method::Post,
                   [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                       m_jobs.openStream(request, std::move(responder));
                   });
    m_server.route(
        QStringLiteral("/v2/jobs/<arg>/completion"), Method::Post,
        [this](const QString &key, const QHttpServerRequest &request) { return m_jobs.complete(key, request); });
    m_server.route(QStringLiteral("/health/liveness"), Method::Get, [] {
        return QHttpServerResponse(QJsonObject{{QStringLiteral("status"), QStringLiteral("UP")}});
    });
    m_server.setMissingHandler([](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        writeProblem(responder, StatusCode::NotFound, QStringLiteral("Not Found"),
                     QStringLiteral("no route for %1").arg(request.url().path()));
    });
}

EngineHttpServer::~EngineHttpServer() = default;

quint16 EngineHttpServer::listen(const QHostAddress &address, quint16 port)
{
    return m_server.listen(address, port);
}

void EngineHttpServer::createInstance(QHttpServerResponder &&responder)
{
    const EngineModel::SubmitResult result = m_model.submit(now());
    switch (result.admission) {
    case EngineModel::Admission::Accepted: {
        QPointer<QTcpSocket> socket(responder.socket());
        m_waiting.emplace(result.key, Waiting{std::move(responder), socket});
        break;
    }
    case EngineModel::Admission::QueueFull:
        writeProblem(responder, StatusCode::ServiceUnavailable, QStringLiteral("RESOURCE_EXHAUSTED"),
                     QStringLiteral("the request queue is full (%1 waiting); try again later")
                         .arg(m_model.config().queueCapacity));
        break;
    case EngineModel::Admission::BacklogTooLarge:
        writeProblem(responder, StatusCode::TooManyRequests, QStringLiteral("RESOURCE_EXHAUSTED"),
                     QStringLiteral("flow control: the exporter backlog (%1 records) is over the "
                                    "acceptable backlog of %2 records")
                         .arg(m_model.counters().backlog())
                         .arg(m_model.config().acceptableBacklog));
        break;
    }
    answerCompleted();
    scheduleNextCompletion();
}

QHttpServerResponse EngineHttpServer::metrics()
{
    m_model.advance(now());
    answerCompleted();
    scheduleNextCompletion();
    QByteArray text = EngineMetricsWriter::render(m_model.counters(), m_model.config(), ProcessStats::readSelf());
    if (m_jobs.isEnabled())
        text += JobMetricsWriter::render(m_jobs.model().counters());
    return QHttpServerResponse(QByteArray(EngineMetricsWriter::contentType), text);
}

QHttpServerResponse EngineHttpServer::putConfig(const QHttpServerRequest &request)
{
    const EngineConfigPatch::Parsed parsed =
        EngineConfigPatch::parse(request.value(QByteArrayLiteral("Content-Type")), request.body());
    if (!parsed.patch)
        return problemResponse(StatusCode::BadRequest, QStringLiteral("Bad Request"), parsed.error);

    const EngineConfigPatch &patch = *parsed.patch;
    const QStringList changes = patch.describeChanges(m_model.config());
    const double t = now();
    if (patch.workers)
        m_model.setWorkers(*patch.workers, t);
    if (patch.serviceTimeSeconds)
        m_model.setServiceTime(*patch.serviceTimeSeconds, t);
    if (patch.exportRate)
        m_model.setExportRate(*patch.exportRate, t);
    if (patch.acceptableBacklog)
        m_model.setAcceptableBacklog(*patch.acceptableBacklog, t);
    if (!changes.isEmpty()) {
        std::fprintf(stderr, "chaoscope-engine: admin config: %s\n", qPrintable(changes.join(QStringLiteral(", "))));
        std::fflush(stderr);
    }
    answerCompleted();
    scheduleNextCompletion(); // more workers may have started queued instances
    return configResponse();
}

QHttpServerResponse EngineHttpServer::configResponse() const
{
    return QHttpServerResponse(QByteArrayLiteral("application/json"),
                               QJsonDocument(toJson(m_model.config())).toJson(QJsonDocument::Compact));
}

void EngineHttpServer::onCompletionTimer()
{
    m_model.advance(now());
    answerCompleted();
    scheduleNextCompletion();
}

void EngineHttpServer::answerCompleted()
{
    for (const quint64 key : m_model.takeCompleted()) {
        m_jobs.startInstance(key); // with a process model, its jobs begin now
        const auto it = m_waiting.find(key);
        if (it == m_waiting.end())
            continue;
        Waiting &waiting = it->second;
        if (waiting.socket && waiting.socket->state() == QAbstractSocket::ConnectedState) {
            const QByteArray body = QByteArrayLiteral("{\"processInstanceKey\":") + QByteArray::number(key) + '}';
            waiting.responder.write(body, {{"Content-Type", "application/json"}}, StatusCode::Ok);
        }
        m_waiting.erase(it);
    }
}

void EngineHttpServer::scheduleNextCompletion()
{
    const std::optional<double> next = m_model.nextCompletionTime();
    if (!next) {
        m_completionTimer.stop();
        return;
    }
    // Rounded up: firing a millisecond early would find nothing done and cost a wake-up.
    const double delayMs = std::ceil((*next - now()) * 1000.0);
    m_completionTimer.start(static_cast<int>(std::max(0.0, delayMs)));
}

double EngineHttpServer::now() const
{
    return static_cast<double>(m_clock.nsecsElapsed()) / 1e9;
}
