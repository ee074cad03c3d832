// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "scenario/scenarioverdict.h"

#include <QObject>
#include <QString>
#include <functional>
#include <optional>

class AnnotationModel;
class DashboardPoller;
class QMainWindow;
class SampleStore;

// File ▸ Export post…: drafts the Chaos Day post from the run shown (PostDialog). The run is
// what LiveRun says it is: a recording's, or a live run's since it started; with its scenario
// and verdict once one ran. The authors and tags are remembered for the next post.
class PostExportAction : public QObject
{
    Q_OBJECT
public:
    struct RunInfo
    {
        TimeRange range;
        QString source;   // the Prometheus URL or the recording's file
        QString scenario; // the scenario's title; empty without one
        std::optional<ScenarioVerdict> verdict = std::nullopt;
    };
    using RunInfoSource = std::function<RunInfo()>;

    PostExportAction(QMainWindow *window, const SampleStore *store, const AnnotationModel *annotations,
                     const DashboardPoller *poller, RunInfoSource info);

    // Opens the dialog (non-modal), with the samples of the run copied for its pictures.
    void open();

private:
    QMainWindow *m_window;
    const SampleStore *m_store;
    const AnnotationModel *m_annotations;
    const DashboardPoller *m_poller;
    RunInfoSource m_info;
};
