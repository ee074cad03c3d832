// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in scenario seed004 as `./dev demo --seed004` runs it: testbed/demo-stack with the
// testbed cluster, a real Prometheus and the real app headless. Every Kubernetes step is taken
// through the API and read back, each action is marked and rolled out, the pictures are
// written, the recording shows the outage (the downstream workers stop, the active instances
// pile up), and the cluster's token is in no file but the kubeconfig.
#include "clusterprocess.h"
#include "session/format/sessionreader.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cstdlib>
#include <gtest/gtest.h>

namespace {

// The values of the recorded series whose key starts with `prefix`, by time.
std::map<qint64, double> recorded(const SessionContents &contents, const QString &prefix)
{
    std::map<qint64, double> values;
    for (const SessionSeries &series : contents.series) {
        if (!series.key.startsWith(prefix))
            continue;
        for (std::size_t i = 0; i < series.values.size(); ++i)
            values[series.timestampsMs[i]] += series.values[i];
    }
    return values;
}

double valueAt(const std::map<qint64, double> &values, qint64 t)
{
    auto it = values.upper_bound(t);
    if (it == values.begin())
        return std::nan("");
    return std::prev(it)->second;
}

} // namespace

TEST(Seed004Scenario, TheWorkersOutageAndEveryActionAreTakenMarkedAndPictured)
{
    QString why;
    if (!ClusterProcess::canRun(&why))
        GTEST_SKIP() << why.toStdString();
    if (QStandardPaths::findExecutable(QStringLiteral("prometheus")).isEmpty())
        GTEST_SKIP() << "prometheus is not installed";
    QTemporaryDir out;
    QTemporaryDir tmp;
    QTemporaryDir home;
    const QString session = out.filePath(QStringLiteral("seed004.chaoscope"));
    QProcess script;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TMPDIR"), tmp.path());
    environment.insert(QStringLiteral("HOME"), home.path()); // no settings of the user's
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral(".config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral(".local/share")));
    environment.remove(QStringLiteral("DISPLAY"));
    script.setProcessEnvironment(environment);
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(sourcePath(QStringLiteral("testbed/demo-stack")),
                 {"--cluster", "--build", binaryPath(QString()), "--out", out.path(), "--scenario", "seed004",
                  "--dashboard", "seed004", "--record", session});
    ASSERT_TRUE(script.waitForStarted(5000));
    QByteArray output;
    // The scenario runs about 3½ minutes after the stack is up.
    waitFor(
        [&] {
            output += script.readAll();
            return script.state() == QProcess::NotRunning;
        },
        480000, 200);
    output += script.readAll();
    ASSERT_EQ(script.state(), QProcess::NotRunning) << output.constData();
    ASSERT_EQ(script.exitCode(), 0) << output.constData();
    EXPECT_TRUE(output.contains("chaoscope: scenario finished: all 14 steps succeeded")) << output.constData();

    // Five pictures, one after each phase.
    const QRegularExpression shot(QStringLiteral("^screenshot: (.+\\.png)$"), QRegularExpression::MultilineOption);
    QStringList pictures;
    for (auto it = shot.globalMatch(QString::fromUtf8(output)); it.hasNext();)
        pictures << it.next().captured(1);
    ASSERT_EQ(pictures.size(), 5) << output.constData();
    EXPECT_TRUE(pictures.back().endsWith(QStringLiteral("5-starter-stopped.png")));
    for (const QString &picture : pictures) {
        const QImage image(picture);
        EXPECT_EQ(image.size(), QSize(1600, 1200)) << picture.toStdString();
    }

    const Result<SessionContents> read = SessionReader::readFile(session);
    ASSERT_TRUE(read.ok()) << read.error().message.toStdString();
    const SessionContents &contents = read.value();
    const auto mark = [&](const QString &text) -> std::optional<Annotation> {
        for (const Annotation &a : contents.annotations) {
            if (a.text.startsWith(text))
                return a;
        }
        return std::nullopt;
    };
    const QString extract = QStringLiteral("extract-data-from-document");
    const QString proof = QStringLiteral("dispute-process-request-proof-from-vendor");
    for (const QString &action :
         {extract + QStringLiteral(" replicas 1 → 0"), extract + QStringLiteral(" replicas 0 → 1"),
          proof + QStringLiteral(" env CAPACITY 60 → 100"), proof + QStringLiteral(" replicas 1 → 3"),
          QStringLiteral("starter replicas 1 → 0")}) {
        const std::optional<Annotation> a = mark(action);
        ASSERT_TRUE(a.has_value()) << action.toStdString() << " is not marked";
        EXPECT_EQ(a->source, Annotation::Source::Action) << action.toStdString();
        EXPECT_FALSE(a->failed) << a->text.toStdString();
        EXPECT_TRUE(a->text.contains(QStringLiteral("rolled out in"))) << a->text.toStdString();
        EXPECT_TRUE(a->endMs.has_value()) << a->text.toStdString();
    }
    for (const Annotation &a : contents.annotations)
        EXPECT_FALSE(a.text.contains(QStringLiteral("not by Chaoscope"))) << a.text.toStdString();

    // The outage in the data: while the first worker is away, the active instances pile up.
    const qint64 down = mark(extract + QStringLiteral(" replicas 1 → 0"))->timeMs;
    const qint64 back = mark(extract + QStringLiteral(" replicas 0 → 1"))->timeMs;
    // The first panel's query (SeriesKey: p<panel>/q<query>/…).
    const std::map<qint64, double> active = recorded(contents, QStringLiteral("p0/q0/"));
    ASSERT_FALSE(active.empty()) << "the active instances were not recorded";
    EXPECT_GT(valueAt(active, back), valueAt(active, down) + 30)
        << "a minute at one instance a second: about 60 more active instances";

    // The same day from the dashboard's annotation queries alone, as Prometheus saw the
    // cluster: each replica change within a few scrapes of the action, the outage a region.
    for (const auto &[query, action] :
         {std::pair{extract + QStringLiteral(" desired replicas 1 → 0"), extract + QStringLiteral(" replicas 1 → 0")},
          std::pair{extract + QStringLiteral(" desired replicas 0 → 1"), extract + QStringLiteral(" replicas 0 → 1")},
          std::pair{proof + QStringLiteral(" desired replicas 1 → 3"), proof + QStringLiteral(" replicas 1 → 3")},
          std::pair{QStringLiteral("starter desired replicas 1 → 0"), QStringLiteral("starter replicas 1 → 0")}}) {
        const std::optional<Annotation> fromQuery = mark(query);
        ASSERT_TRUE(fromQuery.has_value()) << query.toStdString() << " is not marked by the query";
        EXPECT_EQ(fromQuery->source, Annotation::Source::Query);
        EXPECT_EQ(fromQuery->author, QStringLiteral("replicas"));
        EXPECT_LE(std::abs(fromQuery->timeMs - mark(action)->timeMs), 3000) << query.toStdString();
    }
    const std::optional<Annotation> outage = mark(extract + QStringLiteral(" at 0 replicas"));
    ASSERT_TRUE(outage.has_value() && outage->endMs.has_value());
    EXPECT_LE(std::abs(outage->timeMs - down), 3000);
    EXPECT_LE(std::abs(*outage->endMs - back), 3000);

    // No file the run wrote holds the cluster's token, but the kubeconfig it is meant for.
    QFile kubeconfig(out.filePath(QStringLiteral("kubeconfig")));
    ASSERT_TRUE(kubeconfig.open(QIODevice::ReadOnly));
    const QRegularExpressionMatch token =
        QRegularExpression(QStringLiteral("token: (\\S+)")).match(QString::fromUtf8(kubeconfig.readAll()));
    ASSERT_TRUE(token.hasMatch());
    EXPECT_FALSE(output.contains(token.captured(1).toUtf8()));
    for (const QString &root : {out.path(), home.path()}) {
        QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString path = files.next();
            if (path == kubeconfig.fileName())
                continue;
            QFile file(path);
            ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
            EXPECT_FALSE(file.readAll().contains(token.captured(1).toUtf8())) << path.toStdString();
        }
    }
}
