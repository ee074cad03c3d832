// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/kubeauth.h"

#include "base/whenfinished.h"
#include "net/httpexchange.h"
#include "net/tlssettings.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTimer>

namespace {

constexpr int kPluginTimeoutMs = 60'000;
constexpr qint64 kMaxOutputBytes = 1024LL * 1024;

Result<KubeCredential> failed(Error::Kind kind, const QString &message)
{
    return Error::make(kind, message);
}

} // namespace

KubeAuth::KubeAuth(KubeTarget target, QObject *parent)
    : QObject(parent), m_target(std::move(target)), m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{}

KubeAuth::~KubeAuth()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

QFuture<Result<KubeCredential>> KubeAuth::current()
{
    if (m_target.exec) {
        if (m_running)
            return m_running->future();
        if (m_exec && !m_exec->isStale(m_clock()))
            return finishedFuture(fromExec(*m_exec));
        m_running = std::make_unique<QPromise<Result<KubeCredential>>>();
        m_running->start();
        QFuture<Result<KubeCredential>> future = m_running->future();
        runPlugin();
        return future;
    }
    KubeCredential credential;
    if (!m_target.tokenFile.isEmpty()) {
        QFile file(m_target.tokenFile);
        if (!file.open(QIODevice::ReadOnly))
            return finishedFuture(
                failed(Error::Kind::Io, QStringLiteral("cannot read the token file %1 of %2: %3")
                                            .arg(m_target.tokenFile, m_target.configFile, file.errorString())));
        const QString token = QString::fromUtf8(file.read(qint64(64) * 1024)).trimmed();
        if (token.isEmpty())
            return finishedFuture(failed(
                Error::Kind::Invalid,
                QStringLiteral("the token file %1 of %2 is empty").arg(m_target.tokenFile, m_target.configFile)));
        credential.authorization = Http::bearer(token);
    } else if (!m_target.token.isEmpty()) {
        credential.authorization = Http::bearer(m_target.token);
    }
    if (!m_target.clientCertificatePem.isEmpty()) {
        const auto identity = TlsSettings::readClientIdentity(m_target.clientCertificatePem, m_target.clientKeyPem,
                                                              m_target.credentialOrigin());
        if (!identity)
            return finishedFuture(Result<KubeCredential>(identity.error()));
        credential.certificate = identity->first;
        credential.key = identity->second;
    }
    return finishedFuture(Result<KubeCredential>(credential));
}

void KubeAuth::invalidate()
{
    m_exec.reset();
}

Result<KubeCredential> KubeAuth::fromExec(const ExecCredential &exec) const
{
    KubeCredential credential;
    credential.authorization = Http::bearer(exec.token);
    if (!exec.clientCertificatePem.isEmpty()) {
        const auto identity =
            TlsSettings::readClientIdentity(exec.clientCertificatePem, exec.clientKeyPem, m_target.credentialOrigin());
        if (!identity)
            return identity.error();
        credential.certificate = identity->first;
        credential.key = identity->second;
    }
    return credential;
}

void KubeAuth::runPlugin()
{
    const ExecPlugin &plugin = *m_target.exec;
    ++m_pluginRuns;
    m_process = new QProcess(this);
    QString program = plugin.command;
    // A command with a folder in it is relative to the kubeconfig; a bare name is looked up
    // on PATH, as kubectl does.
    if (program.contains(QLatin1Char('/')) && QDir::isRelativePath(program))
        program = QDir(plugin.folder).filePath(program);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const auto &[name, value] : plugin.env)
        environment.insert(name, value);
    QJsonObject info{{QStringLiteral("apiVersion"), plugin.apiVersion.isEmpty()
                                                        ? QStringLiteral("client.authentication.k8s.io/v1")
                                                        : plugin.apiVersion},
                     {QStringLiteral("kind"), QStringLiteral("ExecCredential")},
                     {QStringLiteral("spec"), QJsonObject{{QStringLiteral("interactive"), false}}}};
    environment.insert(QStringLiteral("KUBERNETES_EXEC_INFO"),
                       QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));
    m_process->setProcessEnvironment(environment);
    m_process->setProgram(program);
    m_process->setArguments(plugin.args);
    QProcess *process = m_process;
    auto *timeout = new QTimer(process);
    timeout->setSingleShot(true);
    connect(timeout, &QTimer::timeout, process, [process] { process->kill(); });
    timeout->start(kPluginTimeoutMs);
    connect(process, &QProcess::errorOccurred, this, [this, process, program](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || process != m_process)
            return;
        finishPlugin(failed(Error::Kind::Io, QStringLiteral("cannot run the credential plugin %1 of %2: %3")
                                                 .arg(program, m_target.configFile, process->errorString())));
    });
    connect(process, &QProcess::finished, this, [this, process, timeout, plugin](int code, QProcess::ExitStatus) {
        if (process != m_process)
            return;
        const QByteArray output = process->readAllStandardOutput().left(kMaxOutputBytes);
        const QString errors = QString::fromUtf8(process->readAllStandardError()).simplified().left(200);
        if (!timeout->isActive()) {
            finishPlugin(failed(Error::Kind::Timeout, QStringLiteral("the credential plugin %1 gave no credential "
                                                                     "within %2 s")
                                                          .arg(plugin.command)
                                                          .arg(kPluginTimeoutMs / 1000)));
            return;
        }
        if (code != 0) {
            finishPlugin(
                failed(Error::Kind::Invalid, QStringLiteral("the credential plugin %1 of %2 failed with exit code %3%4")
                                                 .arg(plugin.command, m_target.configFile)
                                                 .arg(code)
                                                 .arg(errors.isEmpty() ? QString() : QStringLiteral(": ") + errors)));
            return;
        }
        Result<ExecCredential> parsed = ExecCredential::parse(output, plugin.command);
        if (!parsed) {
            finishPlugin(parsed.error());
            return;
        }
        m_exec = parsed.value();
        finishPlugin(fromExec(*m_exec));
    });
    process->start(QIODevice::ReadOnly);
}

void KubeAuth::finishPlugin(Result<KubeCredential> result)
{
    if (m_process) {
        m_process->deleteLater();
        m_process = nullptr;
    }
    std::unique_ptr<QPromise<Result<KubeCredential>>> running = std::move(m_running);
    if (running) {
        running->addResult(std::move(result));
        running->finish();
    }
}
