// SPDX-License-Identifier: GPL-3.0-or-later
// A dashboard that names its cluster ("kubernetes": {"namespace": "$namespace", "knobs": …})
// opened with no Kubernetes option, as a user opens it: the app finds the cluster through
// $KUBECONFIG as kubectl would, watches the namespace the variable names, and records the
// knob as a series (read back from the CSV export). Without a usable kubeconfig it opens all
// the same, draws what the real Prometheus answers, and says why on the terminal.
#include "apprun.h"
#include "clusterprocess.h"
#include "freeport.h"
#include "prometheusprocess.h"
#include "testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <gtest/gtest.h>

namespace {

// $KUBECONFIG for the app run from this scope on, restored after.
class KubeconfigVariable
{
public:
    explicit KubeconfigVariable(const QString &path)
        : m_before(qgetenv("KUBECONFIG")), m_had(qEnvironmentVariableIsSet("KUBECONFIG"))
    {
        qputenv("KUBECONFIG", path.toUtf8());
    }
    ~KubeconfigVariable()
    {
        if (m_had)
            qputenv("KUBECONFIG", m_before);
        else
            qunsetenv("KUBECONFIG");
    }
    KubeconfigVariable(const KubeconfigVariable &) = delete;
    KubeconfigVariable &operator=(const KubeconfigVariable &) = delete;

private:
    QByteArray m_before;
    bool m_had;
};

QString writeDashboard(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("chaos.json"));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"title": "Chaos", "window": "2m",
  "variables": {"namespace": {"values": ["chaos", "default"], "default": "chaos"}},
  "kubernetes": {"namespace": "$namespace", "workloads": ["worker"],
                 "knobs": [{"workload": "worker", "env": "CAPACITY", "title": "capacity"}]},
  "panels": [{"title": "Worker", "series": [
    {"kubernetes": "ready", "workload": "worker", "legend": "worker ready"},
    {"kubernetes": "env", "workload": "worker", "env": "CAPACITY", "legend": "worker capacity"}]},
    {"title": "Prometheus", "series": [{"query": "prometheus_tsdb_head_series", "legend": "head series"}]}]})");
    return path;
}

} // namespace

TEST(DashboardCluster, ADashboardNamingItsClusterConnectsWithoutAnOptionAndRecordsItsKnob)
{
    QString why;
    if (!ClusterProcess::canRun(&why))
        GTEST_SKIP() << why.toStdString();
    ASSERT_TRUE(QFileInfo(workerBinary()).isExecutable());
    ClusterProcess cluster;
    // The worker needs no engine to run: it polls one that is not there and says so.
    const QByteArray config = QStringLiteral(R"({"namespace": "chaos", "workloads": [
  {"name": "worker", "image": "chaoscope/worker",
   "env": {"JOB_TYPE": "work", "ENGINE": "http://127.0.0.1:%1", "CAPACITY": "32"}}]})")
                                  .arg(freeLoopbackPort())
                                  .toUtf8();
    ASSERT_TRUE(cluster.start(config)) << cluster.errorString().toStdString();
    QTemporaryDir dir;
    const QString dashboard = writeDashboard(dir);
    const QString csv = dir.filePath(QStringLiteral("run.csv"));
    const QString prometheus = QStringLiteral("http://127.0.0.1:%1/").arg(freeLoopbackPort()); // down: not the point

    AppRun run;
    {
        const KubeconfigVariable variable(cluster.kubeconfig());
        run = runChaoscope({QStringLiteral("--prometheus"), prometheus, QStringLiteral("--dashboard"), dashboard,
                            QStringLiteral("--no-record"), QStringLiteral("--export"), csv, QStringLiteral("--after"),
                            QStringLiteral("6s")});
    }
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("watching cluster")) &&
                run.err.contains(QStringLiteral("namespace chaos")))
        << run.err.toStdString();
    EXPECT_FALSE(run.err.contains(cluster.adminToken())) << "where the credential came from, never what it is";
    QFile data(csv);
    ASSERT_TRUE(data.open(QIODevice::ReadOnly)) << run.err.toStdString();
    const QString table = QString::fromUtf8(data.readAll());
    const QStringList lines = table.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_GE(lines.size(), 2) << table.toStdString();
    const QStringList header = lines.front().split(QLatin1Char(','));
    const qsizetype column =
        std::find_if(header.begin(), header.end(),
                     [](const QString &h) { return h.contains(QStringLiteral("worker capacity")); }) -
        header.begin();
    ASSERT_LT(column, header.size()) << lines.front().toStdString();
    const QStringList last = lines.back().split(QLatin1Char(','));
    ASSERT_LT(column, last.size()) << lines.back().toStdString();
    EXPECT_EQ(last.at(column).toDouble(), 32) << lines.back().toStdString();
}

TEST(DashboardCluster, WithoutAUsableKubeconfigTheDashboardOpensAndSaysWhyOnTheTerminal)
{
    if (QStandardPaths::findExecutable(QStringLiteral("prometheus")).isEmpty())
        GTEST_SKIP() << "prometheus is not installed";
    PrometheusProcess prometheus;
    ASSERT_TRUE(prometheus.start()) << prometheus.errorString().toStdString();
    ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("prometheus_tsdb_head_series"), 30000));
    QTemporaryDir dir;
    const QString dashboard = writeDashboard(dir);
    const QString csv = dir.filePath(QStringLiteral("run.csv"));
    AppRun run;
    {
        const KubeconfigVariable variable(dir.filePath(QStringLiteral("missing-kubeconfig")));
        run = runChaoscope({QStringLiteral("--prometheus"), prometheus.url().toString(), QStringLiteral("--dashboard"),
                            dashboard, QStringLiteral("--no-record"), QStringLiteral("--export"), csv,
                            QStringLiteral("--after"), QStringLiteral("8s")});
    }
    EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("the dashboard's \"kubernetes\": ")) &&
                run.err.contains(QStringLiteral("going on without the Cluster dock")))
        << run.err.toStdString();
    QFile data(csv);
    ASSERT_TRUE(data.open(QIODevice::ReadOnly)) << run.err.toStdString();
    EXPECT_TRUE(data.readAll().contains("head series")) << "the dashboard ran all the same";
    // Asked for by option, the same kubeconfig stops the start with the reason.
    AppRun asked;
    {
        const KubeconfigVariable variable(dir.filePath(QStringLiteral("missing-kubeconfig")));
        asked = runChaoscope({QStringLiteral("--dashboard"), dashboard, QStringLiteral("--kubernetes"),
                              QStringLiteral("--no-record"), QStringLiteral("--export"), csv});
    }
    EXPECT_EQ(asked.exitCode, 2) << asked.err.toStdString();
    EXPECT_TRUE(asked.err.contains(QStringLiteral("--kubernetes: "))) << asked.err.toStdString();
}
