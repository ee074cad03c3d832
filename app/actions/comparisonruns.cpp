// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/comparisonruns.h"

#include "actions/sessioncomparison.h"
#include "actions/sessionopening.h"
#include "annotations/annotationmodel.h"
#include "fetching/derivedseriesupdater.h"
#include "prometheus/prometheusclient.h"
#include "session/sessionreplay.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "timeline/timewindow.h"

#include <QFileInfo>

// A compared run's own objects. A recording owns its store, marks and a poller that never
// asks anything (it only binds the stored series to the panels); a variable's run is a
// poller of its own over the app's client and store.
struct ComparisonRuns::Run
{
    QString title;
    QString path; // a recording's file
    std::optional<TimeRange> recorded;
    std::unique_ptr<SampleStore> store;
    std::unique_ptr<AnnotationModel> annotations;
    std::unique_ptr<TimeWindow> window;
    std::unique_ptr<PrometheusClient> offline; // never asked: a recording has all it shows
    std::unique_ptr<DerivedSeriesUpdater> derived;
    std::unique_ptr<DashboardPoller> poller;
};

ComparisonRuns::ComparisonRuns(PrometheusClient *client, SampleStore *store, TimeWindow *window, QObject *parent)
    : QObject(parent), m_client(client), m_store(store), m_window(window)
{}

// The pollers first: they point into their runs' stores, windows and clients.
ComparisonRuns::~ComparisonRuns()
{
    for (const std::unique_ptr<Run> &run : m_runs) {
        run->poller.reset();
        run->derived.reset();
    }
}

Result<bool> ComparisonRuns::addRecording(const QString &path, const DashboardDefinition &first)
{
    const QString name = QFileInfo(path).fileName();
    const QString canonical = QFileInfo(path).canonicalFilePath();
    QStringList compared{QFileInfo(m_shownRecording).canonicalFilePath()};
    for (const std::unique_ptr<Run> &run : m_runs)
        compared << QFileInfo(run->path).canonicalFilePath();
    if (!canonical.isEmpty() && compared.contains(canonical))
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("%1 is compared already: give each recording once").arg(name));
    SessionOpening::Options headless;
    headless.showProgress = false; // an export: nobody to show a dialog to
    Result<SessionContents> read = SessionOpening::read(path, headless);
    if (!read)
        return Error::make(read.error().kind, QStringLiteral("%1: %2").arg(name, read.error().message));
    auto run = std::make_unique<Run>();
    run->title = QFileInfo(path).completeBaseName();
    run->path = path;
    run->store = std::make_unique<SampleStore>();
    run->annotations = std::make_unique<AnnotationModel>();
    const SessionReplay::Loaded replay = SessionReplay::load(read.value(), run->store.get(), run->annotations.get());
    if (const QString difference = SessionComparison::queryDifference(first, replay.dashboard); !difference.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("%1 was recorded with another dashboard (%2); compare runs of the same "
                                          "dashboard")
                               .arg(name, difference));
    run->recorded = SessionComparison::runOf(read.value());
    run->window = std::make_unique<TimeWindow>();
    const qint64 end = replay.nowMs;
    run->window->setClock([end] { return end; });
    run->offline = std::make_unique<PrometheusClient>(PrometheusConnection{});
    run->derived = std::make_unique<DerivedSeriesUpdater>(run->store.get());
    run->derived->setDashboard(replay.dashboard);
    run->derived->recomputeAll();
    run->poller = std::make_unique<DashboardPoller>(run->offline.get(), run->store.get(), run->window.get());
    run->poller->setDashboard(replay.dashboard);
    run->poller->bindStoredSeries(replay.seriesOrder);
    m_runs.push_back(std::move(run));
    return true;
}

Result<bool> ComparisonRuns::addVariableValues(const DashboardDefinition &dashboard, const QString &name,
                                               const QStringList &values)
{
    QStringList declared;
    for (const VariableDefinition &variable : dashboard.variableDefinitions)
        declared << variable.name;
    if (!declared.contains(name))
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("the dashboard declares no variable \"%1\" (it has %2)")
                .arg(name, declared.isEmpty() ? QStringLiteral("none") : declared.join(QStringLiteral(", "))));
    QStringList seen;
    for (const QString &value : values) {
        if (seen.contains(value))
            return Error::make(Error::Kind::Invalid, QStringLiteral("\"%1\" is given twice").arg(value));
        seen << value;
    }
    for (const QString &value : values) {
        auto run = std::make_unique<Run>();
        run->title = value;
        run->poller = std::make_unique<DashboardPoller>(m_client, m_store, m_window);
        run->poller->setDashboard(dashboard);
        run->poller->setVariable(name, value);
        m_runs.push_back(std::move(run));
    }
    return true;
}

void ComparisonRuns::start()
{
    for (const std::unique_ptr<Run> &run : m_runs) {
        if (!run->recorded)
            run->poller->start();
    }
}

void ComparisonRuns::stop()
{
    for (const std::unique_ptr<Run> &run : m_runs) {
        if (!run->recorded)
            run->poller->stop();
    }
}

DashboardPoller::Stats ComparisonRuns::stats() const
{
    DashboardPoller::Stats total;
    for (const std::unique_ptr<Run> &run : m_runs) {
        if (run->recorded)
            continue;
        const DashboardPoller::Stats stats = run->poller->stats();
        total.succeeded += stats.succeeded;
        total.failed += stats.failed;
        total.sourceDown += stats.sourceDown;
    }
    return total;
}

std::vector<ComparedRun> ComparisonRuns::runs(const TimeRange &range) const
{
    std::vector<ComparedRun> runs;
    for (const std::unique_ptr<Run> &run : m_runs) {
        ComparedRun compared;
        compared.title = run->title;
        compared.store = run->store ? run->store.get() : m_store;
        compared.snapshot = run->poller->snapshot();
        if (!run->recorded) {
            // A variable's run draws what its queries answered for its value. A formula's result,
            // the load tester's and the cluster's values are one series for every value (their
            // keys carry none): shown in each run they would say the same of all.
            for (std::vector<SeriesBinding> &panel : compared.snapshot.series)
                std::erase_if(panel, [](const SeriesBinding &b) { return !SeriesKey::parse(b.key).has_value(); });
        }
        if (run->annotations)
            compared.annotations = run->annotations->annotations();
        compared.range = run->recorded.value_or(range);
        compared.zeroMs = compared.range.startMs;
        compared.steady = compared.range;
        runs.push_back(std::move(compared));
    }
    return runs;
}

QStringList ComparisonRuns::recordingNames() const
{
    QStringList names;
    for (const std::unique_ptr<Run> &run : m_runs) {
        if (!run->path.isEmpty())
            names << QFileInfo(run->path).fileName();
    }
    return names;
}
