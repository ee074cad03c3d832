// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobmodel.h"
#include "jobrequests.h"

#include <QHttpServerResponder>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <list>
#include <map>
#include <memory>

class ChunkedResponse;
class QHttpServerRequest;
class QHttpServerResponse;
class QTcpSocket;

// The engine's job endpoints over JobModel: long polls that wait for activatable jobs,
// streams that pushed jobs are written to (one JSON object per line), completions, and the
// timer that times jobs out. Everything runs on the engine's event loop.
class JobApi : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<double()>; // seconds, monotonic

    JobApi(ProcessDefinition definition, Clock clock, QObject *parent = nullptr);
    ~JobApi() override;

    bool isEnabled() const { return !m_model.definition().isEmpty(); }
    const JobModel &model() const { return m_model; }

    // A process instance the engine created: its first jobs are created (and pushed) now.
    void startInstance(quint64 processInstanceKey);

    void activate(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void openStream(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    QHttpServerResponse complete(const QString &jobKey, const QHttpServerRequest &request);

private:
    struct PendingPoll
    {
        QHttpServerResponder responder;
        QPointer<QTcpSocket> socket;
        JobRequests::Activation request;
        double expiresAt = 0;
    };
    struct OpenStream
    {
        std::unique_ptr<ChunkedResponse> response;
        QString type;
    };

    void settle(); // after every change of the model: pushes, long polls, timers
    void deliverPushes();
    void answerPolls();
    void expirePolls();
    void closeStream(int stream);
    void scheduleTimers();
    QByteArray jobsJson(const std::vector<JobModel::ActivatedJob> &jobs) const;
    QByteArray jobJson(const JobModel::ActivatedJob &job) const;
    double now() const { return m_clock(); }

    JobModel m_model;
    Clock m_clock;
    std::list<PendingPoll> m_polls;
    std::map<int, OpenStream> m_streams;
    QTimer m_deadlineTimer;
    QTimer m_pollTimer;
};
