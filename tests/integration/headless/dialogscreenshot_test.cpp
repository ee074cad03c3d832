// SPDX-License-Identifier: GPL-3.0-or-later
// The guide's pictures of dialogs are made by the app itself: --screenshot-dialog opens the
// dialog of a menu entry over a recording and writes the dialog, not the window; an entry
// that does not exist is named in the error.
#include "annotations/annotationmodel.h"
#include "apprun.h"
#include "dashboard/loader/dashboardloader.h"
#include "session/sessionrecorder.h"
#include "store/samplestore.h"

#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <cmath>
#include <gtest/gtest.h>

namespace {

class DialogScreenshot : public ::testing::Test
{
protected:
    void SetUp() override
    {
        SampleStore store;
        AnnotationModel annotations;
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(m_session,
                                    {QStringLiteral("testbed"), QUrl(QStringLiteral("http://127.0.0.1:9090/"))},
                                    DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard, 300'000));
        const qint64 start = 1'700'000'000'000;
        std::vector<qint64> times;
        std::vector<double> values;
        for (int i = 0; i < 300; ++i) {
            times.push_back(start + i * 1000);
            values.push_back(200 + 20 * std::sin(i / 20.0));
        }
        store.merge(QStringLiteral("p0/q0/{}"), {}, times, values);
        annotations.add(Annotation{0,
                                   start + 150'000,
                                   std::nullopt,
                                   QStringLiteral("rate 200 → 400"),
                                   {QStringLiteral("action")},
                                   Annotation::Source::Action,
                                   false,
                                   {},
                                   0});
        recorder.flush();
        recorder.stop();
    }

    AppRun shoot(const QString &entry, const QString &png)
    {
        return runChaoscope({QStringLiteral("--session"), m_session, QStringLiteral("--size"),
                             QStringLiteral("1400x900"), QStringLiteral("--screenshot"), png,
                             QStringLiteral("--screenshot-dialog"), entry});
    }

    QTemporaryDir m_dir;
    QString m_session = m_dir.filePath(QStringLiteral("run.chaoscope"));
};

} // namespace

TEST_F(DialogScreenshot, TheDialogOfAMenuEntryIsShotInsteadOfTheWindow)
{
    for (const QString &entry :
         {QStringLiteral("Export…"), QStringLiteral("Keyboard shortcuts"), QStringLiteral("Statistics per phase...")}) {
        const QString png = m_dir.filePath(entry.left(6) + QStringLiteral(".png"));
        const AppRun run = shoot(entry, png);
        ASSERT_EQ(run.exitCode, 0) << entry.toStdString() << ": " << run.err.toStdString();
        const QImage image(png);
        ASSERT_FALSE(image.isNull()) << entry.toStdString();
        EXPECT_LT(image.width() * image.height(), 1400 * 900) << entry.toStdString() << ": the dialog, not the window";
        EXPECT_GT(image.width(), 200) << entry.toStdString();
        EXPECT_GT(image.height(), 150) << entry.toStdString();
    }
}

TEST_F(DialogScreenshot, AnEntryThatDoesNotExistIsNamedAndNothingIsWritten)
{
    const QString png = m_dir.filePath(QStringLiteral("nope.png"));
    const AppRun run = shoot(QStringLiteral("Exprot…"), png);
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("--screenshot-dialog: no menu entry is named \"Exprot…\"")))
        << run.err.toStdString();
    EXPECT_FALSE(QFileInfo::exists(png));
}

TEST_F(DialogScreenshot, WithoutAScreenshotFileItIsRefused)
{
    const AppRun run = runChaoscope(
        {QStringLiteral("--session"), m_session, QStringLiteral("--screenshot-dialog"), QStringLiteral("Export…")});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("--screenshot-dialog needs --screenshot"))) << run.err.toStdString();
}
