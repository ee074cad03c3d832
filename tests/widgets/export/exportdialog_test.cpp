// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Export…: the preview follows what the user changes, the file written is the one
// previewed, and the last choices come back the next time.
#include "export/exportdialog.h"
#include "store/samplestore.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace {

constexpr qint64 kStart = 1772358000000; // 2026-03-01 09:40 UTC

struct Fixture
{
    SampleStore store;
    ExportFigure figure;
    Fixture()
    {
        std::vector<qint64> times;
        std::vector<double> values;
        for (int i = 0; i <= 120; ++i) {
            times.push_back(kStart + i * 5000);
            values.push_back(100 + 50 * std::sin(i / 10.0));
        }
        store.merge(QStringLiteral("a"), {}, times, values);
        store.merge(QStringLiteral("b"), {}, times, values);
        figure.range = {kStart, kStart + 600000};
        figure.timeZone = QTimeZone::utc();
        SeriesDefinition definition;
        definition.query = QStringLiteral("up");
        figure.panels.push_back({QStringLiteral("Throughput"),
                                 QStringLiteral("ops/s"),
                                 QString(),
                                 {{QStringLiteral("a"), QStringLiteral("sent/s"), definition}}});
        figure.panels.push_back({QStringLiteral("Pool"),
                                 QString(),
                                 QString(),
                                 {{QStringLiteral("b"), QStringLiteral("leased"), definition}}});
    }
};

} // namespace

TEST(ExportDialog, ThePreviewIsThePictureAtItsSizeAndFollowsTheTitle)
{
    Fixture f;
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    ExportDialog dialog(&f.store, f.figure, &settings);
    QSignalSpy updated(&dialog, &ExportDialog::previewUpdated);
    ASSERT_TRUE(updated.wait(5000));
    EXPECT_EQ(dialog.preview().size(), QSize(1200, 675)) << "the default logical size";
    const QImage before = dialog.preview();

    dialog.setTitle(QStringLiteral("Chaos Day"));
    ASSERT_TRUE(updated.wait(5000));
    EXPECT_NE(dialog.preview(), before) << "the title is drawn in the preview";
    EXPECT_EQ(dialog.currentFigure().title, QStringLiteral("Chaos Day"));
    EXPECT_EQ(dialog.currentFigure().panels.size(), 2u);
}

TEST(ExportDialog, WritesTheChosenFormatAndRemembersTheSettingsButNotTheTitle)
{
    Fixture f;
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    {
        ExportDialog dialog(&f.store, f.figure, &settings);
        EXPECT_EQ(dialog.scale(), 2) << "2× by default: sharp on today's screens";
        dialog.setFormat(QStringLiteral("svg"));
        dialog.setTitle(QStringLiteral("Only this once"));
        QString message;
        ASSERT_TRUE(dialog.writeTo(dir.filePath(QStringLiteral("out.svg")), &message)) << qPrintable(message);
        EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("out.svg"))));
    }
    ExportDialog again(&f.store, f.figure, &settings);
    EXPECT_EQ(again.format(), QStringLiteral("svg"));
    EXPECT_TRUE(again.currentFigure().title.isEmpty());
    // Save starts where the last picture went, named after what it shows and the range's end:
    // two panels are the dashboard's picture, not the first panel's (as it once was named).
    again.setDashboardName(QStringLiteral("Chaos Day"));
    EXPECT_EQ(again.suggestedPath(), QDir(dir.path()).filePath(QStringLiteral("chaos-day-2026-03-01-0950.svg")));
    ExportFigure one = f.figure;
    one.panels.resize(1);
    ExportDialog single(&f.store, one, &settings);
    single.setDashboardName(QStringLiteral("Chaos Day"));
    EXPECT_EQ(single.suggestedPath(), QDir(dir.path()).filePath(QStringLiteral("throughput-2026-03-01-0950.svg")))
        << "one panel's picture is named after it";
}

// The size line says the size of the picture as written: six panels in the default 1200 × 675
// make it taller (each plot keeps half its panel), and it once said "2400 × 1350 pixels" for a
// picture of 2400 × 1904.
TEST(ExportDialog, TheSizeSaidIsTheSizeWritten)
{
    Fixture f;
    while (f.figure.panels.size() < 6)
        f.figure.panels.push_back(f.figure.panels.front());
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    ExportDialog dialog(&f.store, f.figure, &settings);
    QSignalSpy updated(&dialog, &ExportDialog::previewUpdated);
    ASSERT_TRUE(updated.wait(5000));
    ASSERT_GT(dialog.preview().height(), 675);
    const QString path = dir.filePath(QStringLiteral("six.png"));
    ASSERT_TRUE(dialog.writeTo(path));
    const QImage written(path);
    ASSERT_FALSE(written.isNull());
    EXPECT_TRUE(dialog.writtenPath().endsWith(QStringLiteral("six.png")));
    ExportDialog fresh(&f.store, f.figure, &settings);
    QSignalSpy freshUpdated(&fresh, &ExportDialog::previewUpdated);
    ASSERT_TRUE(freshUpdated.wait(5000));
    EXPECT_TRUE(fresh.statusText().startsWith(QStringLiteral("%1 × %2 pixels, taller than the 675 asked: 6 panels")
                                                  .arg(written.width())
                                                  .arg(written.height())))
        << fresh.statusText().toStdString();
}

TEST(ExportDialog, SaveStartsInPicturesOrHomeWithANameFromTheTitle)
{
    Fixture f;
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    ExportDialog dialog(&f.store, f.figure, &settings);
    dialog.setTitle(QStringLiteral("Seed 000: the pool at 20 / rate 400"));
    const QFileInfo suggested(dialog.suggestedPath());
    EXPECT_EQ(suggested.fileName(), QStringLiteral("seed-000-the-pool-at-20-rate-400-2026-03-01-0950.png"));
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    EXPECT_TRUE(suggested.absolutePath() == QDir::homePath() ||
                (QFileInfo(pictures).isDir() && suggested.absolutePath() == QFileInfo(pictures).absoluteFilePath()))
        << suggested.absolutePath().toStdString();
}

TEST(ExportDialog, AWriteThatCannotHappenSaysWhyAndWritesNothing)
{
    Fixture f;
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    ExportDialog dialog(&f.store, f.figure, &settings);
    QFile blocker(dir.filePath(QStringLiteral("file")));
    ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    QString message;
    EXPECT_FALSE(dialog.writeTo(dir.filePath(QStringLiteral("file/chart.png")), &message));
    EXPECT_TRUE(message.contains(QStringLiteral("cannot create the folder"))) << qPrintable(message);
    EXPECT_FALSE(settings.contains(QStringLiteral("export/format"))) << "a failed export is not remembered";
}
