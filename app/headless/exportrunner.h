// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "base/timerange.h"
#include "headless/exportoptions.h"
#include "report/comparedrun.h"
#include "scenario/scenarioverdict.h"

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

class AnnotationModel;
class ComparisonRuns;
class DashboardPoller;
class PrometheusClient;
class SampleStore;
class TimeWindow;
struct ExportFigure;

// Headless export (--export, --export-post, --run-table): lets the dashboard fetch for a while
// (a recording: not at all; a scenario: until it ends), then writes the picture or CSV, the
// post and the run table, and quits — 0 when all were written (a scenario's verdict when it
// ran one), non-zero with the reason on stderr otherwise (unknown panel, bad range, no data,
// unwritable path).
class ExportRunner : public QObject
{
    Q_OBJECT
public:
    struct Context
    {
        DashboardPoller *poller = nullptr;
        PrometheusClient *client = nullptr; // live only
        const SampleStore *store = nullptr;
        const AnnotationModel *annotations = nullptr;
        const TimeWindow *window = nullptr;
        QString source; // the Prometheus URL or the recording's file
        bool offline = false;
        ComparisonRuns *comparison = nullptr;      // further recordings or a variable's values
        std::optional<TimeRange> recordedRun = {}; // a recording's run; unset: live, from startedMs to now
        qint64 startedMs = 0;
        QString runTitle = {}; // the recording's name; a live run's is its start time
        // A recording's scenario, as it recorded it: a post's title and its Expected / Result.
        QString scenarioTitle = {};
        std::optional<ScenarioVerdict> scenarioVerdict = {};
    };

    ExportRunner(Context context, ExportOptions options, qint64 afterMs, QObject *parent = nullptr);
    void start();
    // A scenario ended: write now, and exit with its verdict's code when everything was written.
    void finishAfterScenario(const QString &title, const ScenarioVerdict &verdict);

    // Builds the picture; an error message when the options do not fit the dashboard.
    // Public for the dialog and the tests.
    static std::optional<QString> buildFigure(const Context &context, const ExportOptions &options,
                                              ExportFigure *figure);
    // The runs compared (windows, recordings or a variable's values), titled, aligned and with
    // their steady states as the options say; an error names what does not fit.
    static Result<std::vector<ComparedRun>> comparedRuns(const Context &context, const ExportOptions &options);

private:
    void finish();
    // Each writes its file(s) and prints where; an error message and exit code otherwise.
    struct Failure
    {
        QString message;
        int exitCode = 2;
    };
    std::optional<Failure> writePicture();
    std::optional<Failure> writeRunTable();
    std::optional<Failure> writePost();
    // The run the post and the picture are of: a recording's, else from the start to now.
    TimeRange runRange() const;
    // Why there is nothing to draw, in words: the source down, every query failed, or no samples.
    QString noDataReason() const;

    Context m_context;
    ExportOptions m_options;
    qint64 m_afterMs;
    QString m_lastSourceError;
    bool m_finished = false;
    QString m_scenarioTitle;
    std::optional<ScenarioVerdict> m_verdict;
};
