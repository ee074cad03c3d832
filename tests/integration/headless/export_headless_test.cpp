// SPDX-License-Identifier: GPL-3.0-or-later
// Export as a blog author runs it: the real app, headless, on the real testbed and the real
// Prometheus, steered by a scenario so that the run has actions to mark; the picture, the
// SVG and the CSV it writes, and the reasons it gives when it cannot.
#include "apprun.h"
#include "prometheusprocess.h"
#include "testbedprocess.h"
#include "testpaths.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <algorithm>
#include <gtest/gtest.h>

namespace {

// Scenarios run for minutes: a longer guard against a hang than the default.
AppRun runApp(const QStringList &arguments)
{
    return runChaoscope(arguments, 180000);
}

const QString kThroughput = QStringLiteral("Throughput: sent vs accepted vs completed");

struct SvgContent
{
    QStringList texts; // each <text>'s words
    int paths = 0;
    QString error; // the file could not be read as SVG
};

SvgContent readSvg(const QString &path)
{
    SvgContent content;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        content.error = file.errorString();
        return content;
    }
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("text"))
            content.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
        else if (xml.isStartElement() && xml.name() == QLatin1String("path"))
            ++content.paths;
    }
    if (xml.hasError())
        content.error = xml.errorString();
    return content;
}

bool anyContains(const QStringList &texts, const QString &a, const QString &b)
{
    return std::any_of(texts.begin(), texts.end(), [&](const QString &t) { return t.contains(a) && t.contains(b); });
}

class ExportHeadless : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(engine.start(engineBinary(), {})) << engine.errorString().toStdString();
        ASSERT_TRUE(starter.start(starterBinary(), {QStringLiteral("--target"), engine.baseUrl(),
                                                    QStringLiteral("--rate"), QStringLiteral("10")}))
            << starter.errorString().toStdString();
        ASSERT_TRUE(prometheus.start(
            {{QStringLiteral("starter"), starter.hostPort()}, {QStringLiteral("engine"), engine.hostPort()}}))
            << prometheus.errorString().toStdString();
        // Three scrapes: the exports must draw within their run, even on a loaded machine.
        ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("count_over_time(starter_rate[1m]) >= 3"), 30000));
        // A marked note and a real action (the rate change is annotated by the app itself).
        QFile scenario(dir.filePath(QStringLiteral("steps.json")));
        ASSERT_TRUE(scenario.open(QIODevice::WriteOnly));
        scenario.write(R"({"steps": [{"at": "+1s", "annotate": "baseline"}, {"setRate": 25}]})");
    }
    // Runs the app for a few seconds against the testbed, then exports to `file`.
    AppRun exportTo(const QString &file, const QStringList &more)
    {
        return runApp(QStringList{QStringLiteral("--prometheus"), prometheus.url().toString(),
                                  QStringLiteral("--dashboard"), QStringLiteral("testbed"), QStringLiteral("--admin"),
                                  starter.baseUrl(), QStringLiteral("--scenario"),
                                  dir.filePath(QStringLiteral("steps.json")), QStringLiteral("--window"),
                                  QStringLiteral("5m"), QStringLiteral("--no-record"), QStringLiteral("--after"),
                                  QStringLiteral("6s"), QStringLiteral("--export"), file} +
                      more);
    }
    TestbedProcess engine;
    TestbedProcess starter;
    PrometheusProcess prometheus;
    QTemporaryDir dir;
};

} // namespace

TEST_F(ExportHeadless, PngOfOnePanelIsTheLogicalSizeTimesTheScale)
{
    const QString png = dir.filePath(QStringLiteral("throughput.png"));
    const AppRun run = exportTo(png, {QStringLiteral("--panel"), kThroughput, QStringLiteral("--scale"),
                                      QStringLiteral("2"), QStringLiteral("--export-size"), QStringLiteral("800x450")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("export: ") + png)) << run.out.toStdString();
    const QImage image(png);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1600, 900));
}

TEST_F(ExportHeadless, SvgHoldsTheTitleAndTheActionsAsTextAndTheSeriesAsPaths)
{
    const QString svg = dir.filePath(QStringLiteral("dashboard.svg"));
    const AppRun run = exportTo(svg, {QStringLiteral("--title"), QStringLiteral("Chaos Day: rate 10 to 25"),
                                      QStringLiteral("--panel"), kThroughput});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const SvgContent content = readSvg(svg);
    ASSERT_TRUE(content.error.isEmpty()) << content.error.toStdString();
    const QStringList &texts = content.texts;
    const int paths = content.paths;
    EXPECT_TRUE(texts.contains(QStringLiteral("Chaos Day: rate 10 to 25"))) << texts.join(" | ").toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("baseline"))) << texts.join(" | ").toStdString();
    EXPECT_TRUE(anyContains(texts, QStringLiteral("25"), QStringLiteral("rate")))
        << "the rate change is labelled on the chart: " << texts.join(" | ").toStdString();
    EXPECT_GE(paths, 2) << "the throughput series are paths";
}

TEST_F(ExportHeadless, OnlyTheKindsOfMarksAskedForAreDrawnAndAnUnknownKindIsRefused)
{
    const QString svg = dir.filePath(QStringLiteral("scenario-marks.svg"));
    const AppRun run = exportTo(
        svg, {QStringLiteral("--panel"), kThroughput, QStringLiteral("--annotations"), QStringLiteral("scenario")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const SvgContent content = readSvg(svg);
    ASSERT_TRUE(content.error.isEmpty()) << content.error.toStdString();
    EXPECT_TRUE(content.texts.contains(QStringLiteral("baseline"))) << content.texts.join(" | ").toStdString();
    // The action's label says its change ("rate 10 → 25 /s"); the legend and the caption
    // have "rate" and "25" too, but no arrow.
    EXPECT_FALSE(anyContains(content.texts, QStringLiteral("rate"), QStringLiteral("→")))
        << "the rate change is an action, left out: " << content.texts.join(" | ").toStdString();

    const QString refused = dir.filePath(QStringLiteral("refused.svg"));
    const AppRun unknown = exportTo(refused, {QStringLiteral("--annotations"), QStringLiteral("scenario,actoin")});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_TRUE(unknown.err.contains(QStringLiteral("--annotations: \"actoin\" is not a kind of mark: manual, action")))
        << unknown.err.toStdString();
    const AppRun noQuery = exportTo(refused, {QStringLiteral("--annotations"), QStringLiteral("query:restarts")});
    EXPECT_EQ(noQuery.exitCode, 2);
    EXPECT_TRUE(noQuery.err.contains(QStringLiteral("no annotation query is named \"restarts\"")))
        << noQuery.err.toStdString();
    EXPECT_FALSE(QFile::exists(refused));
}

TEST_F(ExportHeadless, CsvHasALegendHeaderAndRowsOfSamples)
{
    const QString csv = dir.filePath(QStringLiteral("throughput-{panel}.csv"));
    const AppRun run = exportTo(csv, {QStringLiteral("--panel"), kThroughput});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    QFile file(dir.filePath(QStringLiteral("throughput-throughput-sent-vs-accepted-vs-completed.csv")));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly))
        << "the {panel} placeholder is the panel's title: " << run.out.toStdString();
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    ASSERT_GE(lines.size(), 3);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("time,"))) << lines[0].toStdString();
    EXPECT_GE(lines[0].count(QLatin1Char(',')), 1);
    EXPECT_TRUE(lines[1].contains(QLatin1Char('T')) &&
                lines[1].section(QLatin1Char(','), 0, 0).endsWith(QLatin1Char('Z')))
        << lines[1].toStdString();
}

TEST_F(ExportHeadless, AnUnknownPanelIsRefusedNamingThePanelsThatExist)
{
    const QString png = dir.filePath(QStringLiteral("none.png"));
    const AppRun run = exportTo(png, {QStringLiteral("--panel"), QStringLiteral("Latency")});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("no panel is titled \"Latency\""))) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("\"Client pool\""))) << run.err.toStdString();
    EXPECT_FALSE(QFile::exists(png));
}

TEST_F(ExportHeadless, AnUnwritablePathIsRefusedWithTheReason)
{
    QFile blocker(dir.filePath(QStringLiteral("file")));
    ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const AppRun run = exportTo(dir.filePath(QStringLiteral("file/inside.png")), {});
    EXPECT_EQ(run.exitCode, 3);
    EXPECT_TRUE(run.err.contains(QStringLiteral("cannot create the folder"))) << run.err.toStdString();
}

TEST_F(ExportHeadless, ComparisonPutsTwoTitledWindowsSideBySide)
{
    const QString svg = dir.filePath(QStringLiteral("compare.svg"));
    const AppRun run = exportTo(svg, {QStringLiteral("--panel"), kThroughput, QStringLiteral("--compare"),
                                      QStringLiteral("now-6s/now-3s,now-3s/now"), QStringLiteral("--compare-titles"),
                                      QStringLiteral("10 PI/s,25 PI/s")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString content = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(content.contains(QStringLiteral(">10 PI/s<"))) << "each side is titled";
    EXPECT_TRUE(content.contains(QStringLiteral(">25 PI/s<")));

    const AppRun unaligned = exportTo(svg, {QStringLiteral("--compare"), QStringLiteral("now-6s/now-3s,now-3s/now"),
                                            QStringLiteral("--compare-align"), QStringLiteral("no such action")});
    EXPECT_EQ(unaligned.exitCode, 2);
    EXPECT_TRUE(unaligned.err.contains(QStringLiteral("no annotation in now-6s/now-3s contains \"no such action\"")))
        << unaligned.err.toStdString();
}

TEST_F(ExportHeadless, TwoRecordingsAreComparedSideBySideAndMismatchesAreRefused)
{
    // Two runs of the same dashboard, one after the other, each recorded as on a Chaos Day.
    const auto record = [&](const QString &name, const QString &dashboard) {
        const QString session = dir.filePath(name + QStringLiteral(".chaoscope"));
        const AppRun run =
            runApp({QStringLiteral("--prometheus"), prometheus.url().toString(), QStringLiteral("--dashboard"),
                    dashboard, QStringLiteral("--window"), QStringLiteral("5m"), QStringLiteral("--record"), session,
                    QStringLiteral("--after"), QStringLiteral("4s"), QStringLiteral("--export"),
                    dir.filePath(name + QStringLiteral(".png"))});
        EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
        return session;
    };
    const QString before = record(QStringLiteral("before-fix"), QStringLiteral("testbed"));
    const QString after = record(QStringLiteral("after-fix"), QStringLiteral("testbed"));

    const QString svg = dir.filePath(QStringLiteral("runs.svg"));
    const AppRun compared = runApp({QStringLiteral("--session"), before, QStringLiteral("--compare-session"), after,
                                    QStringLiteral("--panel"), kThroughput, QStringLiteral("--export"), svg});
    ASSERT_EQ(compared.exitCode, 0) << compared.err.toStdString();
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString content = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(content.contains(QStringLiteral(">before-fix<"))) << "each side is named after its recording";
    EXPECT_TRUE(content.contains(QStringLiteral(">after-fix<")));
    EXPECT_TRUE(content.contains(QStringLiteral("before-fix.chaoscope, after-fix.chaoscope")))
        << "the caption names both";

    // The same recording twice compares nothing; another dashboard's series would land in the
    // wrong panels. Both are refused, saying why, and write nothing.
    const QString refused = dir.filePath(QStringLiteral("refused.svg"));
    const AppRun same = runApp({QStringLiteral("--session"), before, QStringLiteral("--compare-session"), before,
                                QStringLiteral("--export"), refused});
    EXPECT_EQ(same.exitCode, 2);
    EXPECT_TRUE(same.err.contains(QStringLiteral("before-fix.chaoscope is compared already")))
        << same.err.toStdString();
    const QString other = record(QStringLiteral("other"), QStringLiteral("prometheus-self"));
    const AppRun mismatch = runApp({QStringLiteral("--session"), before, QStringLiteral("--compare-session"), other,
                                    QStringLiteral("--export"), refused});
    EXPECT_EQ(mismatch.exitCode, 2);
    EXPECT_TRUE(mismatch.err.contains(QStringLiteral("other.chaoscope was recorded with another dashboard")))
        << mismatch.err.toStdString();
    EXPECT_FALSE(QFile::exists(refused));

    const AppRun alone = runApp({QStringLiteral("--compare-session"), after, QStringLiteral("--export"), refused});
    EXPECT_EQ(alone.exitCode, 2);
    EXPECT_TRUE(alone.err.contains(QStringLiteral("--compare-session compares with the recording --session opens")))
        << alone.err.toStdString();
}
