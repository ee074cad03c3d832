// SPDX-License-Identifier: GPL-3.0-or-later
#include "clusterprocess.h"

#include "testpaths.h"
#include "waitfor.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QStandardPaths>
#include <csignal>

namespace {

QString randomToken()
{
    QByteArray bytes(24, Qt::Uninitialized);
    for (char &b : bytes)
        b = static_cast<char>(QRandomGenerator::global()->bounded(256));
    return QString::fromLatin1(bytes.toHex());
}

bool writeFile(const QString &path, const QByteArray &content, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    return true;
}

} // namespace

bool processIsAlive(qint64 pid)
{
    if (pid <= 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close >= 0 && text.size() > close + 2 && text.at(close + 2) != 'Z';
}

QJsonObject ClusterProcess::Http::json() const
{
    return QJsonDocument::fromJson(body).object();
}

ClusterProcess::ClusterProcess() = default;

ClusterProcess::~ClusterProcess()
{
    stop();
}

QString ClusterProcess::kubectlBinary()
{
    const QString configured = qEnvironmentVariable("CHAOSCOPE_TEST_KUBECTL");
    return configured.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("kubectl")) : configured;
}

bool ClusterProcess::canRun(QString *why)
{
    if (kubectlBinary().isEmpty()) {
        *why = QStringLiteral("kubectl is not installed (./dev installs kubernetes-client)");
        return false;
    }
    if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty()) {
        *why = QStringLiteral("openssl is not installed");
        return false;
    }
    return true;
}

QString ClusterProcess::serviceDiscoveryFile() const
{
    return m_dir ? m_dir->filePath(QStringLiteral("pods.json")) : QString();
}

QString ClusterProcess::logDir() const
{
    return m_dir ? m_dir->filePath(QStringLiteral("logs")) : QString();
}

QString ClusterProcess::kubeconfig() const
{
    return m_dir ? m_dir->filePath(QStringLiteral("kubeconfig")) : QString();
}

bool ClusterProcess::prepare(QString *error)
{
    m_dir = std::make_unique<QTemporaryDir>();
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
                  {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                   QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                   m_dir->filePath(QStringLiteral("key.pem")), QStringLiteral("-out"),
                   m_dir->filePath(QStringLiteral("cert.pem")), QStringLiteral("-days"), QStringLiteral("2"),
                   QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                   QStringLiteral("subjectAltName=IP:127.0.0.1")});
    if (!openssl.waitForFinished(60000) || openssl.exitCode() != 0) {
        *error = QStringLiteral("openssl could not make a certificate: ") +
                 QString::fromUtf8(openssl.readAllStandardError());
        return false;
    }
    m_adminToken = randomToken();
    m_viewerToken = randomToken();
    return writeFile(m_dir->filePath(QStringLiteral("tokens.csv")),
                     QStringLiteral("%1,admin,1\n%2,viewer,2,\"view\"\n").arg(m_adminToken, m_viewerToken).toUtf8(),
                     error);
}

bool ClusterProcess::start(const QByteArray &config, const QStringList &extraArguments, int timeoutMs)
{
    if (!prepare(&m_error))
        return false;
    if (!writeFile(m_dir->filePath(QStringLiteral("config.json")), config, &m_error))
        return false;
    const QString program = clusterBinary();
    if (!QFileInfo(program).isExecutable()) {
        m_error = program + QStringLiteral(" is not built");
        return false;
    }
    m_process = std::make_unique<QProcess>();
    m_stdout.clear();
    m_stderr.clear();
    QObject::connect(m_process.get(), &QProcess::readyReadStandardError, m_process.get(), [this] { drain(); });
    QObject::connect(m_process.get(), &QProcess::readyReadStandardOutput, m_process.get(), [this] { drain(); });
    m_process->start(program,
                     QStringList{QStringLiteral("--config"), m_dir->filePath(QStringLiteral("config.json")),
                                 QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--metrics-port"),
                                 QStringLiteral("0"), QStringLiteral("--token-file"),
                                 m_dir->filePath(QStringLiteral("tokens.csv")), QStringLiteral("--tls-cert-file"),
                                 m_dir->filePath(QStringLiteral("cert.pem")), QStringLiteral("--tls-private-key-file"),
                                 m_dir->filePath(QStringLiteral("key.pem")), QStringLiteral("--sd-file"),
                                 serviceDiscoveryFile(), QStringLiteral("--log-dir"), logDir()} +
                         extraArguments);
    if (!m_process->waitForStarted(10000)) {
        m_error = QStringLiteral("chaoscope-cluster did not start: ") + m_process->errorString();
        return false;
    }
    static const QRegularExpression api(QStringLiteral("listening on https://127\\.0\\.0\\.1:(\\d+)\n"));
    static const QRegularExpression metrics(QStringLiteral("metrics on (http://127\\.0\\.0\\.1:\\d+/metrics)\n"));
    QRegularExpressionMatch apiMatch;
    QRegularExpressionMatch metricsMatch;
    const bool up = waitFor(
        [&] {
            drain();
            apiMatch = api.match(QString::fromUtf8(m_stdout));
            metricsMatch = metrics.match(QString::fromUtf8(m_stdout));
            return (apiMatch.hasMatch() && metricsMatch.hasMatch()) || m_process->state() != QProcess::Running;
        },
        timeoutMs);
    if (!up || !apiMatch.hasMatch() || !metricsMatch.hasMatch()) {
        m_error = QStringLiteral("chaoscope-cluster did not come up; stdout '%1'; stderr: %2")
                      .arg(QString::fromUtf8(m_stdout), log());
        return false;
    }
    m_port = apiMatch.captured(1).toUShort();
    m_metricsUrl = metricsMatch.captured(1);

    QFile cert(m_dir->filePath(QStringLiteral("cert.pem")));
    cert.open(QIODevice::ReadOnly);
    const QByteArray kubeconfigText =
        QStringLiteral("apiVersion: v1\nkind: Config\nclusters:\n- name: testbed\n  cluster:\n"
                       "    server: https://127.0.0.1:%1\n    certificate-authority-data: %2\n"
                       "users:\n- name: admin\n  user:\n    token: %3\ncontexts:\n- name: testbed\n"
                       "  context:\n    cluster: testbed\n    user: admin\ncurrent-context: testbed\n")
            .arg(m_port)
            .arg(QString::fromLatin1(cert.readAll().toBase64()), m_adminToken)
            .toUtf8();
    return writeFile(kubeconfig(), kubeconfigText, &m_error) && QDir().mkpath(m_dir->filePath(QStringLiteral("home")));
}

int ClusterProcess::stop(int timeoutMs)
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return m_process && m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
    m_process->terminate();
    if (!m_process->waitForFinished(timeoutMs)) {
        m_process->kill();
        m_process->waitForFinished(5000);
        return -1;
    }
    drain();
    return m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
}

void ClusterProcess::kill()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
}

bool ClusterProcess::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

qint64 ClusterProcess::pid() const
{
    return m_process ? m_process->processId() : 0;
}

QString ClusterProcess::log()
{
    drain();
    return QString::fromUtf8(m_stderr);
}

void ClusterProcess::drain()
{
    if (!m_process)
        return;
    m_stdout += m_process->readAllStandardOutput();
    m_stderr += m_process->readAllStandardError();
}

ClusterProcess::Result ClusterProcess::kubectl(const QStringList &arguments, int timeoutMs, const QString &token) const
{
    Result result;
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("KUBECONFIG"), kubeconfig());
    environment.insert(QStringLiteral("HOME"), m_dir->filePath(QStringLiteral("home")));
    process.setProcessEnvironment(environment);
    QStringList all = arguments;
    if (!token.isEmpty())
        all.prepend(QStringLiteral("--token=") + token);
    process.start(kubectlBinary(), all);
    // Waited for with the event loop running: a test's own servers keep answering meanwhile.
    waitFor([&] { return process.state() == QProcess::NotRunning; }, timeoutMs, 20);
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(5000);
        result.err = QStringLiteral("kubectl did not finish within %1 ms").arg(timeoutMs);
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out += QString::fromUtf8(process.readAllStandardOutput());
    result.err += QString::fromUtf8(process.readAllStandardError());
    return result;
}

ClusterProcess::Http ClusterProcess::request(const QByteArray &method, const QString &pathAndQuery,
                                             const QString &token, const QByteArray &body,
                                             const QByteArray &contentType) const
{
    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(QStringLiteral("https://127.0.0.1:%1%2").arg(m_port).arg(pathAndQuery)));
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setCaCertificates(QSslCertificate::fromPath(m_dir->filePath(QStringLiteral("cert.pem"))));
    request.setSslConfiguration(ssl);
    request.setTransferTimeout(15000);
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token.toUtf8());
    if (!contentType.isEmpty())
        request.setRawHeader("Content-Type", contentType);
    QNetworkReply *reply = network.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    Http http;
    http.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    http.body = reply->readAll();
    reply->deleteLater();
    return http;
}

qint64 ClusterProcess::containerPid(const QString &ns, const QString &pod) const
{
    const Http http = request("GET", QStringLiteral("/api/v1/namespaces/%1/pods/%2").arg(ns, pod), m_adminToken);
    const QString id = http.json()
                           .value(QStringLiteral("status"))
                           .toObject()
                           .value(QStringLiteral("containerStatuses"))
                           .toArray()
                           .at(0)
                           .toObject()
                           .value(QStringLiteral("containerID"))
                           .toString();
    return id.startsWith(QLatin1String("chaoscope://")) ? id.mid(12).toLongLong() : 0;
}

quint16 ClusterProcess::podPort(const QString &ns, const QString &pod) const
{
    const Http http = request("GET", QStringLiteral("/api/v1/namespaces/%1/pods/%2").arg(ns, pod), m_adminToken);
    return http.json()
        .value(QStringLiteral("metadata"))
        .toObject()
        .value(QStringLiteral("annotations"))
        .toObject()
        .value(QStringLiteral("testbed.chaoscope.io/port"))
        .toString()
        .toUShort();
}

QStringList ClusterProcess::pods(const QString &ns, const QString &app) const
{
    const Http http =
        request("GET", QStringLiteral("/api/v1/namespaces/%1/pods?labelSelector=app%3D%2").arg(ns, app), m_adminToken);
    QStringList names;
    for (const QJsonValue &item : http.json().value(QStringLiteral("items")).toArray()) {
        const QJsonObject metadata = item.toObject().value(QStringLiteral("metadata")).toObject();
        if (!metadata.contains(QStringLiteral("deletionTimestamp")))
            names << metadata.value(QStringLiteral("name")).toString();
    }
    return names;
}
