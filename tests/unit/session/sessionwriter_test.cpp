// SPDX-License-Identifier: GPL-3.0-or-later
// Recording as it happens: written within a second without being asked, paused (not stopped)
// by a write error and resumed without losing what arrived meanwhile, and continued on a
// reopened file after a crash.
#include "annotations/annotationmodel.h"
#include "session.pb.h"
#include "session/format/sessionformat.h"
#include "session/format/sessionreader.h"
#include "session/sessionrecorder.h"
#include "session/sessionwriter.h"
#include "store/samplestore.h"
#include "waitfor.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <csignal>
#include <gtest/gtest.h>
#include <sys/resource.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

void poll(SampleStore &store, int second)
{
    const qint64 t = kStart + second * 1000;
    store.merge(QStringLiteral("p0/q0/{}"), {}, std::vector<qint64>{t - 1000, t},
                std::vector<double>{double(second - 1), double(second)});
}

std::size_t recordedSamples(const QString &path)
{
    const Result<SessionContents> read = SessionReader::readFile(path);
    return read && !read->series.empty() ? read->series.front().timestampsMs.size() : 0;
}

// Lowers the largest file this process may write, as a full disk would; restores on exit.
class FileSizeLimit
{
public:
    FileSizeLimit()
    {
        getrlimit(RLIMIT_FSIZE, &m_saved);
        m_previousHandler = std::signal(SIGXFSZ, SIG_IGN); // fail the write, do not kill us
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_previousHandler);
    }
    void limit(rlim_t bytes)
    {
        rlimit lower = m_saved;
        lower.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &lower);
    }
    void lift() { setrlimit(RLIMIT_FSIZE, &m_saved); }

private:
    rlimit m_saved{};
    void (*m_previousHandler)(int) = nullptr;
};

} // namespace

TEST(SessionWriter, WhatArrivesIsInTheFileWithinASecondWithoutAsking)
{
    QTemporaryDir dir;
    SampleStore store;
    AnnotationModel annotations;
    SessionRecorder recorder(&store, &annotations); // default options: flush every second
    const QString path = dir.filePath(QStringLiteral("live.chaoscope"));
    ASSERT_FALSE(recorder.start(path, {}, DashboardDefinition{}, 60'000));
    for (int s = 1; s <= 5; ++s)
        poll(store, s);
    QElapsedTimer clock;
    clock.start();
    EXPECT_TRUE(waitFor([&] { return recordedSamples(path) == 6; }, 3000));
    EXPECT_LT(clock.elapsed(), 1600);
    EXPECT_EQ(recorder.fileSize(), QFileInfo(path).size());
    // Not closed yet: a reader now sees what a crash would leave.
    const Result<SessionContents> read = SessionReader::readFile(path);
    ASSERT_TRUE(read);
    EXPECT_FALSE(read->closedCleanly);
    recorder.stop();
    EXPECT_TRUE(SessionReader::readFile(path)->closedCleanly);
}

TEST(SessionWriter, ADiskFullPausesRecordingWithTheReasonAndResumesWithoutLoss)
{
    QTemporaryDir dir;
    SampleStore store;
    AnnotationModel annotations;
    SessionRecorder recorder(&store, &annotations);
    SessionWriter::Options options;
    options.flushIntervalMs = 20;
    options.retryIntervalMs = 100;
    recorder.setWriterOptions(options);
    const QString path = dir.filePath(QStringLiteral("full.chaoscope"));
    ASSERT_FALSE(recorder.start(path, {}, DashboardDefinition{}, 60'000));
    for (int s = 1; s <= 10; ++s)
        poll(store, s);
    recorder.flush();

    FileSizeLimit disk;
    disk.limit(rlim_t(recorder.fileSize() + 20));
    QSignalSpy changed(&recorder, &SessionRecorder::stateChanged);
    int s = 11;
    // The dashboard goes on: samples keep arriving while the disk is full.
    ASSERT_TRUE(waitFor(
        [&] {
            poll(store, s++);
            return recorder.isPaused();
        },
        5000));
    EXPECT_FALSE(recorder.errorMessage().isEmpty());
    EXPECT_TRUE(recorder.errorMessage().contains(QStringLiteral("Recording paused")))
        << recorder.errorMessage().toStdString();
    annotations.add(Annotation{0,
                               kStart + s * 1000,
                               std::nullopt,
                               QStringLiteral("noted while the disk was full"),
                               {},
                               Annotation::Source::Manual,
                               false,
                               {},
                               0});
    for (int i = 0; i < 20; ++i)
        poll(store, s++);

    disk.lift();
    ASSERT_TRUE(waitFor([&] { return !recorder.isPaused(); }, 5000));
    EXPECT_TRUE(recorder.errorMessage().isEmpty());
    poll(store, s++);
    recorder.stop();

    const Result<SessionContents> read = SessionReader::readFile(path);
    ASSERT_TRUE(read) << read.error().message.toStdString();
    EXPECT_TRUE(read->closedCleanly);
    ASSERT_EQ(read->series.size(), 1u);
    const SampleStore::Series *series = store.series(QStringLiteral("p0/q0/{}"));
    EXPECT_EQ(read->series[0].timestampsMs,
              std::vector<qint64>(series->timestampsMs().begin(), series->timestampsMs().end()))
        << "every sample, including those that arrived while paused";
    ASSERT_EQ(read->annotations.size(), 1u);
    EXPECT_EQ(read->annotations[0].text, QStringLiteral("noted while the disk was full"));
    ASSERT_FALSE(read->pauses.isEmpty());
    EXPECT_FALSE(read->damage.any()) << read->describeProblems().toStdString();
}

TEST(SessionWriter, AnUncreatableFileIsAnErrorAtStart)
{
    SampleStore store;
    AnnotationModel annotations;
    SessionRecorder recorder(&store, &annotations);
    const std::optional<Error> error =
        recorder.start(QStringLiteral("/proc/no/such/place.chaoscope"), {}, DashboardDefinition{}, 1000);
    ASSERT_TRUE(error);
    EXPECT_FALSE(recorder.isActive());
}

TEST(SessionWriter, AReopenedCrashedFileIsContinuedAfterItsLastIntactRecord)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("crashed.chaoscope"));
    {
        SampleStore store;
        AnnotationModel annotations;
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(path, {}, DashboardDefinition{}, 60'000));
        for (int s = 1; s <= 10; ++s)
            poll(store, s);
        annotations.add(Annotation{0,
                                   kStart + 3000,
                                   std::nullopt,
                                   QStringLiteral("before the crash"),
                                   {},
                                   Annotation::Source::Manual,
                                   false,
                                   {},
                                   0});
        recorder.stop();
    }
    // A crash: the closing record is torn in half.
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadWrite));
    ASSERT_TRUE(file.resize(file.size() - 4));
    file.close();

    const Result<SessionContents> crashed = SessionReader::readFile(path);
    ASSERT_TRUE(crashed);
    EXPECT_GT(crashed->damage.truncatedTailBytes, 0);

    // Reopened offline, a note is edited and one added: appended to the journal.
    SampleStore store;
    AnnotationModel annotations;
    for (const Annotation &a : crashed->annotations)
        annotations.restore(a);
    SessionRecorder appender(&store, &annotations);
    ASSERT_FALSE(appender.startAppending(path, crashed->validEnd));
    Annotation edited = annotations.annotations().front();
    edited.text = QStringLiteral("before the crash (edited offline)");
    annotations.update(edited);
    annotations.add(Annotation{
        0, kStart + 8000, std::nullopt, QStringLiteral("added offline"), {}, Annotation::Source::Manual, false, {}, 0});
    appender.stop();

    const Result<SessionContents> read = SessionReader::readFile(path);
    ASSERT_TRUE(read);
    EXPECT_TRUE(read->closedCleanly);
    EXPECT_FALSE(read->damage.any()) << "the torn tail was cut before appending: "
                                     << read->describeProblems().toStdString();
    ASSERT_EQ(read->annotations.size(), 2u);
    EXPECT_EQ(read->annotations[0].text, QStringLiteral("before the crash (edited offline)"));
    EXPECT_EQ(read->annotations[1].text, QStringLiteral("added offline"));
    EXPECT_EQ(read->series.front().timestampsMs.size(), crashed->series.front().timestampsMs.size());
}

TEST(SessionWriter, TheDefaultFileIsInTheSessionsFolderAndNamedAfterTheDashboard)
{
    const QString path = SessionRecorder::defaultPath(QStringLiteral("/home/me/dash boards/Camunda load.json"), kStart);
    EXPECT_TRUE(path.contains(QStringLiteral("/sessions/Camunda-load-20231114-221320Z.chaoscope")))
        << path.toStdString();
    EXPECT_TRUE(SessionRecorder::defaultPath(QStringLiteral("testbed"), kStart)
                    .endsWith(QStringLiteral("/sessions/testbed-20231114-221320Z.chaoscope")));
}

TEST(SessionWriter, AnEarlierRecordingIsNeverOverwritten)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("day1.chaoscope"));
    {
        SampleStore store;
        AnnotationModel annotations;
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(path, {}, DashboardDefinition{}, 60'000));
        poll(store, 1);
    }
    const qint64 size = QFileInfo(path).size();
    SampleStore store;
    AnnotationModel annotations;
    SessionRecorder again(&store, &annotations);
    const std::optional<Error> error = again.start(path, {}, DashboardDefinition{}, 60'000);
    ASSERT_TRUE(error);
    EXPECT_TRUE(error->message.contains(QStringLiteral("exists"))) << error->message.toStdString();
    EXPECT_EQ(QFileInfo(path).size(), size);
}

TEST(SessionWriter, LookingAtARecordingLeavesItUntouchedAndTheFirstEditIsAppended)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("shared.chaoscope"));
    {
        SampleStore store;
        AnnotationModel annotations;
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(path, {}, DashboardDefinition{}, 60'000));
        poll(store, 1);
    }
    const QByteArray original = [&] {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    const Result<SessionContents> opened = SessionReader::readFile(path);
    ASSERT_TRUE(opened);

    SampleStore store;
    AnnotationModel annotations;
    SessionRecorder appender(&store, &annotations);
    appender.appendOnFirstEdit(path, opened->validEnd);
    EXPECT_TRUE(appender.isArmed());
    EXPECT_FALSE(appender.isActive());
    poll(store, 2); // offline nothing arrives, and if it did it would not be recorded
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        EXPECT_EQ(file.readAll(), original) << "opening a recording does not change it";
    }
    annotations.add(Annotation{
        0, kStart + 1000, std::nullopt, QStringLiteral("written later"), {}, Annotation::Source::Manual, false, {}, 0});
    EXPECT_TRUE(appender.isActive());
    appender.stop();
    const Result<SessionContents> read = SessionReader::readFile(path);
    ASSERT_TRUE(read);
    EXPECT_TRUE(read->closedCleanly);
    ASSERT_EQ(read->annotations.size(), 1u);
    EXPECT_EQ(read->annotations[0].text, QStringLiteral("written later"));
    EXPECT_EQ(read->series.front().timestampsMs.size(), 2u) << "the offline store was not recorded";
}

TEST(SessionWriter, AnEditThatCannotBeWrittenSaysSo)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("readonly.chaoscope"));
    {
        SampleStore store;
        AnnotationModel annotations;
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(path, {}, DashboardDefinition{}, 60'000));
    }
    const Result<SessionContents> opened = SessionReader::readFile(path);
    ASSERT_TRUE(opened);
    QFile::setPermissions(path, QFileDevice::ReadOwner);
    if (QFile(path).open(QIODevice::WriteOnly | QIODevice::Append))
        GTEST_SKIP() << "running with permissions that ignore read-only files";
    SampleStore store;
    AnnotationModel annotations;
    SessionRecorder appender(&store, &annotations);
    appender.appendOnFirstEdit(path, opened->validEnd);
    QSignalSpy changed(&appender, &SessionRecorder::stateChanged);
    annotations.add(Annotation{
        0, kStart, std::nullopt, QStringLiteral("kept in memory"), {}, Annotation::Source::Manual, false, {}, 0});
    EXPECT_FALSE(appender.isActive());
    EXPECT_TRUE(appender.errorMessage().contains(QStringLiteral("Save session as")))
        << appender.errorMessage().toStdString();
    EXPECT_GE(changed.count(), 1);
}
