// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a session back in every state a file can be in: whole, cut by a crash at any byte,
// damaged in the middle, from a newer format, or not a session at all. Never a crash.
#include "annotations/annotationmodel.h"
#include "dashboard/loader/dashboardloader.h"
#include "session.pb.h"
#include "session/format/sessionformat.h"
#include "session/format/sessionreader.h"
#include "session/sessionrecorder.h"
#include "store/samplestore.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <cmath>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

// A small run recorded through the real path: two series polled for two minutes with the
// poller's overlap, annotations added, edited and deleted on the way.
struct RecordedRun
{
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("run.chaoscope"));
    SampleStore store;
    AnnotationModel annotations;
    DashboardDefinition dashboard = DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard;
    QByteArray bytes;
    // Offsets where records end, recorded after each poll's flush.
    std::vector<qint64> flushedAt;

    explicit RecordedRun(int seconds = 120)
    {
        SessionRecorder recorder(&store, &annotations);
        SessionWriter::Options options;
        options.flushIntervalMs = 20;
        options.keyIntervalMs = 20'000;
        recorder.setWriterOptions(options);
        EXPECT_FALSE(recorder.start(path,
                                    {QStringLiteral("testbed"), QUrl(QStringLiteral("http://user:secret@prom:9090/"))},
                                    dashboard, 300'000));
        quint64 edited = 0;
        for (int s = 0; s < seconds; ++s) {
            const qint64 t = kStart + s * 1000;
            std::vector<qint64> times;
            std::vector<double> rate, pool;
            for (int back = 2; back >= 0; --back) {
                if (s - back < 0)
                    continue;
                times.push_back(t - back * 1000);
                rate.push_back(100 + std::sin(double(s - back)) * 10 + (back == 0 ? 0.5 : 0)); // newest provisional
                pool.push_back(double((s - back) / 10));
            }
            store.merge(QStringLiteral("p0/q0/{}"), {}, times, rate);
            store.merge(QStringLiteral("p1/q0/{pod=\"a\"}"), {{QStringLiteral("pod"), QStringLiteral("a")}}, times,
                        pool);
            if (s == 10)
                annotations.add(Annotation{0,
                                           t,
                                           std::nullopt,
                                           QStringLiteral("rate 100 → 500"),
                                           {QStringLiteral("action")},
                                           Annotation::Source::Action,
                                           false,
                                           {},
                                           0});
            if (s == 20)
                edited = annotations.add(
                    Annotation{0, t, t + 5000, QStringLiteral("draft"), {}, Annotation::Source::Manual, false, {}, 0});
            if (s == 30) {
                Annotation a = *annotations.find(edited);
                a.text = QStringLiteral("exporter slowed down");
                annotations.update(a);
            }
            if (s == 40)
                annotations.remove(annotations.add(Annotation{
                    0, t, std::nullopt, QStringLiteral("oops"), {}, Annotation::Source::Manual, false, {}, 0}));
            recorder.flush();
            flushedAt.push_back(recorder.fileSize());
        }
        recorder.stop();
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::ReadOnly));
        bytes = file.readAll();
    }

    // Store contents at or before `untilMs`, per key, as (time, value) pairs.
    std::vector<std::pair<qint64, double>> samples(const QString &key,
                                                   qint64 untilMs = std::numeric_limits<qint64>::max()) const
    {
        std::vector<std::pair<qint64, double>> out;
        const SampleStore::Series *series = store.series(key);
        for (std::size_t i = 0; i < series->size(); ++i) {
            if (series->timestampsMs()[i] <= untilMs)
                out.emplace_back(series->timestampsMs()[i], series->values()[i]);
        }
        return out;
    }
};

std::vector<std::pair<qint64, double>> samplesOf(const SessionContents &contents, const QString &key)
{
    std::vector<std::pair<qint64, double>> out;
    for (const SessionSeries &series : contents.series) {
        if (series.key != key)
            continue;
        for (std::size_t i = 0; i < series.timestampsMs.size(); ++i)
            out.emplace_back(series.timestampsMs[i], series.values[i]);
    }
    return out;
}

const QString kRate = QStringLiteral("p0/q0/{}");
const QString kPool = QStringLiteral("p1/q0/{pod=\"a\"}");

} // namespace

TEST(SessionReader, AWholeRecordingReadsBackAsItWasOnScreen)
{
    RecordedRun run;
    const Result<SessionContents> read = SessionReader::read(run.bytes);
    ASSERT_TRUE(read) << read.error().message.toStdString();
    const SessionContents &contents = read.value();
    EXPECT_TRUE(contents.closedCleanly);
    EXPECT_FALSE(contents.damage.any());
    EXPECT_TRUE(contents.describeProblems().isEmpty()) << contents.describeProblems().toStdString();
    EXPECT_EQ(contents.chaoscopeVersion, QStringLiteral(CHAOSCOPE_VERSION));
    EXPECT_EQ(contents.sourceUrl, QStringLiteral("http://prom:9090/")) << "no password in the file";
    EXPECT_FALSE(run.bytes.contains("secret"));
    EXPECT_EQ(contents.windowMs, 300'000);

    EXPECT_EQ(samplesOf(contents, kRate), run.samples(kRate));
    EXPECT_EQ(samplesOf(contents, kPool), run.samples(kPool));
    ASSERT_EQ(contents.series.size(), 2u);
    EXPECT_EQ(contents.series[1].labels.value(QStringLiteral("pod")), QStringLiteral("a"));

    // The annotations' final state: the deleted one is gone, the edited one edited.
    ASSERT_EQ(contents.annotations.size(), 2u);
    EXPECT_EQ(contents.annotations[0].text, QStringLiteral("rate 100 → 500"));
    EXPECT_EQ(contents.annotations[1].text, QStringLiteral("exporter slowed down"));
    EXPECT_EQ(contents.annotations[1].endMs, contents.annotations[1].timeMs + 5000);
    EXPECT_EQ(contents.annotations[1], *run.annotations.find(contents.annotations[1].id));

    // The dashboard comes back as it was shown.
    const DashboardLoader::LoadResult dashboard = DashboardLoader::fromJson(contents.dashboardJson.toUtf8());
    EXPECT_TRUE(dashboard.usable);
    EXPECT_EQ(dashboard.dashboard.title, run.dashboard.title);
    EXPECT_EQ(dashboard.dashboard.panels.size(), run.dashboard.panels.size());
}

TEST(SessionReader, ACutAtAnyByteRecoversEverythingBeforeTheLastCompleteRecord)
{
    RecordedRun run(40);
    const qint64 first = run.flushedAt.front();
    int checked = 0;
    for (qint64 cut = first; cut < run.bytes.size(); cut += 7) {
        const Result<SessionContents> read = SessionReader::read(QByteArrayView(run.bytes).first(cut));
        ASSERT_TRUE(read) << cut;
        const SessionContents &contents = read.value();
        EXPECT_FALSE(contents.closedCleanly) << cut;
        EXPECT_LE(contents.validEnd, cut);
        EXPECT_EQ(contents.damage.skippedBytes, 0) << "a cut tail is not damage in the middle, at " << cut;
        EXPECT_EQ(contents.damage.truncatedTailBytes, cut - contents.validEnd);
        EXPECT_FALSE(contents.describeProblems().isEmpty());
        // The samples of every poll whose flush ended before the cut are there, exactly.
        const auto flushed = std::upper_bound(run.flushedAt.begin(), run.flushedAt.end(), cut);
        const int polls = int(flushed - run.flushedAt.begin());
        if (polls > 0) {
            const qint64 until = kStart + (polls - 1) * 1000;
            auto recovered = samplesOf(contents, kPool);
            std::erase_if(recovered, [until](const auto &s) { return s.first > until; });
            EXPECT_EQ(recovered, run.samples(kPool, until)) << "cut at " << cut;
        }
        ++checked;
    }
    EXPECT_GT(checked, 20);
}

TEST(SessionReader, TheMessageSaysTheTailWasCut)
{
    RecordedRun run(5);
    const Result<SessionContents> read = SessionReader::read(QByteArrayView(run.bytes).first(run.bytes.size() - 3));
    ASSERT_TRUE(read);
    EXPECT_TRUE(read->describeProblems().contains(QStringLiteral("tail was cut")))
        << read->describeProblems().toStdString();
    EXPECT_TRUE(read->describeProblems().contains(QStringLiteral("not closed")));
}

TEST(SessionReader, ADamagedRecordInTheMiddleIsSkippedAndReported)
{
    RecordedRun run(90);
    const qint64 middle = run.flushedAt[45];
    QByteArray damaged = run.bytes;
    for (qint64 i = middle + 3; i < middle + 12; ++i)
        damaged[i] = char(~damaged[i]);
    const Result<SessionContents> read = SessionReader::read(damaged);
    ASSERT_TRUE(read) << read.error().message.toStdString();
    const SessionContents &contents = read.value();
    EXPECT_GT(contents.damage.skippedBytes, 0);
    EXPECT_EQ(contents.damage.skippedRegions, 1);
    EXPECT_TRUE(contents.closedCleanly) << "the closing record after the damage still counts";
    EXPECT_TRUE(contents.describeProblems().contains(QStringLiteral("skipped")))
        << contents.describeProblems().toStdString();
    // Everything before the damage, and everything from the next key chunk on, is back;
    // what is missing is at most a key interval (20 s) of each series.
    const auto recovered = samplesOf(contents, kPool);
    const auto all = run.samples(kPool);
    EXPECT_GE(recovered.size() + 21, all.size());
    EXPECT_LT(recovered.size(), all.size());
    for (const auto &sample : recovered)
        EXPECT_NE(std::find(all.begin(), all.end(), sample), all.end()) << "nothing invented";
    EXPECT_EQ(recovered.back(), all.back());
    EXPECT_EQ(contents.annotations.size(), 2u);
}

TEST(SessionReader, AFileFromANewerFormatIsRefusedWithTheWriterNamed)
{
    RecordedRun run(3);
    QByteArray newer = run.bytes;
    newer.replace(0, SessionFormat::kPreambleBytes, SessionFormat::preamble(SessionFormat::kFormatVersion + 1));
    const Result<SessionContents> read = SessionReader::read(newer);
    ASSERT_FALSE(read);
    const QString message = read.error().message;
    EXPECT_TRUE(message.contains(QStringLiteral("newer Chaoscope"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("format %1").arg(SessionFormat::kFormatVersion + 1)))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("Chaoscope " CHAOSCOPE_VERSION))) << message.toStdString();
}

TEST(SessionReader, OtherFilesAreRefusedAsNotASession)
{
    QTemporaryDir dir;
    for (const QByteArray &bytes : {QByteArray(), QByteArray("{\"title\": \"a dashboard\"}"),
                                    QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), QByteArray(4096, '\0')}) {
        const QString path = dir.filePath(QStringLiteral("other.chaoscope"));
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
        file.close();
        const Result<SessionContents> read = SessionReader::readFile(path);
        ASSERT_FALSE(read);
        EXPECT_TRUE(read.error().message.contains(QStringLiteral("not a Chaoscope session file")))
            << read.error().message.toStdString();
        EXPECT_TRUE(read.error().message.contains(QStringLiteral("other.chaoscope")));
    }
    const Result<SessionContents> missing = SessionReader::readFile(dir.filePath(QStringLiteral("nowhere.chaoscope")));
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, Error::Kind::Io);
}

TEST(SessionReader, MutatedAndRandomFilesNeverCrashTheReader)
{
    RecordedRun run(20);
    QRandomGenerator random(2024);
    for (int round = 0; round < 1500; ++round) {
        QByteArray bytes = run.bytes;
        const int mutations = 1 + int(random.bounded(8));
        for (int m = 0; m < mutations; ++m) {
            const int at = int(random.bounded(bytes.size()));
            switch (random.bounded(4)) {
            case 0:
                bytes[at] = char(random.bounded(256));
                break;
            case 1:
                bytes.remove(at, int(random.bounded(16)));
                break;
            case 2:
                bytes.insert(at, QByteArray(int(random.bounded(16)), char(random.bounded(256))));
                break;
            case 3:
                bytes.truncate(std::max(at, SessionFormat::kPreambleBytes));
                break;
            }
        }
        const Result<SessionContents> read = SessionReader::read(bytes);
        if (read) {
            EXPECT_LE(read->validEnd, bytes.size());
        }
    }
    for (int round = 0; round < 500; ++round) {
        QByteArray bytes = SessionFormat::preamble();
        const int size = int(random.bounded(512));
        for (int i = 0; i < size; ++i)
            bytes.append(char(random.bounded(256)));
        (void)SessionReader::read(bytes);
    }
}

TEST(SessionReader, AnActionIsReadWithItsAnswerAndAnUnansweredOneSaysSo)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("actions.chaoscope"));
    QByteArray bytes = SessionFormat::preamble();
    auto append = [&bytes](const chaoscope::session::v1::Record &record) {
        const std::string payload = record.SerializeAsString();
        SessionFormat::appendFrame(bytes, QByteArrayView(payload.data(), qsizetype(payload.size())));
    };
    namespace pb = chaoscope::session::v1;
    pb::Record requested;
    requested.mutable_action()->set_phase(pb::ActionEvent::REQUESTED);
    requested.mutable_action()->mutable_action()->set_kind(pb::LoadTesterAction::SET_RATE);
    requested.mutable_action()->mutable_action()->set_value(500);
    requested.mutable_action()->set_requested_at_ms(kStart);
    append(requested);
    pb::Record answered = requested;
    answered.mutable_action()->set_phase(pb::ActionEvent::ANSWERED);
    answered.mutable_action()->set_requested_at_ms(kStart + 1); // the controller's own clock
    answered.mutable_action()->set_finished_at_ms(kStart + 40);
    answered.mutable_action()->set_summary("rate 100 → 500 /s (Chaoscope starter, 1/1 replicas)");
    pb::ReplicaOutcome *replica = answered.mutable_action()->add_replicas();
    replica->set_endpoint("http://127.0.0.1:9600");
    replica->set_confirmed(true);
    replica->mutable_after()->set_rate(500);
    append(answered);
    pb::Record pause = requested;
    pause.mutable_action()->mutable_action()->set_kind(pb::LoadTesterAction::PAUSE);
    pause.mutable_action()->set_requested_at_ms(kStart + 60'000);
    append(pause); // the app died before the answer

    const Result<SessionContents> read = SessionReader::read(bytes);
    ASSERT_TRUE(read);
    ASSERT_EQ(read->actions.size(), 2u);
    EXPECT_TRUE(read->actions[0].answered);
    EXPECT_EQ(read->actions[0].report.action.value, 500);
    ASSERT_EQ(read->actions[0].report.replicas.size(), 1u);
    EXPECT_TRUE(read->actions[0].report.replicas[0].confirmed);
    EXPECT_EQ(read->actions[0].report.replicas[0].after->rate, 500);
    EXPECT_EQ(read->actions[0].summary, QStringLiteral("rate 100 → 500 /s (Chaoscope starter, 1/1 replicas)"));
    EXPECT_FALSE(read->actions[1].answered);
    EXPECT_EQ(read->actions[1].report.action.kind, LoadTesterAction::Kind::Pause);
}
