// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "dashboard/dashboarddefinition.h"
#include "fetching/dashboardpoller.h"
#include "report/comparedrun.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

class PrometheusClient;
class SampleStore;
class TimeWindow;

// The runs compared beside the one the app shows: further recordings (--session a --session b
// …), each read into a store of its own with its own marks, or the dashboard asked once more
// for each value of a variable (--compare-variable namespace=base,pis-400,…), polled into the
// run's store, where the variable's value keeps their series apart (only the queried ones: a
// formula's result has no value in its key). Each gives a ComparedRun for the pictures, the run
// table and the post.
class ComparisonRuns : public QObject
{
    Q_OBJECT
public:
    ComparisonRuns(PrometheusClient *client, SampleStore *store, TimeWindow *window, QObject *parent = nullptr);
    ~ComparisonRuns() override;

    // Reads a further recording. Refused, changing nothing, when it cannot be read, is one
    // already compared, or was made with other queries than `first` (its series would land in
    // the wrong panels).
    Result<bool> addRecording(const QString &path, const DashboardDefinition &first);
    // The recording the app shows (its run is the first compared): not to be added again.
    void setShownRecording(const QString &path) { m_shownRecording = path; }
    // One run per value: the dashboard with the variable set to it. Refused when the dashboard
    // declares no such variable or a value is given twice.
    Result<bool> addVariableValues(const DashboardDefinition &dashboard, const QString &name,
                                   const QStringList &values);
    // The variables' runs start and stop fetching with the app's.
    void start();
    void stop();

    bool isEmpty() const { return m_runs.empty(); }
    // The variables' runs' fetching, summed: whether any query was answered.
    DashboardPoller::Stats stats() const;
    // The runs in the order added. A recording's range is its run; a variable's is `range`
    // (the window shown, or the one asked for). Zero and steady state are the range's start
    // and the range: the caller aligns them.
    std::vector<ComparedRun> runs(const TimeRange &range) const;
    // The recordings' files, for a caption.
    QStringList recordingNames() const;

private:
    struct Run;

    PrometheusClient *m_client;
    SampleStore *m_store;
    TimeWindow *m_window;
    std::vector<std::unique_ptr<Run>> m_runs;
    QString m_shownRecording;
};
