// SPDX-License-Identifier: GPL-3.0-or-later
#include "modules/scenariomodule.h"

#include "capacity/capacitycurvepainter.h"
#include "cli/console.h"
#include "fetching/dashboardpoller.h"
#include "fetching/derivedseriesupdater.h"
#include "headless/screenshot.h"
#include "modules/scenariodocks.h"
#include "session/sessionrecorder.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "window/mainwindow.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <cstdio>

ScenarioModule::ScenarioModule(const Context &context, QObject *parent)
    : QObject(parent), m_context(context), m_runner(context.controller, context.annotations, context.client),
      m_docks(new ScenarioDocks(&m_runner, context.window))
{
    m_runner.setCluster(m_context.cluster);
    // A check on a dashboard series (a formula's too) reads what the dashboard drew last; an
    // answer older than three polls is a gap, not a value.
    m_runner.checks().setSeriesValues([this](const QString &seriesId) {
        std::vector<double> values;
        const DashboardPoller &poller = *m_context.poller;
        const QString reference = DerivedSeriesUpdater::storeKeysById(poller.dashboard()).value(seriesId);
        if (reference.isEmpty())
            return values;
        const qint64 freshSince = QDateTime::currentMSecsSinceEpoch() - 3 * qint64(poller.refreshMs());
        for (const QString &key : SeriesKey::resolveAll(*m_context.store, reference)) {
            const SampleStore::Series *series = m_context.store->series(key);
            if (series && !series->timestampsMs().empty() && series->timestampsMs().back() >= freshSince)
                values.push_back(series->values().back());
        }
        return values;
    });
    recordWhatRuns();
    sayWhatHappens();
    keepPictures();
    connect(m_context.window, &MainWindow::ceilingSearchRequested, this, &ScenarioModule::startCeilingSearch);
}

std::optional<int> ScenarioModule::start(const QString &path)
{
    const ScenarioLoader::LoadResult scenario = ScenarioLoader::load(path);
    if (!scenario.usable) {
        for (const DashboardIssue &issue : scenario.issues)
            Console::say(QStringLiteral("scenario %1: %2").arg(path, issue.toString()));
        return 2;
    }
    // A check's "series" names an id of the dashboard the run shows: known only now.
    const QHash<QString, QString> ids = DerivedSeriesUpdater::storeKeysById(m_context.poller->dashboard());
    bool unknownSeries = false;
    const auto checkSeries = [&](const Check &check, const QString &where) {
        if (check.series.isEmpty() || ids.contains(check.series))
            return;
        QStringList known = ids.keys();
        known.sort();
        Console::say(QStringLiteral("scenario %1: %2.series: the dashboard has no series with the id \"%3\" (ids: %4)")
                         .arg(path, where, check.series,
                              known.isEmpty() ? QStringLiteral("none") : known.join(QStringLiteral(", "))));
        unknownSeries = true;
    };
    for (std::size_t i = 0; i < scenario.scenario.expectations.size(); ++i)
        checkSeries(scenario.scenario.expectations[i], QStringLiteral("expect[%1]").arg(i));
    for (std::size_t i = 0; i < scenario.scenario.guards.size(); ++i)
        checkSeries(scenario.scenario.guards[i].check, QStringLiteral("guards[%1]").arg(i));
    if (unknownSeries)
        return 2;
    m_docks->show();
    m_runner.start(scenario.scenario);
    return std::nullopt;
}

void ScenarioModule::startCeilingSearch(const CeilingSearchPlan &plan)
{
    if (m_runner.isRunning())
        return; // the dock offers no search while a scenario steers
    Scenario search;
    search.title = tr("Find the ceiling");
    ScenarioStep step;
    step.kind = ScenarioStep::Kind::FindCeiling;
    step.ceiling = plan;
    step.ceiling.picture.clear(); // on screen the curve is in its dock, saved from its menu
    search.steps.push_back(step);
    m_docks->show();
    m_runner.start(search);
}

void ScenarioModule::recordWhatRuns()
{
    // A scenario's title and verdict (recorded only when the run is): a post drafted from the
    // recording says what ran and how it went.
    SessionRecorder *recorder = m_context.recorder;
    connect(&m_runner, &ScenarioRunner::started, recorder, [this, recorder] {
        m_startedMs = QDateTime::currentMSecsSinceEpoch();
        recorder->recordScenario(m_runner.scenario().title, m_startedMs, 0, {});
    });
    connect(&m_runner, &ScenarioRunner::finished, recorder, [this, recorder] {
        recorder->recordScenario(m_runner.scenario().title, m_startedMs, QDateTime::currentMSecsSinceEpoch(),
                                 m_runner.verdict().toAnnotationText());
    });
}

void ScenarioModule::sayWhatHappens()
{
    connect(&m_runner, &ScenarioRunner::stepFinished, this, [this](int index, bool ok, const QString &message) {
        const ScenarioStep &step = m_runner.scenario().steps[std::size_t(index)];
        Console::say(QStringLiteral("scenario step %1 (%2): %3%4")
                         .arg(index + 1)
                         .arg(step.describe(), ok ? QStringLiteral("ok") : QStringLiteral("FAILED"),
                              message.isEmpty() ? QString() : QStringLiteral(": ") + message));
    });
    connect(&m_runner, &ScenarioRunner::ceilingStairFinished, this, [this](const StairResult &stair) {
        Console::say(QStringLiteral("ceiling search: %1").arg(stair.describe(m_runner.ceilingSearch().rateUnit())));
    });
    connect(&m_runner.checks(), &CheckRunner::guardTripped, this,
            [](int, const QString &reason) { Console::say(QStringLiteral("guard tripped: %1").arg(reason)); });
    connect(&m_runner.checks(), &CheckRunner::guardFinished, this,
            [this](int guard, bool acted, const QString &message) {
                const ScenarioGuard &definition = m_runner.scenario().guards[std::size_t(guard)];
                Console::say(QStringLiteral("guard %1 %2%3%4")
                                 .arg(definition.check.name,
                                      acted ? QStringLiteral("acted: ") : QStringLiteral("COULD NOT ACT: "),
                                      definition.describeAction(),
                                      message.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(message)));
            });
    // Connected before anyone else hears of the end: the verdict is on stderr before a
    // headless run exits with it.
    connect(&m_runner, &ScenarioRunner::finished, this, [this](bool ok, const QString &message) {
        for (const ScenarioVerdict::CheckLine &line : m_runner.verdict().checks) {
            Console::say(QStringLiteral("%1 %2: %3")
                             .arg(line.guard ? QStringLiteral("guard") : QStringLiteral("expectation"), line.name,
                                  line.outcome));
            for (const QString &phase : line.phaseOutcomes)
                Console::say(QStringLiteral("    %1").arg(phase));
        }
        Console::say(
            QStringLiteral("scenario %1: %2").arg(ok ? QStringLiteral("finished") : QStringLiteral("FAILED"), message));
    });
}

void ScenarioModule::keepPictures()
{
    const QDir outputDir(m_context.outputDir);
    connect(&m_runner, &ScenarioRunner::screenshotRequested, m_context.window, [this, outputDir](const QString &file) {
        const Result<QString> saved = saveScreenshot(m_context.window, outputDir.filePath(file));
        if (saved)
            std::printf("screenshot: %s\n", qPrintable(saved.value()));
        std::fflush(stdout);
        m_runner.screenshotTaken(saved.ok(), saved ? QString() : saved.error().message);
    });
    // The capacity curve goes where the scenario's screenshots go, for the write-up.
    connect(&m_runner, &ScenarioRunner::ceilingFound, this,
            [this, outputDir](const CeilingResult &result, const CeilingSearchPlan &plan) {
                if (plan.picture.isEmpty())
                    return;
                CapacityCurve curve;
                curve.result = result;
                curve.rateUnit = m_runner.ceilingSearch().rateUnit();
                const QString path = outputDir.filePath(plan.picture);
                if (curve.render(QSize(1200, 720), 2.0).save(path))
                    std::printf("capacity curve: %s\n", qPrintable(QFileInfo(path).absoluteFilePath()));
                else
                    Console::say(QStringLiteral("capacity curve: cannot write %1").arg(path));
                std::fflush(stdout);
            });
}
