// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/exploreaction.h"

#include "actions/dashboardediting.h"
#include "annotations/annotationmodel.h"
#include "explore/querynaming.h"
#include "exploring/exploredock.h"
#include "exploring/querybar.h"
#include "panels/dashboardview.h"
#include "prometheus/prometheusclient.h"
#include "settings/appsettings.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QUrl>

namespace {

QString sourceKey(const PrometheusClient *client)
{
    return client->connection().baseUrl.toString(QUrl::RemoveUserInfo);
}

} // namespace

ExploreAction::ExploreAction(QMainWindow *window, PrometheusClient *client, TimeWindow *timeWindow,
                             DashboardView *dashboard, AnnotationModel *annotations, DashboardEditing *editing,
                             bool offline)
    : QObject(window), m_window(window), m_client(client), m_dashboardView(dashboard), m_editing(editing),
      m_offline(offline), m_previewPoller(client, &m_previewStore, timeWindow), m_catalog(client),
      m_preview(new DashboardView(&m_previewPoller, &m_previewStore, timeWindow)),
      m_dock(new ExploreDock(&m_catalog, m_preview, window))
{
    m_preview->shareTimeCursor(dashboard->timeCursor()); // one crosshair through the preview and the dashboard
    m_preview->setAnnotationModel(annotations);
    m_preview->setMinimumHeight(220);
    // Until a query runs there is nothing to preview: the dock is the query bar alone, not a
    // third of the window of empty space.
    m_preview->hide();
    // Under the dashboard only, the side docks (Annotations, Load tester) keep their height:
    // spanning the whole width, a preview squeezed them until the window itself grew.
    window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    window->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();

    QMenu *view = window->menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu"), Qt::FindDirectChildrenOnly);
    QAction *explore = new QAction(tr("E&xplore…"), this);
    explore->setObjectName(QStringLiteral("exploreAction"));
    explore->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    explore->setToolTip(tr("Type a PromQL query with completion, see it drawn, add it to the dashboard"));
    window->addAction(explore); // the shortcut works with the menu closed
    if (view)
        view->addAction(explore);
    connect(explore, &QAction::triggered, m_dock, &ExploreDock::focusQuery);

    connect(m_dock, &ExploreDock::runRequested, this, &ExploreAction::run);
    connect(m_dock, &ExploreDock::addRequested, this, [this](const QString &query, int panel) {
        m_dashboardView->bringIntoView(m_editing->addQuery(query, panel));
    });
    connect(&m_previewPoller, &DashboardPoller::panelStatusChanged, this, [this](int, const PanelStatus &status) {
        m_dock->showError(status.state == PanelStatus::State::QueryError ||
                                  status.state == PanelStatus::State::SourceDown
                              ? status.message
                              : QString());
    });
    connect(&m_catalog, &MetadataCatalog::failed, this, [this](const QString &message) { m_dock->showError(message); });
    m_dock->setHistory(AppSettings::queryHistory(sourceKey(m_client)));
}

ExploreAction::~ExploreAction()
{
    m_previewPoller.stop();
    // The dock is the window's child, its preview draws from this poller and store: it goes first.
    delete m_dock;
}

void ExploreAction::setDashboard(const DashboardDefinition &dashboard)
{
    m_dashboard = dashboard;
    QStringList titles;
    for (const PanelDefinition &panel : dashboard.panels)
        titles << panel.title;
    m_dock->setPanels(titles);
    QStringList variables;
    for (const VariableDefinition &variable : dashboard.variableDefinitions)
        variables << variable.name;
    m_catalog.setVariables(variables);
}

void ExploreAction::run(const QString &query)
{
    if (m_offline) {
        m_dock->showError(tr("A recording is shown offline: there is no Prometheus to ask. Open the live dashboard "
                             "to explore."));
        return;
    }
    m_dock->showError({});
    AppSettings::addQuery(sourceKey(m_client), query);
    m_dock->setHistory(AppSettings::queryHistory(sourceKey(m_client)));
    // One panel with the query, asked with the dashboard's variables and refresh.
    DashboardDefinition preview;
    preview.title = tr("Explore");
    preview.columns = 1;
    preview.variableDefinitions = m_dashboard.variableDefinitions;
    preview.refreshSeconds = m_dashboard.refreshSeconds;
    PanelDefinition panel;
    panel.title = QueryNaming::title(query); // as "Add to panel" will name it
    panel.unit = QueryNaming::unit(query);
    SeriesDefinition series;
    series.query = query;
    panel.series.push_back(series);
    preview.panels.push_back(panel);
    m_previewStore.clear();
    m_previewPoller.setDashboard(preview);
    m_preview->rebuild(m_previewPoller.snapshot());
    m_previewPoller.start();
    if (m_preview->isHidden()) {
        m_preview->show();
        // Room for the preview: a third of the window, at least what a plot needs.
        m_window->resizeDocks({m_dock}, {m_window->height() / 3}, Qt::Vertical);
    }
}
