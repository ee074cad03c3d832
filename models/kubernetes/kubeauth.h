// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "kubernetes/execcredential.h"
#include "kubernetes/kubeconfig.h"

#include <QByteArray>
#include <QFuture>
#include <QObject>
#include <QPromise>
#include <QSslCertificate>
#include <QSslKey>
#include <functional>
#include <memory>
#include <optional>

class QProcess;

// What a request to the cluster carries to say who sends it.
struct KubeCredential
{
    QByteArray authorization; // "Bearer …", or empty
    QSslCertificate certificate;
    QSslKey key;
};

// The credential of a kubeconfig user, as kubectl gets it: the token written in the file, a
// token file read again before each use (a rotated token is picked up), a client certificate,
// or a credential plugin run (off the UI thread, as a child process) and run again a minute
// before its credential expires or after the cluster refused it (401). Only `origin()` ever
// reaches a message.
class KubeAuth : public QObject
{
    Q_OBJECT
public:
    explicit KubeAuth(KubeTarget target, QObject *parent = nullptr);
    ~KubeAuth() override;

    QFuture<Result<KubeCredential>> current();
    // The cluster refused the credential: the next current() reads or runs it again.
    void invalidate();
    QString origin() const { return m_target.credentialOrigin(); }
    // How many times the plugin was run: for tests of renewal.
    int pluginRuns() const { return m_pluginRuns; }

    // For tests: the clock that decides when a plugin's credential is stale.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }

private:
    void runPlugin();
    void finishPlugin(Result<KubeCredential> result);
    Result<KubeCredential> fromExec(const ExecCredential &credential) const;

    KubeTarget m_target;
    std::optional<ExecCredential> m_exec; // the plugin's last answer
    std::unique_ptr<QPromise<Result<KubeCredential>>> m_running;
    QProcess *m_process = nullptr;
    int m_pluginRuns = 0;
    std::function<qint64()> m_clock;
};
