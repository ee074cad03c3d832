// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless/exportoptions.h"

#include "base/durationgrammar.h"
#include "export/exporttheme.h"
#include "report/runtable.h"

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
        const qint64 ago = DurationGrammar::parseMs(trimmed.mid(4));
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
            QStringLiteral("With --export, --export-post or --run-table: 2 to 8 time windows compared on the same "
                           "scales, each counted from its start: START/END,START/END[,…]."),
            QStringLiteral("ranges")),
        QCommandLineOption(
            QStringLiteral("compare-variable"),
            QStringLiteral("With --export, --export-post or --run-table: one run per value of a dashboard variable, "
                           "asked from Prometheus over the same time: NAME=VALUE,VALUE[,…] (2 to 8)."),
            QStringLiteral("name=values")),
        QCommandLineOption(QStringLiteral("compare-view"),
                           QStringLiteral("How --export draws runs compared: side (a column per run, the same "
                                          "scales) or overlay (one plot per panel, a colour per run)."),
                           QStringLiteral("view"), QStringLiteral("side")),
        QCommandLineOption(QStringLiteral("compare-series"),
                           QStringLiteral("With --compare-view overlay: the series drawn for each run, by id or "
                                          "legend, comma-separated (default: each panel's first)."),
                           QStringLiteral("names")),
        QCommandLineOption(
            QStringLiteral("run-table"),
            QStringLiteral("With runs compared: write their table (a row per run, a column per series and "
                           "statistic over the steady state) to this .md or .csv file."),
            QStringLiteral("file")),
        QCommandLineOption(
            QStringLiteral("table-columns"),
            QStringLiteral("The run table's columns: SERIES:STATISTIC,… (a series id, legend or panel title; "
                           "mean, p50, p99, max or last). Default: each series with an id, its mean."),
            QStringLiteral("columns")),
        QCommandLineOption(QStringLiteral("steady"),
                           QStringLiteral("Each run's steady state for the run table, from its zero: START/END "
                                          "(\"+30s/+5m\", \"+1m/\" to its end). Default: its zero to its end."),
                           QStringLiteral("offsets")),
        QCommandLineOption(
            QStringLiteral("export-post"),
            QStringLiteral("Headless: after --after (a scenario: at its end; a recording: at once), draft a blog "
                           "post from the run into this folder: index.md and its pictures. An index.md you have "
                           "edited is kept; the new draft goes beside it."),
            QStringLiteral("folder")),
        QCommandLineOption(QStringLiteral("post-title"),
                           QStringLiteral("With --export-post: the post's title (default: the scenario's, or the "
                                          "dashboard's and the date)."),
                           QStringLiteral("text")),
        QCommandLineOption(QStringLiteral("post-author"),
                           QStringLiteral("With --export-post: an author (repeatable or comma-separated; default: "
                                          "the one remembered, else your user name)."),
                           QStringLiteral("name")),
        QCommandLineOption(QStringLiteral("post-tags"),
                           QStringLiteral("With --export-post: the post's tags, comma-separated."),
                           QStringLiteral("tags")),
        QCommandLineOption(QStringLiteral("headline"),
                           QStringLiteral("With --export-post: a panel of the summary picture (repeatable; default: "
                                          "the dashboard's headline panels, else all)."),
                           QStringLiteral("title")),
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
        if (windows.size() < 2 || windows.size() > kMostRuns)
            return Error::make(
                Error::Kind::Invalid,
                QStringLiteral("--compare: expected 2 to %1 ranges, START/END,START/END[,…]").arg(kMostRuns));
        for (const QString &window : windows) {
            if (const Result<TimeRange> range = parseRange(window, nowMs); !range)
                return Error::make(Error::Kind::Invalid, QStringLiteral("--compare: %1").arg(range.error().message));
        }
    }
    if (parser.isSet(QStringLiteral("compare-titles")))
        options.compareTitles = parser.value(QStringLiteral("compare-titles")).split(QLatin1Char(','));
    options.compareAlign = parser.value(QStringLiteral("compare-align")).trimmed();
    options.compareSessions = parser.values(QStringLiteral("compare-session"));
    if (parser.isSet(QStringLiteral("compare-variable"))) {
        const QString given = parser.value(QStringLiteral("compare-variable"));
        options.compareVariable = given.section(QLatin1Char('='), 0, 0).trimmed().remove(QLatin1Char('$'));
        for (const QString &value : given.section(QLatin1Char('='), 1).split(QLatin1Char(','), Qt::SkipEmptyParts))
            options.compareValues << value.trimmed();
        if (!given.contains(QLatin1Char('=')) || options.compareVariable.isEmpty() ||
            options.compareValues.size() < 2 || options.compareValues.size() > kMostRuns)
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--compare-variable: expected NAME=VALUE,VALUE[,…] with 2 to %1 values, "
                                              "e.g. namespace=base,pis-400")
                                   .arg(kMostRuns));
    }
    const int ways = int(!options.compare.isEmpty()) + int(!options.compareSessions.isEmpty()) +
                     int(!options.compareVariable.isEmpty());
    if (ways > 1)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--compare, --compare-session and --compare-variable: give one (windows "
                                          "of this run, recordings, or a variable's values)"));
    const QString view = parser.value(QStringLiteral("compare-view")).trimmed().toLower();
    if (view != QLatin1String("side") && view != QLatin1String("overlay"))
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--compare-view: \"%1\" is not side or overlay").arg(view));
    options.overlay = view == QLatin1String("overlay");
    for (const QString &name :
         parser.value(QStringLiteral("compare-series")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty())
            options.overlaid << name.trimmed();
    options.runTablePath = parser.value(QStringLiteral("run-table"));
    if (!options.runTablePath.isEmpty()) {
        const QString suffix = options.runTablePath.section(QLatin1Char('.'), -1).toLower();
        if (suffix != QLatin1String("md") && suffix != QLatin1String("csv"))
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--run-table: \"%1\" must end in .md or .csv").arg(options.runTablePath));
    }
    options.tableColumns = parser.value(QStringLiteral("table-columns"));
    if (!options.tableColumns.isEmpty()) {
        if (const auto requests = RunTable::parseRequests(options.tableColumns); !requests)
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--table-columns: %1").arg(requests.error().message));
    }
    options.steady = parser.value(QStringLiteral("steady"));
    if (!options.steady.isEmpty()) {
        if (const Result<SteadyState> steady = SteadyState::parse(options.steady); !steady)
            return Error::make(Error::Kind::Invalid, QStringLiteral("--steady: %1").arg(steady.error().message));
    }
    options.postFolder = parser.value(QStringLiteral("export-post"));
    if (parser.isSet(QStringLiteral("export-post")) && options.postFolder.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("--export-post: the folder's name is empty"));
    options.postTitle = parser.value(QStringLiteral("post-title"));
    for (const QString &author : parser.values(QStringLiteral("post-author")))
        for (const QString &name : author.split(QLatin1Char(','), Qt::SkipEmptyParts))
            options.postAuthors << name.trimmed();
    for (const QString &tag : parser.value(QStringLiteral("post-tags")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        options.postTags << tag.trimmed();
    options.headlinePanels = parser.values(QStringLiteral("headline"));

    // Several --session recordings are compared too (the command line hands them over).
    const bool comparing = options.comparesRuns() || parser.values(QStringLiteral("session")).size() > 1;
    const bool needsExport =
        !options.panels.isEmpty() || parser.isSet(QStringLiteral("range")) || parser.isSet(QStringLiteral("title"));
    if (!comparing && (!options.compareTitles.isEmpty() || !options.compareAlign.isEmpty()))
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--compare-titles and --compare-align go with --compare, --compare-session "
                                          "or --compare-variable"));
    if (!comparing && (!options.runTablePath.isEmpty() || !options.tableColumns.isEmpty() || !options.steady.isEmpty()))
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--run-table, --table-columns and --steady compare runs: give --compare, "
                                          "--compare-session or --compare-variable"));
    if (options.postFolder.isEmpty() && (!options.postTitle.isEmpty() || !options.postAuthors.isEmpty() ||
                                         !options.postTags.isEmpty() || !options.headlinePanels.isEmpty()))
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--post-title, --post-author, --post-tags and --headline go with "
                                          "--export-post FOLDER"));
    if (!options.isSet() && (needsExport || options.comparesRuns()))
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--panel, --range, --title and runs compared go with --export FILE, "
                                          "--export-post FOLDER or --run-table FILE"));
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
