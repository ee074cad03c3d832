// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class CapacityCurveView;
class MainWindow;
class QDockWidget;
class ScenarioRunner;

// What the window shows of a scenario, in docks it hosts: the steps, countdown and stop (the
// Scenario dock), a ceiling search's capacity curve filled in stair by stair, the checks'
// lines on the panels that show their query, and the guards in the Load tester dock, all
// kept current as the checks are judged.
class ScenarioDocks : public QObject
{
    Q_OBJECT
public:
    ScenarioDocks(ScenarioRunner *runner, MainWindow *window);

    // Shows the docks (made the first time); again for a second search: they follow the runner.
    void show();

private:
    ScenarioRunner *m_runner;
    MainWindow *m_window;
    QDockWidget *m_scenarioDock = nullptr;
    CapacityCurveView *m_capacityCurve = nullptr; // once a ceiling search has a stair
};
