// SPDX-License-Identifier: GPL-3.0-or-later
// "Save as": a compacted snapshot holds the same run as the journal, in less space; a trimmed
// one holds only the chosen range. Both reopen with the same reader; reopened, a recording
// fills the store and the annotations as the live run had them.
#include "annotations/annotationmodel.h"
#include "dashboard/loader/dashboardloader.h"
#include "session/format/sessionreader.h"
#include "session/sessioncompactor.h"
#include "session/sessionrecorder.h"
#include "session/sessionreplay.h"
#include "store/samplestore.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

struct Journal
{
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("journal.chaoscope"));
    SampleStore store;
    AnnotationModel annotations;

    Journal()
    {
        SessionRecorder recorder(&store, &annotations);
        SessionWriter::Options options;
        options.flushIntervalMs = 10;
        recorder.setWriterOptions(options);
        EXPECT_FALSE(recorder.start(path, {QStringLiteral("testbed"), QUrl(QStringLiteral("http://prom:9090/"))},
                                    DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard, 300'000));
        for (int s = 0; s < 600; ++s) {
            const qint64 t = kStart + s * 1000;
            store.merge(QStringLiteral("p0/q0/{}"), {}, std::vector<qint64>{t},
                        std::vector<double>{std::round(std::sin(s / 30.0) * 50)});
            store.merge(QStringLiteral("p0/q4/{}"), {}, std::vector<qint64>{t},
                        std::vector<double>{s < 300 ? 100.0 : 500.0});
            if (s % 100 == 50)
                annotations.add(Annotation{0,
                                           t,
                                           std::nullopt,
                                           QStringLiteral("mark %1").arg(s),
                                           {},
                                           Annotation::Source::Manual,
                                           false,
                                           {},
                                           0});
            if (s % 60 == 0)
                recorder.flush(); // a journal written a poll at a time, as live
        }
        recorder.recordView({kStart + 299'000, kStart + 599'500}, true); // as the app quits
        recorder.stop();
    }
};

} // namespace

TEST(SessionCompactor, ASnapshotHoldsTheSameRunInLessSpace)
{
    Journal journal;
    const Result<SessionContents> original = SessionReader::readFile(journal.path);
    ASSERT_TRUE(original);
    const QString saved = journal.dir.filePath(QStringLiteral("saved.chaoscope"));
    ASSERT_FALSE(SessionCompactor::write(saved, original.value(), journal.annotations.annotations()));
    EXPECT_LT(QFileInfo(saved).size(), QFileInfo(journal.path).size());

    const Result<SessionContents> copy = SessionReader::readFile(saved);
    ASSERT_TRUE(copy) << copy.error().message.toStdString();
    EXPECT_TRUE(copy->compacted);
    EXPECT_TRUE(copy->closedCleanly);
    EXPECT_FALSE(copy->trimmedTo);
    ASSERT_EQ(copy->series.size(), original->series.size());
    for (std::size_t i = 0; i < copy->series.size(); ++i) {
        EXPECT_EQ(copy->series[i].key, original->series[i].key);
        EXPECT_EQ(copy->series[i].timestampsMs, original->series[i].timestampsMs);
        EXPECT_EQ(copy->series[i].values, original->series[i].values);
    }
    EXPECT_EQ(copy->annotations, original->annotations);
    EXPECT_EQ(copy->dashboardJson, original->dashboardJson);
    EXPECT_EQ(copy->windowMs, 300'000);
    EXPECT_EQ(copy->createdAtMs, original->createdAtMs);
    EXPECT_EQ(copy->lastView, original->lastView);
    EXPECT_TRUE(copy->lastViewLive);
}

TEST(SessionCompactor, ATrimmedCopyKeepsOnlyTheChosenRange)
{
    Journal journal;
    const Result<SessionContents> original = SessionReader::readFile(journal.path);
    ASSERT_TRUE(original);
    const TimeRange range{kStart + 120'000, kStart + 240'000};
    const QString saved = journal.dir.filePath(QStringLiteral("trimmed.chaoscope"));
    ASSERT_FALSE(SessionCompactor::write(saved, original.value(), journal.annotations.annotations(), range));
    const Result<SessionContents> copy = SessionReader::readFile(saved);
    ASSERT_TRUE(copy);
    ASSERT_TRUE(copy->trimmedTo);
    EXPECT_EQ(*copy->trimmedTo, range);
    for (const SessionSeries &series : copy->series) {
        ASSERT_EQ(series.timestampsMs.size(), 121u) << series.key.toStdString();
        EXPECT_EQ(series.timestampsMs.front(), range.startMs);
        EXPECT_EQ(series.timestampsMs.back(), range.endMs);
    }
    ASSERT_EQ(copy->annotations.size(), 1u);
    EXPECT_EQ(copy->annotations[0].text, QStringLiteral("mark 150"));
}

TEST(SessionReplay, AReopenedRecordingFillsTheStoreAndTheAnnotationsAsLive)
{
    Journal journal;
    const Result<SessionContents> contents = SessionReader::readFile(journal.path);
    ASSERT_TRUE(contents);
    SampleStore store;
    store.setRetentionMs(60'000); // would drop most of the run; a recording is kept whole
    AnnotationModel annotations;
    const SessionReplay::Loaded loaded = SessionReplay::load(contents.value(), &store, &annotations);
    EXPECT_TRUE(loaded.issues.isEmpty());
    EXPECT_EQ(loaded.dashboard.title, DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard.title);
    EXPECT_EQ(loaded.recorded, (TimeRange{kStart, kStart + 599'000}));
    // It opens on the picture last seen live.
    EXPECT_EQ(loaded.nowMs, kStart + 599'500);
    EXPECT_EQ(loaded.windowMs, 300'500);
    EXPECT_FALSE(loaded.zoomed);
    EXPECT_EQ(store.sampleCount(), journal.store.sampleCount());
    EXPECT_EQ(annotations.annotations(), journal.annotations.annotations()) << "same ids, texts, authors";
}

TEST(SessionReplay, WithoutItsDashboardARecordingStillShowsItsPanels)
{
    SessionContents contents;
    contents.series.push_back(SessionSeries{QStringLiteral("p1/q2/{}"), {}, {1000}, {1}});
    contents.series.push_back(SessionSeries{QStringLiteral("loadtester/rate"), {}, {1000}, {1}});
    const DashboardDefinition dashboard = SessionReplay::dashboardFromKeys(contents);
    ASSERT_EQ(dashboard.panels.size(), 2u);
    EXPECT_EQ(dashboard.panels[1].series.size(), 3u);
}
