// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "workersettings.h"

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <deque>

class QNetworkReply;

// The worker's life, as the Camunda Java client leads it (seed 004): a stream the engine
// pushes new jobs into, a poll loop for the others, one budget of `capacity` jobs held for
// both, `threads` handlers that each take `handler duration` per job and then complete it.
//
// The poll loop asks only when the worker holds at most 30 % of its capacity, and then for
// what is free, the way JobWorkerImpl does; pushed jobs fill the budget in between, which
// is why a backlog that only polling can reach drains slowly. A job that waited past its
// deadline is still handled and completed, and the engine rejects the completion: counted
// as handled all the same, as the client's jobHandled is.
class JobWorker : public QObject
{
    Q_OBJECT
public:
    struct Counters
    {
        qint64 pushed = 0; // jobs received on the stream
        qint64 polled = 0; // jobs received from polls
        qint64 handled = 0;
        qint64 completionsAccepted = 0;
        qint64 completionsRejected = 0; // 404/409: the job timed out or was done already
        qint64 completionsFailed = 0;   // no answer, or another error
        qint64 polls = 0;
        qint64 streamsOpened = 0;
        bool streamConnected = false;
        int held = 0; // received and not handled yet
        int busy = 0; // being handled
    };

    explicit JobWorker(WorkerSettings settings, QObject *parent = nullptr);
    ~JobWorker() override;

    void start();
    void stop();

    const WorkerSettings &settings() const { return m_settings; }
    const Counters &counters() const { return m_counters; }

private:
    struct Job
    {
        QByteArray key;
        QByteArray activation;
    };

    void openStream();
    void readStream();
    void streamFinished();
    void maybePoll();
    void pollFinished(QNetworkReply *reply);
    void accept(const QJsonObject &job, bool pushed);
    void dispatch();
    void handlerReturned(const Job &job);
    void complete(const Job &job);
    QNetworkRequest jsonRequest(const QString &path) const;
    void logThrottled(const QString &message);

    WorkerSettings m_settings;
    Counters m_counters;
    QNetworkAccessManager m_network;
    std::deque<Job> m_waiting; // received, waiting for a free thread
    QPointer<QNetworkReply> m_stream;
    QByteArray m_streamBuffer;
    QPointer<QNetworkReply> m_poll;
    QTimer m_pollTimer;
    QTimer m_streamRetry;
    bool m_running = false;
    qint64 m_lastLogMs = 0;
    int m_suppressedLogs = 0;
};
