// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commandline.h"
#include "export/chartexporter.h"

#include <QFileInfo>
#include <gtest/gtest.h>

namespace {

Result<AppOptions> parse(QStringList args)
{
    args.prepend(QStringLiteral("chaoscope"));
    return parseCommandLine(args);
}

// 2026-03-01T09:40:00Z
constexpr qint64 kNine40 = 1772358000000;

} // namespace

TEST(ExportOptions, ExportWithItsCompanions)
{
    const auto options =
        parse({QStringLiteral("--session"), QStringLiteral("run.chaoscope"), QStringLiteral("--export"),
               QStringLiteral("out/{panel}-{time}.png"), QStringLiteral("--panel"), QStringLiteral("Throughput"),
               QStringLiteral("--panel"), QStringLiteral("Client pool"), QStringLiteral("--scale"), QStringLiteral("2"),
               QStringLiteral("--theme"), QStringLiteral("App"), QStringLiteral("--title"), QStringLiteral("Chaos Day"),
               QStringLiteral("--export-size"), QStringLiteral("800x450"), QStringLiteral("--range"),
               QStringLiteral("2026-03-01T09:40:00Z/now")});
    ASSERT_TRUE(options.ok()) << options.error().message.toStdString();
    const ExportOptions &e = options->exportOptions;
    EXPECT_TRUE(e.isSet());
    EXPECT_EQ(e.panels, (QStringList{QStringLiteral("Throughput"), QStringLiteral("Client pool")}));
    EXPECT_EQ(e.scale, 2);
    EXPECT_EQ(e.theme, QStringLiteral("app"));
    EXPECT_EQ(e.size, QSize(800, 450));
    EXPECT_TRUE(e.caption);
}

TEST(ExportOptions, BadValuesAreRefusedNamingTheOption)
{
    const auto scale =
        parse({QStringLiteral("--export"), QStringLiteral("a.png"), QStringLiteral("--scale"), QStringLiteral("4")});
    ASSERT_FALSE(scale.ok());
    EXPECT_TRUE(scale.error().message.startsWith(QStringLiteral("--scale")));

    const auto theme =
        parse({QStringLiteral("--export"), QStringLiteral("a.png"), QStringLiteral("--theme"), QStringLiteral("dark")});
    ASSERT_FALSE(theme.ok());
    EXPECT_TRUE(theme.error().message.contains(QStringLiteral("blog, app")));

    const auto suffix = parse({QStringLiteral("--export"), QStringLiteral("a.jpg")});
    ASSERT_FALSE(suffix.ok());
    EXPECT_TRUE(suffix.error().message.contains(QStringLiteral(".png, .svg or .csv")));

    const auto range = parse(
        {QStringLiteral("--export"), QStringLiteral("a.svg"), QStringLiteral("--range"), QStringLiteral("yesterday")});
    ASSERT_FALSE(range.ok());
    EXPECT_TRUE(range.error().message.startsWith(QStringLiteral("--range")));

    const auto alone = parse({QStringLiteral("--panel"), QStringLiteral("Throughput")});
    ASSERT_FALSE(alone.ok());
    EXPECT_TRUE(alone.error().message.contains(QStringLiteral("--export")));
}

TEST(ExportOptions, ASecondRecordingIsComparedWithTheOneSessionOpens)
{
    const auto options =
        parse({QStringLiteral("--session"), QStringLiteral("before.chaoscope"), QStringLiteral("--compare-session"),
               QStringLiteral("after.chaoscope"), QStringLiteral("--compare-titles"),
               QStringLiteral("500 PI/s,300 PI/s"), QStringLiteral("--export"), QStringLiteral("runs.png")});
    ASSERT_TRUE(options.ok()) << options.error().message.toStdString();
    EXPECT_EQ(options->exportOptions.compareSessions, QStringList{QStringLiteral("after.chaoscope")});
    EXPECT_EQ(options->exportOptions.compareTitles,
              (QStringList{QStringLiteral("500 PI/s"), QStringLiteral("300 PI/s")}));

    const auto withoutSession = parse({QStringLiteral("--compare-session"), QStringLiteral("after.chaoscope"),
                                       QStringLiteral("--export"), QStringLiteral("runs.png")});
    ASSERT_FALSE(withoutSession.ok());
    EXPECT_TRUE(withoutSession.error().message.contains(QStringLiteral("--session")))
        << withoutSession.error().message.toStdString();

    const auto both =
        parse({QStringLiteral("--session"), QStringLiteral("before.chaoscope"), QStringLiteral("--compare-session"),
               QStringLiteral("after.chaoscope"), QStringLiteral("--compare"),
               QStringLiteral("now-2m/now-1m,now-1m/now"), QStringLiteral("--export"), QStringLiteral("runs.png")});
    ASSERT_FALSE(both.ok());
    EXPECT_TRUE(both.error().message.contains(QStringLiteral("give one"))) << both.error().message.toStdString();

    const auto withoutExport = parse({QStringLiteral("--session"), QStringLiteral("before.chaoscope"),
                                      QStringLiteral("--compare-session"), QStringLiteral("after.chaoscope")});
    ASSERT_FALSE(withoutExport.ok());
    EXPECT_TRUE(withoutExport.error().message.contains(QStringLiteral("go with --export")))
        << withoutExport.error().message.toStdString();
}

TEST(ExportOptions, UpToEightRunsAreComparedAsRecordingsWindowsOrAVariablesValues)
{
    // --session again and again: the first is opened, the others compared with it.
    const auto sessions =
        parse({QStringLiteral("--session"), QStringLiteral("a.chaoscope"), QStringLiteral("--session"),
               QStringLiteral("b.chaoscope"), QStringLiteral("--session"), QStringLiteral("c.chaoscope"),
               QStringLiteral("--run-table"), QStringLiteral("runs.md"), QStringLiteral("--table-columns"),
               QStringLiteral("completed:mean, p99:max, Client pool: leased")});
    ASSERT_TRUE(sessions.ok()) << sessions.error().message.toStdString();
    EXPECT_EQ(sessions->sessionPath, QStringLiteral("a.chaoscope"));
    EXPECT_EQ(sessions->exportOptions.compareSessions,
              (QStringList{QStringLiteral("b.chaoscope"), QStringLiteral("c.chaoscope")}));
    EXPECT_TRUE(sessions->exportOptions.comparesRuns());

    const auto windows = parse({QStringLiteral("--export"), QStringLiteral("w.png"), QStringLiteral("--compare"),
                                QStringLiteral("now-9m/now-6m,now-6m/now-3m,now-3m/now"),
                                QStringLiteral("--compare-view"), QStringLiteral("overlay")});
    ASSERT_TRUE(windows.ok()) << windows.error().message.toStdString();
    EXPECT_TRUE(windows->exportOptions.overlay);

    const auto variable = parse(
        {QStringLiteral("--export-post"), QStringLiteral("post"), QStringLiteral("--compare-variable"),
         QStringLiteral("$namespace=base, pis-400,no-limit"), QStringLiteral("--steady"), QStringLiteral("+30s/+2m")});
    ASSERT_TRUE(variable.ok()) << variable.error().message.toStdString();
    EXPECT_EQ(variable->exportOptions.compareVariable, QStringLiteral("namespace"));
    EXPECT_EQ(variable->exportOptions.compareValues,
              (QStringList{QStringLiteral("base"), QStringLiteral("pis-400"), QStringLiteral("no-limit")}));

    // Each mistake names its option; nothing runs.
    const auto refusedWith = [&](const QStringList &args, const QString &words) {
        const auto refused = parse(args);
        EXPECT_FALSE(refused.ok()) << args.join(QLatin1Char(' ')).toStdString();
        if (!refused.ok()) {
            EXPECT_TRUE(refused.error().message.contains(words)) << refused.error().message.toStdString();
        }
    };
    refusedWith({QStringLiteral("--export"), QStringLiteral("w.png"), QStringLiteral("--compare"),
                 QStringLiteral("now-2m/now")},
                QStringLiteral("2 to 8 ranges"));
    refusedWith({QStringLiteral("--export"), QStringLiteral("w.png"), QStringLiteral("--compare-variable"),
                 QStringLiteral("namespace=base")},
                QStringLiteral("NAME=VALUE,VALUE"));
    refusedWith({QStringLiteral("--export"), QStringLiteral("w.png"), QStringLiteral("--compare"),
                 QStringLiteral("now-2m/now-1m,now-1m/now"), QStringLiteral("--compare-view"), QStringLiteral("grid")},
                QStringLiteral("--compare-view"));
    refusedWith({QStringLiteral("--run-table"), QStringLiteral("t.txt"), QStringLiteral("--compare"),
                 QStringLiteral("now-2m/now-1m,now-1m/now")},
                QStringLiteral(".md or .csv"));
    refusedWith({QStringLiteral("--run-table"), QStringLiteral("t.md")}, QStringLiteral("compare runs"));
    refusedWith({QStringLiteral("--export"), QStringLiteral("w.png"), QStringLiteral("--compare"),
                 QStringLiteral("now-2m/now-1m,now-1m/now"), QStringLiteral("--steady"), QStringLiteral("soon")},
                QStringLiteral("--steady"));
    refusedWith({QStringLiteral("--post-title"), QStringLiteral("Chaos Day")}, QStringLiteral("--export-post"));
    refusedWith({QStringLiteral("--session"), QStringLiteral("a.chaoscope"), QStringLiteral("--export"),
                 QStringLiteral("w.png"), QStringLiteral("--compare-variable"), QStringLiteral("namespace=a,b")},
                QStringLiteral("live run"));
}

TEST(ExportOptions, SteadyStatesAreOffsetsFromEachRunsZero)
{
    const auto both = SteadyState::parse(QStringLiteral("+30s/+5m"));
    ASSERT_TRUE(both.ok()) << both.error().message.toStdString();
    EXPECT_EQ(both->startMs, 30000);
    EXPECT_EQ(both->endMs, std::optional<qint64>(300000));
    const auto open = SteadyState::parse(QStringLiteral("+1m/"));
    ASSERT_TRUE(open.ok());
    EXPECT_EQ(open->startMs, 60000);
    EXPECT_FALSE(open->endMs.has_value()) << "to the run's end";
    EXPECT_TRUE(SteadyState::parse(QStringLiteral("0s")).ok());
    EXPECT_FALSE(SteadyState::parse(QStringLiteral("+5m/+1m")).ok()) << "ends before it starts";
    EXPECT_FALSE(SteadyState::parse(QStringLiteral("later")).ok());
}

TEST(ExportOptions, RangesAreIsoTimesOrCountedBackFromNow)
{
    const Result<TimeRange> iso =
        ExportCommandLine::parseRange(QStringLiteral("2026-03-01T09:40:00Z/2026-03-01T09:50:00.500Z"), 0);
    ASSERT_TRUE(iso.ok()) << iso.error().message.toStdString();
    EXPECT_EQ(iso->startMs, kNine40);
    EXPECT_EQ(iso->endMs, kNine40 + 10 * 60 * 1000 + 500);

    const Result<TimeRange> relative = ExportCommandLine::parseRange(QStringLiteral("now-10m/now"), kNine40);
    ASSERT_TRUE(relative.ok());
    EXPECT_EQ(relative->startMs, kNine40 - 10 * 60 * 1000);
    EXPECT_EQ(relative->endMs, kNine40);

    EXPECT_FALSE(ExportCommandLine::parseRange(QStringLiteral("now/now-10m"), kNine40).ok()) << "ends before it starts";
    EXPECT_FALSE(ExportCommandLine::parseRange(QStringLiteral("now-10m"), kNine40).ok()) << "no end";
}

// A panel title comes from a dashboard file: filled into {panel} it must stay one file name in
// the chosen folder, whatever it holds.
TEST(ExportPaths, PanelTitlesCannotLeaveTheExportFolder)
{
    const QString folder = QStringLiteral("/tmp/exports");
    for (const QString &title :
         {QStringLiteral("../../x"), QStringLiteral("/etc/passwd"), QStringLiteral("..\\..\\x"), QStringLiteral(".."),
          QStringLiteral("a/../../b"), QStringLiteral("~/x"), QStringLiteral("$(touch /tmp/pwned)")}) {
        const QString path = ChartExporter::expandPlaceholders(folder + QStringLiteral("/{panel}.png"), 0, title);
        const QFileInfo info(path);
        EXPECT_EQ(info.absolutePath(), folder) << qPrintable(title) << " -> " << qPrintable(path);
        EXPECT_FALSE(info.fileName().startsWith(QLatin1Char('.'))) << qPrintable(path);
        EXPECT_FALSE(path.contains(QLatin1String(".."))) << qPrintable(path);
        EXPECT_FALSE(path.contains(QLatin1Char('$'))) << qPrintable(path);
    }
    EXPECT_EQ(ChartExporter::expandPlaceholders(QStringLiteral("out/{panel}.csv"), 0, QStringLiteral("Rate: sent / s")),
              QStringLiteral("out/rate-sent-s.csv"));
}
