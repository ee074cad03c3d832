// SPDX-License-Identifier: GPL-3.0-or-later
#include "modules/scenariodocks.h"

#include "capacity/capacitycurveview.h"
#include "panels/dashboardview.h"
#include "scenario/scenariorunner.h"
#include "steering/controlpanel.h"
#include "steering/scenariopanel.h"
#include "theme/uitheme.h"
#include "window/mainwindow.h"

#include <QDockWidget>

ScenarioDocks::ScenarioDocks(ScenarioRunner *runner, MainWindow *window)
    : QObject(window), m_runner(runner), m_window(window)
{}

void ScenarioDocks::show()
{
    if (m_scenarioDock) {
        // The same runner again (a second search from the dock): its panel follows it.
        m_scenarioDock->show();
        m_scenarioDock->raise();
        return;
    }
    ScenarioRunner *runner = m_runner;
    QDockWidget *dock = m_window->hostDock(tr("Scenario"), QStringLiteral("scenarioDock"), new ScenarioPanel(runner));
    m_scenarioDock = dock;
    // A ceiling search draws its capacity curve, stair by stair, in a dock beside the scenario.
    const auto showCurve = [this, runner, dock](const CeilingResult &result) {
        if (!m_capacityCurve) {
            m_capacityCurve = new CapacityCurveView;
            m_window->hostDockBelow(dock, tr("Capacity curve"), QStringLiteral("capacityCurveDock"), m_capacityCurve);
        }
        CapacityCurve curve;
        curve.result = result;
        curve.rateUnit = runner->ceilingSearch().rateUnit();
        m_capacityCurve->setCurve(curve);
    };
    connect(runner, &ScenarioRunner::ceilingStairFinished, this,
            [runner, showCurve] { showCurve(runner->ceilingSearch().result()); });
    connect(runner, &ScenarioRunner::ceilingFound, this,
            [showCurve](const CeilingResult &result) { showCurve(result); });
    // The checks on the panels that show their query, and the guards in the Load tester dock,
    // both kept current as the checks are judged.
    const auto refresh = [this, runner] {
        const CheckRunner &checks = runner->checks();
        std::vector<DashboardView::ScenarioCheck> lines;
        for (const CheckTracker &tracker : checks.expectations())
            lines.push_back(
                {tracker.check(), {}, tracker.failed() && tracker.check().severity == Check::Severity::Critical});
        QStringList guards;
        for (int i = 0; i < int(checks.guards().size()); ++i) {
            const CheckTracker &tracker = checks.guards()[std::size_t(i)];
            const ScenarioGuard &guard = runner->scenario().guards[std::size_t(i)];
            lines.push_back({tracker.check(), tr("guard"), tracker.failed()});
            const CheckRunner::GuardState state = checks.guardState(i);
            const QString words = state == CheckRunner::GuardState::Armed ? tr("armed")
                                  : state == CheckRunner::GuardState::Acting
                                      ? tr("tripped, acting")
                                      : tr("tripped: %1").arg(checks.guardMessage(i));
            const QColor colour = state == CheckRunner::GuardState::Armed ? UiTheme::instance()->colors().ok
                                  : state == CheckRunner::GuardState::CouldNotAct
                                      ? UiTheme::instance()->colors().error
                                      : UiTheme::instance()->colors().warning;
            guards << QStringLiteral("<b>%1</b> %2 → %3 · <span style='color:%4'>%5</span>")
                          .arg(tracker.check().name.toHtmlEscaped(),
                               tracker.check().condition.describe(tracker.check().unit).toHtmlEscaped(),
                               guard.describeAction().toHtmlEscaped(), UiTheme::css(colour), words.toHtmlEscaped());
        }
        m_window->dashboardView()->setScenarioChecks(lines);
        if (ControlPanel *controlPanel = m_window->controlPanel())
            controlPanel->setGuards(guards.isEmpty() ? QString()
                                                     : QStringLiteral("<b>%1</b><br>").arg(tr("Guards")) +
                                                           guards.join(QStringLiteral("<br>")));
    };
    refresh();
    // Nothing else steers the load while a scenario does.
    const auto offerSearch = [this, runner] {
        if (ControlPanel *controlPanel = m_window->controlPanel())
            controlPanel->setCeilingSearchAllowed(!runner->isRunning());
    };
    offerSearch();
    connect(runner, &ScenarioRunner::started, this, offerSearch);
    connect(runner, &ScenarioRunner::started, this, refresh);
    connect(runner, &ScenarioRunner::finished, this, offerSearch);
    connect(&runner->checks(), &CheckRunner::guardTripped, this, refresh);
    connect(&runner->checks(), &CheckRunner::guardFinished, this, refresh);
    connect(runner, &ScenarioRunner::finished, this, refresh);
    // Each round of answers may fail a check; the line turns red then, not on every answer.
    connect(&runner->checks(), &CheckRunner::evaluated, this, [this, runner, refresh, failedBefore = 0]() mutable {
        int failed = 0;
        for (const CheckTracker &tracker : runner->checks().expectations())
            failed += tracker.failed() ? 1 : 0;
        if (failed != failedBefore) {
            failedBefore = failed;
            refresh();
        }
    });
}
