// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless/exportoptions.h"

#include "dashboard/loader/dashboardloader.h"
#include "export/exporttheme.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QRegularExpression>

namespace ExportCommandLine {

namespace {

Result<qint64> parseInstant(const QString &text, qint64 nowMs)
{
    const QString trimmed = text.trimmed();
    if (trimmed.compare(QLatin1String("now"), Qt::CaseInsensitive) == 0)
        return nowMs;
    if (trimmed.startsWith(QLatin1String("now-"), Qt::CaseInsensitive)) {
        const qint64 ago = DashboardLoader::parseDurationMs(trimmed.mid(4));
        if (ago > 0)
            return nowMs - ago;
    }
    const QDateTime parsed = QDateTime::fromString(trimmed, Qt::ISODateWithMs);
    if (parsed.isValid())
        return parsed.toMSecsSinceEpoch();
    return Error::make(
        Error::Kind::Invalid,
        QStringLiteral("\"%1\" is not a time: use ISO-8601 (2026-03-01T09:40:00Z), now or now-10m").arg(trimmed));
}

} // namespace

std::vector<QCommandLineOption> options()
{
    return {
        QCommandLineOption(
            QStringLiteral("export"),
            QStringLiteral("Headless: after --after (a recording: at once), write the dashboard as a picture "
                           "or its data, then exit (non-zero with the reason on failure). The format follows "
                           "the suffix: .png, .svg or .csv. {time} and {panel} in the name are filled in; "
                           "with {panel}, one file per panel."),
            QStringLiteral("file")),
        QCommandLineOption(QStringLiteral("panel"),
                           QStringLiteral("With --export: only this panel (its title). Repeatable."),
                           QStringLiteral("title")),
        QCommandLineOption(
            QStringLiteral("annotations"),
            QStringLiteral("With --export: only these marks, comma-separated: manual, action, scenario, detector, "
                           "kubernetes, query (every annotation query, also one switched off) or query:NAME."),
            QStringLiteral("kinds")),
        QCommandLineOption(QStringLiteral("scale"), QStringLiteral("With --export: pixel ratio of a PNG: 1, 2 or 3."),
                           QStringLiteral("n"), QStringLiteral("1")),
        QCommandLineOption(QStringLiteral("theme"),
                           QStringLiteral("With --export: blog (white, larger text, shipped font) or app."),
                           QStringLiteral("name"), QStringLiteral("blog")),
        QCommandLineOption(QStringLiteral("title"), QStringLiteral("With --export: a title above the picture."),
                           QStringLiteral("text")),
        QCommandLineOption(QStringLiteral("subtitle"), QStringLiteral("With --export: a line below the title."),
                           QStringLiteral("text")),
        QCommandLineOption(
            QStringLiteral("no-caption"),
            QStringLiteral("With --export: leave out the caption (time range, queries, source, version).")),
        QCommandLineOption(QStringLiteral("range"),
                           QStringLiteral("With --export: the time range START/END, each ISO-8601, now or now-DURATION "
                                          "(default: the dashboard's window)."),
                           QStringLiteral("start/end")),
        QCommandLineOption(QStringLiteral("export-size"),
                           QStringLiteral("With --export: the picture's size in logical pixels."),
                           QStringLiteral("WxH"), QStringLiteral("1200x675")),
        QCommandLineOption(
            QStringLiteral("compare"),
            QStringLiteral("With --export: two time windows side by side on the same scales, each counted "
                           "from its start: START/END,START/END."),
            QStringLiteral("ranges")),
        QCommandLineOption(QStringLiteral("compare-titles"),
                           QStringLiteral("With --compare: a title for each window, "
                                          "comma-separated (\"500 PI/s,300 PI/s\")."),
                           QStringLiteral("titles")),
        QCommandLineOption(
            QStringLiteral("compare-session"),
            QStringLiteral("With --session and --export: compare that recording with this second one, "
                           "made with the same dashboard at another time: the two runs side by side on the "
                           "same scales, each counted from its start."),
            QStringLiteral("file")),
        QCommandLineOption(
            QStringLiteral("compare-align"),
            QStringLiteral("With --compare: count each window's time from the first annotation in it whose "
                           "text contains this (\"rate\"; or one per window: \"rate,in-flight\"), instead of "
                           "from its start."),
            QStringLiteral("text")),
    };
}

Result<TimeRange> parseRange(const QString &text, qint64 nowMs)
{
    const QStringList parts = text.split(QLatin1Char('/'));
    if (parts.size() != 2)
        return Error::make(Error::Kind::Invalid, QStringLiteral("\"%1\" is not START/END").arg(text));
    const Result<qint64> start = parseInstant(parts[0], nowMs);
    if (!start)
        return start.error();
    const Result<qint64> end = parseInstant(parts[1], nowMs);
    if (!end)
        return end.error();
    if (end.value() <= start.value())
        return Error::make(Error::Kind::Invalid, QStringLiteral("\"%1\" ends before it starts").arg(text));
    return TimeRange{start.value(), end.value()};
}

Result<ExportOptions> read(const QCommandLineParser &parser)
{
    ExportOptions options;
    options.path = parser.value(QStringLiteral("export"));
    options.panels = parser.values(QStringLiteral("panel"));
    for (const QString &kind : parser.value(QStringLiteral("annotations")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        options.marks << kind.trimmed();
    if (parser.isSet(QStringLiteral("annotations")) && options.marks.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--annotations: name the kinds of marks, e.g. action,query"));
    options.title = parser.value(QStringLiteral("title"));
    options.subtitle = parser.value(QStringLiteral("subtitle"));
    options.caption = !parser.isSet(QStringLiteral("no-caption"));

    const QString scale = parser.value(QStringLiteral("scale")).trimmed();
    if (scale != QLatin1String("1") && scale != QLatin1String("2") && scale != QLatin1String("3"))
        return Error::make(Error::Kind::Invalid, QStringLiteral("--scale: \"%1\" is not 1, 2 or 3").arg(scale));
    options.scale = scale.toDouble();

    options.theme = parser.value(QStringLiteral("theme")).trimmed().toLower();
    if (!ExportTheme::names().contains(options.theme)) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--theme: \"%1\" is not one of %2")
                               .arg(options.theme, ExportTheme::names().join(QStringLiteral(", "))));
    }

    static const QRegularExpression sizePattern(QStringLiteral(R"(^(\d{3,5})x(\d{3,5})$)"));
    const auto match = sizePattern.match(parser.value(QStringLiteral("export-size")).trimmed());
    if (!match.hasMatch())
        return Error::make(Error::Kind::Invalid, QStringLiteral("--export-size: expected WxH, e.g. 1200x675"));
    options.size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    if (options.size.width() > 10000 || options.size.height() > 10000)
        return Error::make(Error::Kind::Invalid, QStringLiteral("--export-size: at most 10000x10000"));

    // Checked against the clock now; "now" is resolved again when the export runs.
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    options.range = parser.value(QStringLiteral("range"));
    if (!options.range.isEmpty()) {
        if (const Result<TimeRange> range = parseRange(options.range, nowMs); !range)
            return Error::make(Error::Kind::Invalid, QStringLiteral("--range: %1").arg(range.error().message));
    }
    options.compare = parser.value(QStringLiteral("compare"));
    if (!options.compare.isEmpty()) {
        const QStringList windows = options.compare.split(QLatin1Char(','));
        if (windows.size() != 2)
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--compare: expected two ranges, START/END,START/END"));
        for (const QString &window : windows) {
            if (const Result<TimeRange> range = parseRange(window, nowMs); !range)
                return Error::make(Error::Kind::Invalid, QStringLiteral("--compare: %1").arg(range.error().message));
        }
    }
    if (parser.isSet(QStringLiteral("compare-titles")))
        options.compareTitles = parser.value(QStringLiteral("compare-titles")).split(QLatin1Char(','));
    options.compareAlign = parser.value(QStringLiteral("compare-align")).trimmed();
    options.compareSessionPath = parser.value(QStringLiteral("compare-session"));
    if (!options.compare.isEmpty() && !options.compareSessionPath.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--compare and --compare-session: give one (two windows of this "
                                          "recording, or this recording against another)"));

    const bool needsExport = !options.panels.isEmpty() || parser.isSet(QStringLiteral("range")) ||
                             parser.isSet(QStringLiteral("compare")) ||
                             parser.isSet(QStringLiteral("compare-session")) || parser.isSet(QStringLiteral("title"));
    if (options.compare.isEmpty() && options.compareSessionPath.isEmpty() &&
        (!options.compareTitles.isEmpty() || !options.compareAlign.isEmpty()))
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("--compare-titles and --compare-align go with --compare or --compare-session"));
    if (options.path.isEmpty() && needsExport)
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("--panel, --range, --compare, --compare-session and --title go with --export FILE"));
    if (!options.path.isEmpty()) {
        const QString suffix = options.path.section(QLatin1Char('.'), -1).toLower();
        if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("csv")) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--export: \"%1\" must end in .png, .svg or .csv").arg(options.path));
        }
    }
    return options;
}

} // namespace ExportCommandLine
