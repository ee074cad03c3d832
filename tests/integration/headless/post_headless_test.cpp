// SPDX-License-Identifier: GPL-3.0-or-later
// The write-up, as a blog author gets it: seed 000 in brief on the real testbed (the starter
// below the engine's ceiling, raised far above it, then given an in-flight limit), recorded,
// and the post drafted from the run headless — at the scenario's end and again from the
// recording — with its sections, phase tables, pictures and a clean markdownlint; and the run
// table of three recordings at three rates, checked against the recorded samples.
#include "actions/sessioncomparison.h"
#include "analysis/phasestatistics.h"
#include "apprun.h"
#include "base/format.h"
#include "inorder.h"
#include "prometheusprocess.h"
#include "report/postphases.h"
#include "session/format/sessionreader.h"
#include "store/serieskey.h"
#include "testbedprocess.h"
#include "testfiles.h"
#include "testpaths.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <iostream>

namespace {

AppRun runApp(const QStringList &arguments)
{
    return runChaoscope(arguments, 240000);
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The samples of a recorded series in the time range, as the session file holds them.
std::vector<double> samplesOf(const SessionContents &contents, const QString &key, const TimeRange &range)
{
    for (const SessionSeries &series : contents.series) {
        if (series.key != key)
            continue;
        std::vector<double> values;
        for (std::size_t i = 0; i < series.timestampsMs.size(); ++i) {
            if (range.contains(series.timestampsMs[i]) && std::isfinite(series.values[i]))
                values.push_back(series.values[i]);
        }
        return values;
    }
    return {};
}

class PostHeadless : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        // Seed 000's testbed in brief: the engine's ceiling 4 workers / 50 ms = 80/s, a pool of 10.
        ASSERT_TRUE(engine.start(engineBinary(), {QStringLiteral("--workers"), QStringLiteral("4"),
                                                  QStringLiteral("--service-time"), QStringLiteral("0.05"),
                                                  QStringLiteral("--service-distribution"), QStringLiteral("fixed")}))
            << engine.errorString().toStdString();
        ASSERT_TRUE(
            starter.start(starterBinary(), {QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                            QStringLiteral("0"), QStringLiteral("--pool-size"), QStringLiteral("10"),
                                            QStringLiteral("--deadline"), QStringLiteral("3")}))
            << starter.errorString().toStdString();
        ASSERT_TRUE(prometheus.start(
            {{QStringLiteral("engine"), engine.hostPort()}, {QStringLiteral("starter"), starter.hostPort()}}))
            << prometheus.errorString().toStdString();
        ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("count(up{job=~\"engine|starter\"} == 1) == 2"), 30000));
    }

    QStringList liveArgs() const
    {
        return {QStringLiteral("--prometheus"), prometheus.url().toString(), QStringLiteral("--dashboard"),
                QStringLiteral("testbed"),      QStringLiteral("--admin"),   starter.baseUrl(),
                QStringLiteral("--window"),     QStringLiteral("2m")};
    }

    void TearDown() override
    {
        // What a failing run drew and wrote stays for a look: CHAOSCOPE_KEEP_POST=1.
        if (HasFailure() && qEnvironmentVariable("CHAOSCOPE_KEEP_POST") == QLatin1String("1")) {
            dir.setAutoRemove(false);
            std::cerr << "kept " << dir.path().toStdString() << "\n";
        }
    }

    TestbedProcess engine;
    TestbedProcess starter;
    PrometheusProcess prometheus;
    QTemporaryDir dir;
};

const QString kScenario = QStringLiteral(R"json({
  "title": "seed 000 in brief: starter collapse and the in-flight fix",
  "steps": [
    {"at": "+1s", "setRate": 40},
    {"at": "+2s", "annotate": "40/s: half the engine's ceiling", "tags": ["phase"]},
    {"at": "+14s", "setRate": 240},
    {"at": "+28s", "setInflightLimit": 10},
    {"at": "+40s", "waitFor": "vector(1) > 0"}
  ],
  "expect": [
    {"name": "the starter sends", "query": "sum(rate(starter_requests_sent_total[5s]))", "holds": ">= 1",
     "after": "8s", "unit": "ops/s"}
  ]
})json");

} // namespace

TEST_F(PostHeadless, APostFromTheRecordedSeed000RunHasItsSectionsTablesAndPicturesAndPassesTheLinter)
{
    const QString scenario = writeTestFile(dir, QStringLiteral("seed000-brief.json"), kScenario.toUtf8());
    ASSERT_FALSE(scenario.isEmpty());
    const QString session = dir.filePath(QStringLiteral("seed000.chaoscope"));
    const QString livePost = dir.filePath(QStringLiteral("live-post"));
    const AppRun live = runApp(liveArgs() << QStringLiteral("--scenario") << scenario << QStringLiteral("--record")
                                          << session << QStringLiteral("--export-post") << livePost
                                          << QStringLiteral("--post-author") << QStringLiteral("chaos team")
                                          << QStringLiteral("--post-tags") << QStringLiteral("availability,pool"));
    ASSERT_EQ(live.exitCode, 0) << live.err.toStdString();
    EXPECT_TRUE(QFile::exists(livePost + QStringLiteral("/index.md"))) << "written at the scenario's end";
    EXPECT_TRUE(readText(livePost + QStringLiteral("/index.md")).contains(QStringLiteral("✅")))
        << "the live verdict is in the Result";

    // The same post from the recording, long after: nothing is asked of Prometheus.
    const QString post = dir.filePath(QStringLiteral("post"));
    const AppRun drafted = runApp({QStringLiteral("--session"), session, QStringLiteral("--export-post"), post,
                                   QStringLiteral("--post-author"), QStringLiteral("chaos team"),
                                   QStringLiteral("--post-tags"), QStringLiteral("availability")});
    ASSERT_EQ(drafted.exitCode, 0) << drafted.err.toStdString();
    EXPECT_TRUE(drafted.out.contains(QStringLiteral("post: ") + post + QStringLiteral("/index.md")))
        << drafted.out.toStdString();
    const QString index = readText(post + QStringLiteral("/index.md"));
    ASSERT_FALSE(index.isEmpty());

    // The team's shape, in order.
    const QStringList sections{
        QStringLiteral("---\ntitle: \"seed 000 in brief: starter collapse and the in-flight fix\"\n"),
        QStringLiteral("authors: [\"chaos team\"]\n---\n"),
        QStringLiteral("**TL;DR;**"),
        QStringLiteral("-whole-run.png)"),
        QStringLiteral("<!--truncate-->"),
        QStringLiteral("## Chaos Experiment"),
        QStringLiteral("| rate 0 → 40 /s |"),
        QStringLiteral("### Expected"),
        QStringLiteral("- **the starter sends**:"),
        QStringLiteral("### Actual"),
        QStringLiteral("#### Phase 1: rate 0 → 40 /s"),
        QStringLiteral("#### Phase 2: rate 40 → 240 /s"),
        QStringLiteral("](phase-2-rate-240.png)"),
        QStringLiteral("#### Phase 3: in-flight limit"),
        QStringLiteral("### Result"),
        QStringLiteral("| the starter sends | ✅ held"),
        QStringLiteral("## Found bugs"),
    };
    ASSERT_TRUE(containsInOrder(index, sections));

    // Every picture it names is there, in the blog theme at 2×.
    static const QRegularExpression picture(QStringLiteral(R"(!\[[^\]]*\]\(([^)]+)\))"));
    int pictures = 0;
    for (auto it = picture.globalMatch(index); it.hasNext();) {
        const QString file = it.next().captured(1);
        const QImage image(post + QLatin1Char('/') + file);
        EXPECT_FALSE(image.isNull()) << file.toStdString();
        EXPECT_EQ(image.width(), 2400) << file.toStdString();
        ++pictures;
    }
    EXPECT_EQ(pictures, 4) << "the headline and one per phase";

    // Each phase's table holds what the phase statistics compute from the recorded samples.
    const Result<SessionContents> contents = SessionReader::readFile(session);
    ASSERT_TRUE(contents.ok());
    const TimeRange run = SessionComparison::runOf(contents.value());
    const QString sentKey = SeriesKey::ofQuery(0, 0, {}, QStringLiteral("{}"));
    const SessionSeries *sent = nullptr;
    for (const SessionSeries &series : contents->series)
        if (series.key == sentKey)
            sent = &series;
    ASSERT_NE(sent, nullptr);
    const PhaseStatisticsTable table =
        PhaseStatistics::compute({{QStringLiteral("sent"), QStringLiteral("ops/s"), sent->timestampsMs, sent->values}},
                                 run, PostPhases::boundaries(run, contents->annotations), false);
    const std::vector<PostPhases::Planned> phases = PostPhases::plan(run, contents->annotations, table);
    ASSERT_EQ(phases.size(), 3u);
    for (const PostPhases::Planned &phase : phases) {
        const PhaseStatisticsTable::Row &mean = table.rows.front();
        ASSERT_TRUE(mean.values[std::size_t(phase.column)].has_value());
        const QString row = QStringLiteral("| Throughput: sent vs accepted vs completed: starter sent/s | %1 |")
                                .arg(Format::value(*mean.values[std::size_t(phase.column)], QStringLiteral("ops/s")));
        EXPECT_TRUE(index.contains(row)) << "phase " << phase.phase.number << ": " << row.toStdString();
    }
    // And what they say is what happened: the starter at 40/s by the end of the first phase
    // (rows: mean, min, max, last), far above the engine's 80/s in the second.
    EXPECT_NEAR(*table.rows[3].values[std::size_t(phases[0].column)], 40, 8);
    EXPECT_GT(*table.rows[2].values[std::size_t(phases[1].column)], 160);

    // markdownlint, as the blog's CI would run it.
    QProcess lint;
    lint.start(sourcePath(QStringLiteral("tools/markdownlint/node_modules/.bin/markdownlint")),
               {QStringLiteral("--config"), sourcePath(QStringLiteral("tools/markdownlint/.markdownlint.jsonc")),
                post + QStringLiteral("/index.md")});
    ASSERT_TRUE(lint.waitForFinished(60000)) << "markdownlint did not run: install it with ./dev test";
    EXPECT_EQ(lint.exitCode(), 0) << lint.readAllStandardError().toStdString()
                                  << lint.readAllStandardOutput().toStdString();

    // The author fills in the TL;DR; drafting again keeps it and puts the new draft beside it.
    {
        QFile file(post + QStringLiteral("/index.md"));
        ASSERT_TRUE(file.open(QIODevice::Append));
        file.write("\nThe pool of 10 connections was the ceiling.\n");
    }
    const QString edited = readText(post + QStringLiteral("/index.md"));
    const AppRun again = runApp({QStringLiteral("--session"), session, QStringLiteral("--export-post"), post});
    ASSERT_EQ(again.exitCode, 0) << again.err.toStdString();
    EXPECT_EQ(readText(post + QStringLiteral("/index.md")), edited);
    EXPECT_TRUE(QFile::exists(post + QStringLiteral("/index.md.new")));
    EXPECT_TRUE(again.err.contains(QStringLiteral("index.md was edited"))) << again.err.toStdString();
}

TEST_F(PostHeadless, TheRunTableOfThreeRecordingsAtThreeRatesHoldsTheirRecordedMeans)
{
    // Three runs, one after the other, as on a Chaos Day: the same dashboard at 20, 40, 60/s.
    QStringList sessions;
    for (const int rate : {20, 40, 60}) {
        const QString scenario = writeTestFile(dir, QStringLiteral("rate-%1.json").arg(rate),
                                               QStringLiteral(R"json({"title": "rate %1", "steps": [
            {"at": "+1s", "setRate": %1}, {"at": "+13s", "waitFor": "vector(1) > 0"}]})json")
                                                   .arg(rate)
                                                   .toUtf8());
        ASSERT_FALSE(scenario.isEmpty());
        const QString session = dir.filePath(QStringLiteral("rate-%1.chaoscope").arg(rate));
        const AppRun run =
            runApp(liveArgs() << QStringLiteral("--scenario") << scenario << QStringLiteral("--record") << session);
        ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
        sessions << session;
    }

    const QString csv = dir.filePath(QStringLiteral("runs.csv"));
    const QString overlay = dir.filePath(QStringLiteral("overlay.png"));
    const AppRun table =
        runApp({QStringLiteral("--session"),       sessions[0],
                QStringLiteral("--session"),       sessions[1],
                QStringLiteral("--session"),       sessions[2],
                QStringLiteral("--compare-align"), QStringLiteral("rate"),
                QStringLiteral("--steady"),        QStringLiteral("+5s/"),
                QStringLiteral("--table-columns"), QStringLiteral("sent:mean,sent:max"),
                QStringLiteral("--run-table"),     csv,
                QStringLiteral("--export"),        overlay,
                QStringLiteral("--compare-view"),  QStringLiteral("overlay"),
                QStringLiteral("--panel"),         QStringLiteral("Throughput: sent vs accepted vs completed")});
    ASSERT_EQ(table.exitCode, 0) << table.err.toStdString();
    EXPECT_FALSE(QImage(overlay).isNull());
    const QStringList lines = readText(csv).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 4) << readText(csv).toStdString();
    EXPECT_EQ(lines[0], QStringLiteral("run,sent · mean (ops/s),sent · max (ops/s)"));

    // Each row, from the recording itself: the samples of "sent" from 5 s after the rate was
    // set to the end of the run.
    for (int r = 0; r < 3; ++r) {
        const Result<SessionContents> contents = SessionReader::readFile(sessions[r]);
        ASSERT_TRUE(contents.ok());
        qint64 zero = -1;
        for (const Annotation &annotation : contents->annotations)
            if (zero < 0 && annotation.text.contains(QStringLiteral("rate")))
                zero = annotation.timeMs;
        ASSERT_GE(zero, 0);
        const TimeRange steady{zero + 5000, SessionComparison::runOf(contents.value()).endMs};
        const std::vector<double> values =
            samplesOf(contents.value(), SeriesKey::ofQuery(0, 0, {}, QStringLiteral("{}")), steady);
        ASSERT_GE(values.size(), 5u);
        double sum = 0;
        double max = values.front();
        for (double v : values) {
            sum += v;
            max = std::max(max, v);
        }
        const QStringList fields = lines[r + 1].split(QLatin1Char(','));
        ASSERT_EQ(fields.size(), 3);
        EXPECT_EQ(fields[0], QStringLiteral("rate-%1").arg(20 * (r + 1)));
        EXPECT_DOUBLE_EQ(fields[1].toDouble(), sum / double(values.size())) << lines[r + 1].toStdString();
        EXPECT_DOUBLE_EQ(fields[2].toDouble(), max);
        EXPECT_NEAR(fields[1].toDouble(), 20.0 * (r + 1), 6) << "the rate the run was set to";
    }
}
