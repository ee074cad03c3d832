// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/scenariorunner.h"

#include <QObject>
#include <QString>
#include <optional>

class AnnotationModel;
class ClusterController;
class DashboardPoller;
class LoadTesterController;
class MainWindow;
class PrometheusClient;
class SampleStore;
class ScenarioDocks;
class SessionRecorder;
struct CeilingSearchPlan;

// The scenario of a run, as one feature: its runner (a --scenario file, or the Scenario dock's
// ceiling search), what the recording keeps of it (its title, start and verdict), the lines it
// says on stderr, the screenshots and capacity curves it leaves in the output folder, and the
// dashboard's series its checks read, and its docks (ScenarioDocks). LiveRun composes it; the
// window only hosts the docks.
class ScenarioModule : public QObject
{
    Q_OBJECT
public:
    struct Context
    {
        LoadTesterController *controller = nullptr;
        AnnotationModel *annotations = nullptr;
        PrometheusClient *client = nullptr;
        SessionRecorder *recorder = nullptr;
        SampleStore *store = nullptr;
        DashboardPoller *poller = nullptr;
        ClusterController *cluster = nullptr; // null without --kubernetes
        MainWindow *window = nullptr;
        QString outputDir; // where its screenshots and capacity curves go
    };

    explicit ScenarioModule(const Context &context, QObject *parent = nullptr);

    // Loads the scenario file and starts it, its checks' series looked up in the dashboard
    // first: a broken one is not started half-way. A value: exit with it (2, after the reasons
    // on stderr).
    std::optional<int> start(const QString &path);

    ScenarioRunner &runner() { return m_runner; }
    const ScenarioRunner &runner() const { return m_runner; }
    // Whether a scenario (or a ceiling search) was started in this run.
    bool ran() const { return !m_runner.scenario().steps.empty(); }

private:
    void startCeilingSearch(const CeilingSearchPlan &plan);
    void recordWhatRuns();
    void sayWhatHappens();
    void keepPictures();

    Context m_context;
    ScenarioRunner m_runner;
    ScenarioDocks *m_docks; // a child of the window, which goes first
    qint64 m_startedMs = 0; // the running scenario's start, as recorded
};
