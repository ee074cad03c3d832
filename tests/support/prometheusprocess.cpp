// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheusprocess.h"

#include "freeport.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QStandardPaths>
#include <QTimer>
#include <QUrlQuery>
#include <cmath>
#include <limits>

PrometheusProcess::PrometheusProcess(Server server) : m_server(server) {}

QString PrometheusProcess::serverName() const
{
    return m_server == Server::Prometheus ? QStringLiteral("Prometheus") : QStringLiteral("VictoriaMetrics");
}

QString PrometheusProcess::selfJob() const
{
    return m_server == Server::Prometheus ? QStringLiteral("prometheus") : QStringLiteral("victoria-metrics");
}

PrometheusProcess::~PrometheusProcess()
{
    stop();
}

bool PrometheusProcess::start(const QList<Target> &extraTargets, int readyTimeoutMs)
{
    const bool prometheus = m_server == Server::Prometheus;
    const QString program = prometheus ? QStringLiteral("prometheus") : QStringLiteral("victoria-metrics");
    const QString binary = QStandardPaths::findExecutable(program);
    if (binary.isEmpty()) {
        m_error = QStringLiteral("the %1 binary is not on PATH (apt-get install %1)").arg(program);
        return false;
    }
    m_dir = std::make_unique<QTemporaryDir>();
    m_port = freeLoopbackPort();

    // VictoriaMetrics reads the same scrape configuration; it refuses the rule evaluation
    // interval, which it has no use for.
    QString config = QStringLiteral("global:\n  scrape_interval: 1s\n%1"
                                    "scrape_configs:\n"
                                    "  - job_name: %2\n"
                                    "    static_configs:\n"
                                    "      - targets: ['127.0.0.1:%3']\n")
                         .arg(prometheus ? QStringLiteral("  evaluation_interval: 1s\n") : QString(), selfJob())
                         .arg(m_port);
    // Targets of one job share one scrape config: Prometheus refuses a job name twice.
    QStringList jobs;
    QMap<QString, QStringList> targetsOfJob;
    for (const Target &target : extraTargets) {
        if (!jobs.contains(target.job))
            jobs.append(target.job);
        targetsOfJob[target.job].append(QLatin1Char('\'') + target.hostPort + QLatin1Char('\''));
    }
    for (const QString &job : jobs) {
        config += QStringLiteral("  - job_name: %1\n    static_configs:\n      - targets: [%2]\n")
                      .arg(job, targetsOfJob[job].join(QStringLiteral(", ")));
    }
    for (const FileTargets &files : std::as_const(m_fileTargets))
        config += QStringLiteral("  - job_name: %1\n    file_sd_configs:\n      - files: ['%2']\n"
                                 "        refresh_interval: 1s\n")
                      .arg(files.job, files.file);
    QFile file(m_dir->filePath(QStringLiteral("prometheus.yml")));
    if (!file.open(QIODevice::WriteOnly)) {
        m_error = file.errorString();
        return false;
    }
    file.write(config.toUtf8());
    file.close();

    if (!prometheus) {
        return launch(binary,
                      {QStringLiteral("-promscrape.config=") + file.fileName(),
                       QStringLiteral("-storageDataPath=") + m_dir->filePath(QStringLiteral("data")),
                       QStringLiteral("-httpListenAddr=127.0.0.1:%1").arg(m_port),
                       QStringLiteral("-loggerLevel=ERROR")},
                      readyTimeoutMs);
    }
    return launch(binary,
                  {QStringLiteral("--config.file=") + file.fileName(),
                   QStringLiteral("--storage.tsdb.path=") + m_dir->filePath(QStringLiteral("data")),
                   QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_port), QStringLiteral("--log.level=warn")},
                  readyTimeoutMs);
}

bool PrometheusProcess::startOrShare(int readyTimeoutMs)
{
    const QString name =
        m_server == Server::Prometheus ? QStringLiteral("prometheus") : QStringLiteral("victoria-metrics");
    QFile state(binaryPath(QStringLiteral("shared-servers/%1.json").arg(name)));
    if (state.open(QIODevice::ReadOnly)) {
        const QJsonObject shared = QJsonDocument::fromJson(state.readAll()).object();
        const QUrl url(shared.value(QStringLiteral("url")).toString());
        if (url.isValid() && url.port() > 0) {
            m_port = quint16(url.port());
            m_shared = true;
            m_sharedLog = shared.value(QStringLiteral("log")).toString();
            int status = 0;
            get(m_server == Server::Prometheus ? QStringLiteral("-/ready") : QStringLiteral("health"), &status);
            if (status == 200)
                return true;
            // Left by a run that ended: start one of our own.
            m_shared = false;
            m_sharedLog.clear();
        }
    }
    return start({}, readyTimeoutMs);
}

bool PrometheusProcess::restart(int readyTimeoutMs)
{
    if (m_shared) {
        m_error = QStringLiteral("a shared server is not restarted by a test");
        return false;
    }
    if (!m_process) {
        m_error = QStringLiteral("prometheus was never started");
        return false;
    }
    stop();
    const QString binary = m_process->program();
    const QStringList arguments = m_process->arguments();
    return launch(binary, arguments, readyTimeoutMs);
}

bool PrometheusProcess::launch(const QString &binary, const QStringList &arguments, int readyTimeoutMs)
{
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->start(binary, arguments);
    if (!m_process->waitForStarted(10000)) {
        m_error = serverName() + QStringLiteral(" did not start: ") + m_process->errorString();
        return false;
    }
    const bool ready = waitFor(
        [this] {
            if (m_process->state() != QProcess::Running)
                return true;
            int status = 0;
            get(m_server == Server::Prometheus ? QStringLiteral("-/ready") : QStringLiteral("health"), &status);
            return status == 200;
        },
        readyTimeoutMs, 100);
    if (!ready || m_process->state() != QProcess::Running) {
        m_error = serverName() + QStringLiteral(" did not become ready: ") + log();
        return false;
    }
    return true;
}

void PrometheusProcess::stop()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(10000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
}

QUrl PrometheusProcess::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(m_port));
}

QString PrometheusProcess::log() const
{
    if (m_shared) {
        QFile file(m_sharedLog);
        if (!file.open(QIODevice::ReadOnly))
            return QStringLiteral("(the shared server's log %1 cannot be read)").arg(m_sharedLog);
        return QStringLiteral("(shared server, its log %1:)\n").arg(m_sharedLog) +
               QString::fromUtf8(file.readAll().right(8000));
    }
    return m_process ? QString::fromUtf8(m_process->readAll()) : QString();
}

QByteArray PrometheusProcess::get(const QString &pathAndQuery, int *status)
{
    QNetworkAccessManager network;
    QNetworkRequest request(url().resolved(QUrl(pathAndQuery)));
    request.setTransferTimeout(5000);
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    if (status)
        *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}

QJsonArray PrometheusProcess::resultOf(const QString &path, const QUrlQuery &params)
{
    const QByteArray body = get(path + params.toString(QUrl::FullyEncoded));
    return QJsonDocument::fromJson(body)
        .object()
        .value(QStringLiteral("data"))
        .toObject()
        .value(QStringLiteral("result"))
        .toArray();
}

double PrometheusProcess::instantValue(const QString &query)
{
    QUrlQuery params;
    params.addQueryItem(QStringLiteral("query"), query);
    const QJsonArray result = resultOf(QStringLiteral("api/v1/query?"), params);
    if (result.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    const QJsonArray value = result.first().toObject().value(QStringLiteral("value")).toArray();
    bool ok = false;
    const double parsed = value.at(1).toString().toDouble(&ok);
    return ok ? parsed : std::numeric_limits<double>::quiet_NaN();
}

bool PrometheusProcess::waitForRangeSamples(const QString &query, int points, int timeoutMs)
{
    return waitFor(
        [&] {
            const qint64 now = QDateTime::currentSecsSinceEpoch();
            QUrlQuery params;
            params.addQueryItem(QStringLiteral("query"), query);
            params.addQueryItem(QStringLiteral("start"), QString::number(now - 60));
            params.addQueryItem(QStringLiteral("end"), QString::number(now));
            params.addQueryItem(QStringLiteral("step"), QStringLiteral("1"));
            const QJsonArray result = resultOf(QStringLiteral("api/v1/query_range?"), params);
            return !result.isEmpty() &&
                   result.first().toObject().value(QStringLiteral("values")).toArray().size() >= points;
        },
        timeoutMs, 500);
}

qint64 PrometheusProcess::oldestSampleMs(const QString &query)
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    QUrlQuery params;
    params.addQueryItem(QStringLiteral("query"), query);
    params.addQueryItem(QStringLiteral("start"), QString::number(now - 3600));
    params.addQueryItem(QStringLiteral("end"), QString::number(now));
    params.addQueryItem(QStringLiteral("step"), QStringLiteral("1"));
    const QJsonArray result = resultOf(QStringLiteral("api/v1/query_range?"), params);
    const QJsonArray values = result.first().toObject().value(QStringLiteral("values")).toArray();
    if (values.isEmpty())
        return 0;
    return qRound64(values.first().toArray().at(0).toDouble() * 1000);
}

bool PrometheusProcess::waitForSeries(const QString &query, int timeoutMs)
{
    return waitFor([&] { return !std::isnan(instantValue(query)); }, timeoutMs, 250);
}
