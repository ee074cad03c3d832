// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "report/comparedrun.h"

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <memory>
#include <vector>

class AnnotationModel;
class ComparisonRuns;
class ComparisonWindow;
class DashboardPoller;
class QMainWindow;
class SampleStore;
class TimeWindow;

// File ▸ Compare runs…: the window of runs compared (ComparisonWindow), filled from here: the
// run shown (a recording's, or the view of a live one), the views the user adds, recordings
// chosen in a file dialog (each read into a store of its own) and the values of a dashboard
// variable (each polled from Prometheus over the view shown). While a variable's runs fetch,
// the window is brought up to date every few seconds.
class ComparisonAction : public QObject
{
    Q_OBJECT
public:
    // `thisRun`: the run shown, as LiveRun knows it (a recording's, or a live run's view).
    ComparisonAction(QMainWindow *window, const SampleStore *store, const AnnotationModel *annotations,
                     const DashboardPoller *poller, const TimeWindow *timeWindow, ComparisonRuns *runs,
                     std::function<ComparedRun()> thisRun);

    void open();
    // The steps behind the window's buttons, for tests and scripts.
    void addView();
    QString addRecordings(const QStringList &paths); // what could not be added, in words; empty: all
    QString addVariableValues(const QString &name, const QStringList &values);
    ComparisonWindow *window() const;

private:
    void push(); // the runs to the window, in the order they were added
    void chooseRecordings();
    void chooseVariableValues();

    QMainWindow *m_window;
    const SampleStore *m_store;
    const AnnotationModel *m_annotations;
    const DashboardPoller *m_poller;
    const TimeWindow *m_timeWindow;
    ComparisonRuns *m_runs;
    std::function<ComparedRun()> m_thisRun;
    // In the order added: a view of this run (its own ComparedRun), or the i-th of m_runs.
    struct Entry
    {
        std::optional<ComparedRun> view;
        int comparison = -1;
    };
    std::vector<Entry> m_entries;
    int m_comparisonCount = 0;
    QPointer<ComparisonWindow> m_comparison;
    QTimer m_followVariables;
};
