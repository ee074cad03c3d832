// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a big recording on screen: a progress dialog says how far reading has come, Cancel
// stops it, and a read that was watched gives exactly what a plain read gives.
#include "actions/sessionopening.h"
#include "annotations/annotationmodel.h"
#include "dashboard/loader/dashboardloader.h"
#include "session/format/sessionreader.h"
#include "session/sessionrecorder.h"
#include "store/samplestore.h"
#include "waitfor.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDeadlineTimer>
#include <QProgressDialog>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <cmath>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

// A few megabytes of recording through the real recorder: noisy doubles cost their 8 bytes.
class BigRecording : public ::testing::Test
{
protected:
    void SetUp() override
    {
        SampleStore store;
        AnnotationModel annotations;
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(m_path, {QStringLiteral("testbed"), QUrl(QStringLiteral("http://127.0.0.1:9090/"))},
                                    DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard, 300'000));
        constexpr int kSeries = 12;
        constexpr int kSeconds = 40'000;
        for (int s = 0; s < kSeries; ++s) {
            std::vector<qint64> times(kSeconds);
            std::vector<double> values(kSeconds);
            for (int i = 0; i < kSeconds; ++i) {
                times[std::size_t(i)] = kStart + qint64(i) * 1000;
                values[std::size_t(i)] = 100 + 50 * std::sin(i * 0.001 + s) + std::fmod(i * 0.7071067811865476, 1.0);
            }
            store.merge(QStringLiteral("p0/q%1/{}").arg(s), {}, times, values);
            recorder.flush();
        }
        recorder.stop();
        ASSERT_GT(QFileInfo(m_path).size(), 2 * 1024 * 1024) << "big enough for several progress steps";
    }

    QTemporaryDir m_dir;
    QString m_path = m_dir.filePath(QStringLiteral("day.chaoscope"));
};

QProgressDialog *openingDialog()
{
    for (QWidget *widget : QApplication::topLevelWidgets()) {
        if (auto *dialog = qobject_cast<QProgressDialog *>(widget);
            dialog && dialog->objectName() == QLatin1String("sessionOpeningProgress") && dialog->isVisible())
            return dialog;
    }
    return nullptr;
}

} // namespace

TEST_F(BigRecording, TheDialogShowsHowFarReadingHasComeAndCancelStopsIt)
{
    // The reader is held at its second step until the test has seen the dialog and pressed
    // Cancel, so the read cannot end first however the threads are scheduled.
    std::atomic<int> steps{0};
    std::atomic<bool> cancelled{false};
    SessionOpening::Options options;
    options.showAfterMs = 0;
    options.observer = [&](qint64, qint64) {
        if (++steps == 2) {
            const QDeadlineTimer deadline(30'000);
            while (!cancelled && !deadline.hasExpired())
                QThread::msleep(5);
        }
    };
    QString seenLabel;
    int seenValue = -1;
    QTimer press;
    press.setInterval(10);
    QObject::connect(&press, &QTimer::timeout, [&] {
        QProgressDialog *dialog = openingDialog();
        if (!dialog || steps < 2 || dialog->value() <= 0)
            return;
        seenLabel = dialog->labelText();
        seenValue = dialog->value();
        dialog->findChild<QAbstractButton *>()->click();
        cancelled = true;
        press.stop();
    });
    press.start();

    const Result<SessionContents> read = SessionOpening::read(m_path, options);
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().kind, Error::Kind::Cancelled);
    EXPECT_EQ(read.error().message, QStringLiteral("opening the session was cancelled"));
    EXPECT_TRUE(seenLabel.startsWith(QStringLiteral("Reading day.chaoscope: "))) << seenLabel.toStdString();
    EXPECT_TRUE(seenLabel.contains(QStringLiteral(" of "))) << seenLabel.toStdString();
    EXPECT_GT(seenValue, 0);
    EXPECT_LT(seenValue, 1000) << "cancelled before the end";
    EXPECT_EQ(openingDialog(), nullptr) << "the dialog is gone";
}

TEST_F(BigRecording, AWatchedReadGivesWhatAPlainReadGives)
{
    qint64 lastDone = -1, lastTotal = -1;
    int steps = 0;
    SessionOpening::Options options;
    options.showAfterMs = 0;
    options.observer = [&](qint64 done, qint64 total) {
        ++steps;
        lastDone = done;
        lastTotal = total;
    };
    const Result<SessionContents> watched = SessionOpening::read(m_path, options);
    const Result<SessionContents> plain = SessionReader::readFile(m_path);
    ASSERT_TRUE(watched);
    ASSERT_TRUE(plain);
    EXPECT_EQ(watched->sampleCount(), plain->sampleCount());
    EXPECT_EQ(watched->sampleCount(), 12 * 40'000);
    EXPECT_EQ(watched->series.size(), plain->series.size());
    EXPECT_GE(steps, 8) << "a step every 256 KiB";
    EXPECT_EQ(lastDone, QFileInfo(m_path).size()) << "the last step says all of it";
    EXPECT_EQ(lastTotal, QFileInfo(m_path).size());
    EXPECT_EQ(openingDialog(), nullptr);
}

TEST_F(BigRecording, ADamagedFileStillSaysWhatIsWrongAfterTheDialog)
{
    QFile file(m_path);
    ASSERT_TRUE(file.open(QIODevice::ReadWrite));
    file.seek(0);
    file.write("not a session");
    file.close();
    SessionOpening::Options options;
    options.showAfterMs = 0;
    const Result<SessionContents> read = SessionOpening::read(m_path, options);
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().kind, Error::Kind::Invalid);
    EXPECT_TRUE(read.error().message.contains(QStringLiteral("not a Chaoscope session file")))
        << read.error().message.toStdString();
}

TEST(SessionOpeningText, SaysTheFileAndHowMuchOfIt)
{
    EXPECT_EQ(SessionOpening::progressText(QStringLiteral("/tmp/day.chaoscope"), 12 * 1024 * 1024, 48 * 1024 * 1024)
                  .toStdString(),
              "Reading day.chaoscope: 12 MiB of 48 MiB");
}
