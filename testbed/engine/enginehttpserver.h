// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engineconfig.h"
#include "enginemodel.h"
#include "jobapi.h"
#include "processdefinition.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerResponder>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <unordered_map>

class QTcpSocket;

// The engine's HTTP face: creates process instances through EngineModel and answers each one
// when the model says it completed, serves /metrics, the admin API and the liveness probe.
// With a process model, a created instance then walks through its jobs (JobApi, /v2/jobs/*).
//
// A create request is answered later, from a timer, never by blocking: its responder is kept
// until the model completes the instance. Keep-alive works because QtHttpServer 6.4 reads
// the next request of a connection only after the client sent it, and a client waits for
// the answer first.
class EngineHttpServer : public QObject
{
    Q_OBJECT
public:
    EngineHttpServer(const EngineConfig &config, quint64 seed, ProcessDefinition process = {},
                     QObject *parent = nullptr);
    ~EngineHttpServer() override;

    // Listens on `address`:`port` (0 = a free port the OS picks). The port, or 0 on failure.
    quint16 listen(const QHostAddress &address, quint16 port);

private:
    struct Waiting
    {
        QHttpServerResponder responder;
        // The socket is deleted when the client goes away (e.g. its deadline passed), and
        // the responder would then write into freed memory: check this first.
        QPointer<QTcpSocket> socket;
    };

    void createInstance(QHttpServerResponder &&responder);
    QHttpServerResponse metrics();
    QHttpServerResponse putConfig(const QHttpServerRequest &request);
    QHttpServerResponse configResponse() const;

    void onCompletionTimer();
    void answerCompleted();
    void scheduleNextCompletion();
    double now() const;

    QHttpServer m_server;
    EngineModel m_model;
    QElapsedTimer m_clock;
    QTimer m_completionTimer;
    JobApi m_jobs; // after m_clock: it reads the clock
    std::unordered_map<quint64, Waiting> m_waiting;
};
