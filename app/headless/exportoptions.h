// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "base/timerange.h"

#include <QCommandLineOption>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

class QCommandLineParser;

// What --export and its companions ask for: a picture or CSV written headless.
struct ExportOptions
{
    QString path;       // OUT.png | OUT.svg | OUT.csv; may hold {time} and {panel}
    QStringList panels; // titles; empty = the whole dashboard
    QStringList marks;  // kinds of annotation ("action", "query:restarts"); empty = as the panels show
    double scale = 1;   // PNG pixel ratio: 1, 2 or 3
    QString theme = QStringLiteral("blog");
    QString title;
    QString subtitle;
    bool caption = true;
    QString range;         // "START/END"; empty = the view at the moment of the export
    QSize size{1200, 675}; // logical pixels of the picture
    QString compare;       // "START/END,START/END[,…]": a comparison of 2 to 8 windows
    QStringList compareTitles;
    QString compareAlign;        // t = 0 of each run at the first annotation containing this text
    QStringList compareSessions; // further recordings compared with --session's (--session b, --compare-session)
    QString compareVariable;     // "namespace": one run per value of this variable …
    QStringList compareValues;   // … "base", "pis-400", …
    bool overlay = false;        // --compare-view overlay: the runs in one plot per panel
    QStringList overlaid;        // --compare-series: what an overlay draws per run (ids, legends)
    QString runTablePath;        // --run-table: the runs' table as .md or .csv
    QString tableColumns;        // "completed:mean,p99:max"; empty: the dashboard's series ids
    QString steady;              // "+30s/+5m": each run's steady state from its zero; empty: zero to end

    // --export-post DIR: a blog post drafted from the run
    QString postFolder;
    QString postTitle;
    QStringList postAuthors;
    QStringList postTags;
    QStringList headlinePanels;

    bool isSet() const { return !path.isEmpty() || !postFolder.isEmpty() || !runTablePath.isEmpty(); }
    // Runs compared: windows of this run, recordings or a variable's values.
    bool comparesRuns() const { return !compare.isEmpty() || !compareSessions.isEmpty() || !compareVariable.isEmpty(); }
};

namespace ExportCommandLine {

// The options, to add to the application's parser.
std::vector<QCommandLineOption> options();
// Reads them back; an option with a bad value is an error naming it. A range or a comparison
// is checked here for its form, and resolved against "now" only when the export runs.
Result<ExportOptions> read(const QCommandLineParser &parser);

// "START/END": each an ISO-8601 date-time ("2026-03-01T09:40:00Z"; without a zone it is local
// time), "now", or "now-DURATION" ("now-10m"). `nowMs` is the end of the data: the clock in a
// live run, the end of a recording offline.
Result<TimeRange> parseRange(const QString &text, qint64 nowMs);

// The most runs a comparison draws side by side or overlaid.
constexpr int kMostRuns = 8;

} // namespace ExportCommandLine
