// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>
#include <QUrlQuery>
#include <memory>

// The real Prometheus binary (Debian's `prometheus`) on a free loopback port, with a
// generated configuration and a temporary data folder. Scrapes itself every second, plus
// any extra targets. Stopped (and its folder removed) on destruction.
// Or VictoriaMetrics (Debian's `victoria-metrics`), a second implementation of the same
// query API, started with its defaults and the same scrape configuration: the tests about
// compatibility run against both.
class PrometheusProcess
{
public:
    enum class Server
    {
        Prometheus,
        VictoriaMetrics
    };

    struct Target
    {
        QString job;
        QString hostPort; // "127.0.0.1:9600"
    };

    // Targets a file_sd_configs file names (e.g. chaoscope-cluster's --sd-file), re-read as
    // it changes. Set before start().
    struct FileTargets
    {
        QString job;
        QString file;
    };

    explicit PrometheusProcess(Server server = Server::Prometheus);
    void setFileTargets(const QList<FileTargets> &files) { m_fileTargets = files; }
    ~PrometheusProcess();
    PrometheusProcess(const PrometheusProcess &) = delete;
    PrometheusProcess &operator=(const PrometheusProcess &) = delete;

    // Starts and waits until /-/ready answers 200. False (with errorString) on failure.
    bool start(const QList<Target> &extraTargets = {}, int readyTimeoutMs = 30000);
    // The server of this kind that the whole ctest run shares (the fixture shared_servers,
    // tests/support/shared_servers.py: scraping only itself, already some time into its day),
    // when there is one and it answers; otherwise one of its own, as start() without targets.
    // For tests that only read: a shared server is neither stopped nor restarted by a test.
    bool startOrShare(int readyTimeoutMs = 30000);
    bool isShared() const { return m_shared; }
    void stop();
    // Stops it if it runs, then starts it again on the same port with the same data folder
    // (what a restart in production looks like), and waits until it is ready.
    bool restart(int readyTimeoutMs = 30000);

    QUrl url() const; // http://127.0.0.1:<port>/
    Server server() const { return m_server; }
    QString serverName() const; // "Prometheus", "VictoriaMetrics"
    // The job of the server's own metrics ("prometheus", "victoria-metrics"): `up{job=...}`.
    QString selfJob() const;
    quint16 port() const { return m_port; }
    QString errorString() const { return m_error; }
    QString log() const; // what Prometheus printed (for failure messages)

    // Waits until an instant query returns at least one sample for `query` (e.g. "up").
    bool waitForSeries(const QString &query, int timeoutMs);
    // Waits until a range query over the last minute at a 1 s step returns at least `points`
    // samples of one series for `query`. VictoriaMetrics answers a new series' instant query
    // well before its range queries (40 s after its first scrape, seen here).
    bool waitForRangeSamples(const QString &query, int points, int timeoutMs);
    // The instant of the oldest sample of `query` in the last hour, 0 when there is none: how
    // much history a shared server already holds.
    qint64 oldestSampleMs(const QString &query);
    // Runs an instant query synchronously (test convenience; event loop inside). NaN on failure.
    double instantValue(const QString &query);

private:
    QByteArray get(const QString &pathAndQuery, int *status = nullptr);
    // The "data.result" array of a query API answer (empty on any failure).
    QJsonArray resultOf(const QString &path, const QUrlQuery &params);
    bool launch(const QString &binary, const QStringList &arguments, int readyTimeoutMs);

    Server m_server = Server::Prometheus;
    QList<FileTargets> m_fileTargets;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    QString m_error;
    bool m_shared = false;
    QString m_sharedLog; // the shared server's log file
};
