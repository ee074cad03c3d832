// SPDX-License-Identifier: GPL-3.0-or-later
// testbed/demo-stack --cluster --no-app as a newcomer runs it: it comes up with every pod
// running and scraped, the kubeconfig it writes lets the real kubectl see and steer the pods,
// the token is in no file but that kubeconfig, and SIGTERM stops everything it started
// (the cluster, its pods, Prometheus) and removes its temporary folder.
#include "clusterprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <csignal>
#include <gtest/gtest.h>

namespace {

struct Kubectl
{
    QString kubeconfig;
    QString home;

    QString run(const QStringList &arguments, int *exitCode = nullptr) const
    {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), home);
        process.setProcessEnvironment(environment);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(ClusterProcess::kubectlBinary(), QStringList{"--kubeconfig", kubeconfig} + arguments);
        process.waitForStarted(10000);
        waitFor([&] { return process.state() == QProcess::NotRunning; }, 60000);
        if (exitCode)
            *exitCode = process.exitCode();
        return QString::fromUtf8(process.readAll());
    }
};

} // namespace

TEST(DemoStackCluster, ComesUpForKubectlKeepsTheTokenInTheKubeconfigAndStopsEverything)
{
    QString why;
    if (!ClusterProcess::canRun(&why))
        GTEST_SKIP() << why.toStdString();
    if (QStandardPaths::findExecutable(QStringLiteral("prometheus")).isEmpty())
        GTEST_SKIP() << "prometheus is not installed";
    for (const QString &binary : {clusterBinary(), starterBinary(), engineBinary(), workerBinary()})
        ASSERT_TRUE(QFileInfo(binary).isExecutable()) << binary.toStdString() << " is not built";
    QTemporaryDir out;
    QTemporaryDir tmp;
    QTemporaryDir home;
    QProcess script;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TMPDIR"), tmp.path());
    script.setProcessEnvironment(environment);
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(sourcePath(QStringLiteral("testbed/demo-stack")),
                 {"--cluster", "--no-app", "--build", binaryPath(QString()), "--out", out.path()});
    ASSERT_TRUE(script.waitForStarted(5000));
    QByteArray output;
    const bool ready = waitFor(
        [&] {
            output += script.readAll();
            return output.contains("demo-stack: ready\n") || script.state() != QProcess::Running;
        },
        120000, 100);
    ASSERT_TRUE(ready && output.contains("demo-stack: ready\n")) << output.constData();

    const QRegularExpressionMatch cluster =
        QRegularExpression(QStringLiteral(R"(demo-stack: cluster +https://127\.0\.0\.1:\d+/ +pid (\d+))"))
            .match(QString::fromUtf8(output));
    const QRegularExpressionMatch prometheus =
        QRegularExpression(QStringLiteral(R"(demo-stack: prometheus +http://127\.0\.0\.1:\d+/ +pid (\d+))"))
            .match(QString::fromUtf8(output));
    const QRegularExpressionMatch kubeconfig =
        QRegularExpression(QStringLiteral(R"(demo-stack: kubeconfig +(\S+))")).match(QString::fromUtf8(output));
    ASSERT_TRUE(cluster.hasMatch() && prometheus.hasMatch() && kubeconfig.hasMatch()) << output.constData();
    EXPECT_EQ(QFileInfo(kubeconfig.captured(1)).permissions() & (QFile::ReadOther | QFile::ReadGroup), 0)
        << "the kubeconfig is readable by its owner only";

    const Kubectl kubectl{kubeconfig.captured(1), home.path()};
    int code = -1;
    const QString pods = kubectl.run({"get", "pods"}, &code);
    EXPECT_EQ(code, 0) << pods.toStdString();
    EXPECT_EQ(pods.count(QRegularExpression(QStringLiteral(" 1/1 +Running "))), 7) << pods.toStdString();
    const QString scaled = kubectl.run({"scale", "deployment", "refunding", "--replicas=2"}, &code);
    EXPECT_EQ(code, 0) << scaled.toStdString();

    // Every process of the stack, from the pods' container ids.
    QList<qint64> pids{cluster.captured(1).toLongLong(), prometheus.captured(1).toLongLong()};
    ASSERT_TRUE(waitFor(
        [&] {
            return kubectl.run({"get", "deployment", "refunding"}).contains(QStringLiteral(" 2/2 "));
        },
        60000, 500));
    const QJsonArray items = QJsonDocument::fromJson(kubectl.run({"get", "pods", "-o", "json"}).toUtf8())
                                 .object()
                                 .value(QStringLiteral("items"))
                                 .toArray();
    for (const QJsonValue &item : items) {
        const QString id = item.toObject()
                               .value(QStringLiteral("status"))
                               .toObject()
                               .value(QStringLiteral("containerStatuses"))
                               .toArray()
                               .at(0)
                               .toObject()
                               .value(QStringLiteral("containerID"))
                               .toString();
        pids << id.mid(QStringLiteral("chaoscope://").size()).toLongLong();
    }
    ASSERT_EQ(pids.size(), 2 + 8) << "cluster, Prometheus and eight pods";
    for (const qint64 pid : pids)
        EXPECT_TRUE(processIsAlive(pid)) << pid;

    // The token: in the kubeconfig, nowhere else (logs, the pods' logs, temporary files).
    QFile config(kubeconfig.captured(1));
    ASSERT_TRUE(config.open(QIODevice::ReadOnly));
    const QByteArray token = QRegularExpression(QStringLiteral("token: (\\S+)"))
                                 .match(QString::fromUtf8(config.readAll()))
                                 .captured(1)
                                 .toUtf8();
    ASSERT_GE(token.size(), 32);
    EXPECT_FALSE(output.contains(token)) << "not on the terminal";
    for (const QString &root : {out.path(), tmp.path()}) {
        QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString path = files.next();
            if (path == kubeconfig.captured(1))
                continue;
            QFile file(path);
            if (file.open(QIODevice::ReadOnly)) {
                EXPECT_FALSE(file.readAll().contains(token)) << path.toStdString();
            }
        }
    }

    ::kill(static_cast<pid_t>(script.processId()), SIGTERM);
    ASSERT_TRUE(waitFor([&] { return script.state() == QProcess::NotRunning; }, 60000));
    output += script.readAll();
    EXPECT_TRUE(output.contains("stopped everything")) << output.constData();
    waitFor([&] { return std::none_of(pids.begin(), pids.end(), processIsAlive); }, 5000);
    for (const qint64 pid : pids)
        EXPECT_FALSE(processIsAlive(pid)) << "pid " << pid << " survived demo-stack";
    EXPECT_TRUE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty())
        << "temporary folders left behind";
}
