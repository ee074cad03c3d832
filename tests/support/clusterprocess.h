// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

// chaoscope-cluster as a child process, set up the way an engineer would: a self-signed
// certificate for 127.0.0.1 from the real openssl, a token file with an admin and a
// read-only viewer token, a kubeconfig for it, the config file given as JSON, a service
// discovery file and a folder for the pods' logs. kubectl() runs the REAL kubectl (the one
// on PATH, or $CHAOSCOPE_TEST_KUBECTL) with that kubeconfig and a HOME of its own (so its
// discovery cache is this run's).
class ClusterProcess
{
public:
    struct Result
    {
        int exitCode = -1;
        QString out;
        QString err;
        QString all() const { return out + err; }
    };
    struct Http
    {
        int status = 0;
        QByteArray body;
        QJsonObject json() const;
    };

    ClusterProcess();
    ~ClusterProcess(); // stops it

    // `config` is the JSON of the cluster's config file; `extraArguments` go to the cluster.
    bool start(const QByteArray &config, const QStringList &extraArguments = {}, int timeoutMs = 30000);
    // SIGTERM and wait; the exit code, or -1 when it had to be killed or crashed.
    int stop(int timeoutMs = 30000);
    void kill(); // SIGKILL, as a crash would

    Result kubectl(const QStringList &arguments, int timeoutMs = 60000, const QString &token = {}) const;
    // A raw HTTPS request to the API (the cluster's CA trusted); `token` empty: none sent.
    Http request(const QByteArray &method, const QString &pathAndQuery, const QString &token,
                 const QByteArray &body = {}, const QByteArray &contentType = {}) const;

    static QString kubectlBinary();
    static bool canRun(QString *why); // kubectl, openssl present

    bool isRunning() const;
    qint64 pid() const;
    quint16 port() const { return m_port; }
    QString metricsUrl() const { return m_metricsUrl; }
    QString serviceDiscoveryFile() const;
    QString logDir() const;
    QString kubeconfig() const;
    QString adminToken() const { return m_adminToken; }
    QString viewerToken() const { return m_viewerToken; }
    QString errorString() const { return m_error; }
    QString log(); // what the cluster wrote to stderr

    // The process ids of a pod's container (from its status' containerID), 0 when none.
    qint64 containerPid(const QString &ns, const QString &pod) const;
    // The pod's port (where its program listens), 0 when unknown.
    quint16 podPort(const QString &ns, const QString &pod) const;
    // Names of the pods whose label app=<app>, not terminating.
    QStringList pods(const QString &ns, const QString &app) const;

private:
    bool prepare(QString *error);
    void drain();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    QByteArray m_stdout;
    QByteArray m_stderr;
    quint16 m_port = 0;
    QString m_metricsUrl;
    QString m_adminToken;
    QString m_viewerToken;
    QString m_error;
};

// True while a process exists and is not a zombie.
bool processIsAlive(qint64 pid);
