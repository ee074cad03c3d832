// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobapi.h"

#include "chunkedresponse.h"
#include "problemdetail.h"

#include <QDateTime>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <cmath>

using StatusCode = QHttpServerResponder::StatusCode;

namespace {

QHttpServerResponse problem(StatusCode status, const QString &title, const QString &detail)
{
    return QHttpServerResponse(QByteArray(ProblemDetail::contentType),
                               ProblemDetail::json(static_cast<int>(status), title, detail), status);
}

void writeProblem(QHttpServerResponder &responder, StatusCode status, const QString &title, const QString &detail)
{
    responder.write(ProblemDetail::json(static_cast<int>(status), title, detail),
                    {{"Content-Type", ProblemDetail::contentType}}, status);
}

QString noProcessDetail()
{
    return QStringLiteral("this engine runs without a process model, so it has no jobs; start "
                          "it with --process (see chaoscope-engine --help)");
}

int delayMs(double seconds)
{
    // Rounded up: firing a millisecond early finds nothing due and costs a wake-up.
    return static_cast<int>(std::max(0.0, std::ceil(seconds * 1000.0)));
}

} // namespace

JobApi::JobApi(ProcessDefinition definition, Clock clock, QObject *parent)
    : QObject(parent), m_model(std::move(definition)), m_clock(std::move(clock))
{
    m_deadlineTimer.setSingleShot(true);
    m_deadlineTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_deadlineTimer, &QTimer::timeout, this, [this] {
        m_model.advance(now());
        settle();
    });
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, [this] { settle(); });
}

JobApi::~JobApi() = default;

void JobApi::startInstance(quint64 processInstanceKey)
{
    if (!isEnabled())
        return;
    m_model.startInstance(processInstanceKey, now());
    settle();
}

void JobApi::activate(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    if (!isEnabled()) {
        writeProblem(responder, StatusCode::NotFound, QStringLiteral("NOT_FOUND"), noProcessDetail());
        return;
    }
    const JobRequests::Parsed<JobRequests::Activation> parsed =
        JobRequests::parseActivation(request.value("Content-Type"), request.body());
    if (!parsed.value) {
        writeProblem(responder, StatusCode::BadRequest, QStringLiteral("INVALID_ARGUMENT"), parsed.error);
        return;
    }
    const JobRequests::Activation &activation = *parsed.value;
    const std::vector<JobModel::ActivatedJob> jobs = m_model.activate(
        activation.type, activation.worker, activation.maxJobsToActivate, activation.timeoutSeconds, now());
    if (!jobs.empty() || activation.requestTimeoutSeconds <= 0) {
        responder.write(jobsJson(jobs), {{"Content-Type", "application/json"}}, StatusCode::Ok);
        return;
    }
    // Long polling: held until jobs of the type become activatable or the request times out.
    QPointer<QTcpSocket> socket(responder.socket());
    m_polls.push_back(PendingPoll{std::move(responder), socket, activation, now() + activation.requestTimeoutSeconds});
    scheduleTimers();
}

void JobApi::openStream(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    if (!isEnabled()) {
        writeProblem(responder, StatusCode::NotFound, QStringLiteral("NOT_FOUND"), noProcessDetail());
        return;
    }
    const JobRequests::Parsed<JobRequests::Stream> parsed =
        JobRequests::parseStream(request.value("Content-Type"), request.body());
    if (!parsed.value) {
        writeProblem(responder, StatusCode::BadRequest, QStringLiteral("INVALID_ARGUMENT"), parsed.error);
        return;
    }
    const JobRequests::Stream &stream = *parsed.value;
    QTcpSocket *socket = responder.socket();
    const int id = m_model.openStream(stream.type, stream.worker, stream.capacity, stream.timeoutSeconds);
    m_streams[id] =
        OpenStream{std::make_unique<ChunkedResponse>(
                       std::move(responder), 200, ChunkedResponse::Headers{{"Content-Type", "application/x-ndjson"}}),
                   stream.type};
    if (socket)
        connect(socket, &QTcpSocket::disconnected, this, [this, id] { closeStream(id); });
}

QHttpServerResponse JobApi::complete(const QString &jobKey, const QHttpServerRequest &request)
{
    if (!isEnabled())
        return problem(StatusCode::NotFound, QStringLiteral("NOT_FOUND"), noProcessDetail());
    const std::optional<quint64> key = JobRequests::parseKey(jobKey);
    if (!key) {
        return problem(StatusCode::BadRequest, QStringLiteral("INVALID_ARGUMENT"),
                       QStringLiteral("'%1' is not a job key").arg(jobKey));
    }
    const JobRequests::Parsed<JobRequests::Completion> parsed =
        JobRequests::parseCompletion(request.value("Content-Type"), request.body());
    if (!parsed.value)
        return problem(StatusCode::BadRequest, QStringLiteral("INVALID_ARGUMENT"), parsed.error);
    const JobModel::Completion result = m_model.complete(*key, parsed.value->activation, now());
    settle();
    switch (result) {
    case JobModel::Completion::Accepted:
        return QHttpServerResponse(StatusCode::NoContent);
    case JobModel::Completion::NotFound:
        return problem(StatusCode::NotFound, QStringLiteral("NOT_FOUND"),
                       QStringLiteral("Command 'COMPLETE' rejected with code 'NOT_FOUND': Expected "
                                      "to complete job with key '%1', but no such job was found")
                           .arg(*key));
    case JobModel::Completion::TimedOut:
        break;
    }
    return problem(StatusCode::Conflict, QStringLiteral("INVALID_STATE"),
                   QStringLiteral("Command 'COMPLETE' rejected with code 'INVALID_STATE': Expected "
                                  "to complete job with key '%1' of activation %2, but it timed "
                                  "out and is activatable again or activated by another one")
                       .arg(*key)
                       .arg(parsed.value->activation.value_or(0)));
}

void JobApi::settle()
{
    deliverPushes();
    expirePolls();
    answerPolls();
    scheduleTimers();
}

void JobApi::deliverPushes()
{
    // A push into a stream whose client left yields the job back to activatable, which can
    // make more pushes (to another stream): repeat until none is left.
    for (std::vector<JobModel::Push> pushes = m_model.takePushes(); !pushes.empty(); pushes = m_model.takePushes()) {
        for (const JobModel::Push &push : pushes) {
            const auto it = m_streams.find(push.stream);
            if (it == m_streams.end() || !it->second.response->isOpen()) {
                closeStream(push.stream);
                m_model.yield(push.job, now());
                continue;
            }
            it->second.response->write(jobJson(push.job) + '\n');
        }
    }
}

void JobApi::answerPolls()
{
    const std::set<QString> types = m_model.takeNotifiedTypes();
    if (types.empty())
        return;
    for (auto it = m_polls.begin(); it != m_polls.end();) {
        if (!types.count(it->request.type)) {
            ++it;
            continue;
        }
        if (!it->socket || it->socket->state() != QAbstractSocket::ConnectedState) {
            it = m_polls.erase(it); // the worker gave up; nothing was activated for it
            continue;
        }
        const JobRequests::Activation &request = it->request;
        const std::vector<JobModel::ActivatedJob> jobs =
            m_model.activate(request.type, request.worker, request.maxJobsToActivate, request.timeoutSeconds, now());
        if (jobs.empty()) {
            ++it;
            continue;
        }
        it->responder.write(jobsJson(jobs), {{"Content-Type", "application/json"}}, StatusCode::Ok);
        it = m_polls.erase(it);
    }
}

void JobApi::expirePolls()
{
    const double t = now();
    for (auto it = m_polls.begin(); it != m_polls.end();) {
        const bool gone = !it->socket || it->socket->state() != QAbstractSocket::ConnectedState;
        if (!gone && it->expiresAt > t) {
            ++it;
            continue;
        }
        if (!gone)
            it->responder.write(jobsJson({}), {{"Content-Type", "application/json"}}, StatusCode::Ok);
        it = m_polls.erase(it);
    }
}

void JobApi::closeStream(int stream)
{
    const auto it = m_streams.find(stream);
    if (it == m_streams.end())
        return;
    m_model.closeStream(stream);
    // Deleted later: this may run inside the socket's own disconnected() signal.
    it->second.response->finish();
    m_streams.erase(it);
}

void JobApi::scheduleTimers()
{
    const double t = now();
    if (const std::optional<double> deadline = m_model.nextDeadline())
        m_deadlineTimer.start(delayMs(*deadline - t));
    else
        m_deadlineTimer.stop();
    double earliest = -1;
    for (const PendingPoll &poll : m_polls)
        if (earliest < 0 || poll.expiresAt < earliest)
            earliest = poll.expiresAt;
    if (earliest >= 0)
        m_pollTimer.start(delayMs(earliest - t));
    else
        m_pollTimer.stop();
}

QByteArray JobApi::jobJson(const JobModel::ActivatedJob &job) const
{
    const qint64 deadlineMs = QDateTime::currentMSecsSinceEpoch() + qint64(std::llround((job.deadline - now()) * 1000));
    const QJsonObject object{
        {QStringLiteral("jobKey"), QString::number(job.key)},
        {QStringLiteral("type"), job.type},
        {QStringLiteral("processInstanceKey"), QString::number(job.processInstanceKey)},
        {QStringLiteral("processDefinitionId"), QStringLiteral("chaoscope-benchmark")},
        {QStringLiteral("elementId"), job.type},
        {QStringLiteral("worker"), job.worker},
        {QStringLiteral("retries"), 3},
        {QStringLiteral("deadline"), deadlineMs},
        {QStringLiteral("activation"), QString::number(job.activation)},
        {QStringLiteral("variables"), QJsonObject()},
    };
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray JobApi::jobsJson(const std::vector<JobModel::ActivatedJob> &jobs) const
{
    QByteArray body = "{\"jobs\":[";
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (i > 0)
            body += ',';
        body += jobJson(jobs[i]);
    }
    body += "]}";
    return body;
}
