// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/dashboardview.h"

#include "annotating/annotationeditor.h"
#include "chart/timelinechart.h"
#include "dashboard/formuladescription.h"
#include "dashboard/panelchecks.h"
#include "fetching/dashboardpoller.h"
#include "panels/panelwidget.h"
#include "store/serieskey.h"
#include "timeline/timecursor.h"
#include "timeline/timewindow.h"

#include <QGridLayout>
#include <QLabel>
#include <QPointer>
#include <QResizeEvent>
#include <QScrollArea>
#include <QTimer>
#include <algorithm>

DashboardView::DashboardView(DashboardPoller *poller, SampleStore *store, TimeWindow *window, QWidget *parent)
    : QWidget(parent), m_poller(poller), m_store(store), m_window(window), m_grid(new QGridLayout(this)),
      m_cursor(new TimeCursor(this))
{
    m_grid->setContentsMargins(8, 8, 8, 8);
    m_grid->setSpacing(8);
    // The grid does not force the view's width: the view chooses its columns for the width the
    // scroll area gives it (minimumSizeHint and resizeEvent).
    m_grid->setSizeConstraint(QLayout::SetNoConstraint);
    connect(m_poller, &DashboardPoller::seriesAdded, this, [this](const SeriesBinding &binding) {
        m_shown.add(binding);
        if (binding.panel >= 0 && binding.panel < int(m_panels.size()))
            m_panels[std::size_t(binding.panel)]->chart()->addSeries(binding.key, binding.legend, binding.query);
    });
    connect(m_poller, &DashboardPoller::panelStatusChanged, this, [this](int panel, const PanelStatus &status) {
        m_shown.setStatus(panel, status);
        if (panel >= 0 && panel < int(m_panels.size()))
            m_panels[std::size_t(panel)]->setStatus(status);
    });
    connect(m_poller, &DashboardPoller::variableChanged, this,
            [this](const QString &name, const QString &value) { m_shown.setVariable(name, value); });
    // The "newest sample … ago" text must keep counting when nothing arrives: that is the point.
    m_freshnessTick.setInterval(1000);
    connect(&m_freshnessTick, &QTimer::timeout, this, [this] {
        for (PanelWidget *panel : m_panels)
            panel->refreshFreshness();
    });
    m_freshnessTick.start();
    // Leaving live, or moving a view out of it, is said in the headers at once.
    const auto refreshHeaders = [this] {
        for (PanelWidget *panel : m_panels)
            panel->refreshFreshness();
    };
    connect(m_window, &TimeWindow::liveChanged, this, refreshHeaders);
    connect(m_window, &TimeWindow::rangeChanged, this, [this, refreshHeaders] {
        if (!m_window->isLive())
            refreshHeaders();
    });
}

void DashboardView::setAnnotationModel(AnnotationModel *annotations)
{
    m_annotations = annotations;
    if (m_editor && m_editor->model() != annotations)
        m_editor = nullptr; // another model: the charts draw it but cannot edit it
    for (PanelWidget *panel : m_panels)
        panel->chart()->setAnnotationModel(annotations);
    applyChecks();
}

void DashboardView::setAnnotationEditor(AnnotationEditor *editor)
{
    m_editor = editor;
    if (editor)
        m_annotations = editor->model();
    for (PanelWidget *panel : m_panels)
        panel->chart()->setAnnotationEditor(editor);
    applyChecks();
}

void DashboardView::setQueryShown(const QString &query, bool shown)
{
    m_queryToggles.insert(query, shown);
    m_scope.setQueryShown(query, shown);
    for (int i = 0; i < int(m_panels.size()); ++i)
        m_panels[std::size_t(i)]->chart()->setAnnotationScope(m_scope, i);
}

void DashboardView::bringIntoView(int panel)
{
    if (panel < 0 || panel >= int(m_panels.size()))
        return;
    QScrollArea *page = nullptr;
    for (QWidget *ancestor = parentWidget(); ancestor && !page; ancestor = ancestor->parentWidget())
        page = qobject_cast<QScrollArea *>(ancestor);
    if (!page)
        return;
    // The page resizes the grid on its next turn of the event loop (a posted layout request):
    // only then has the new panel its place.
    QPointer<PanelWidget> target = m_panels[std::size_t(panel)];
    QTimer::singleShot(0, page, [page, target] {
        if (target)
            page->ensureWidgetVisible(target, 0, 0);
    });
}

void DashboardView::rebuild()
{
    rebuild(m_poller->snapshot());
}

void DashboardView::rebuild(const DashboardSnapshot &now)
{
    for (PanelWidget *panel : m_panels)
        delete panel;
    m_panels.clear();
    m_shown = now;
    const DashboardDefinition &dashboard = m_shown.dashboard;
    m_scope = AnnotationScope(dashboard);
    for (auto it = m_queryToggles.cbegin(); it != m_queryToggles.cend(); ++it)
        m_scope.setQueryShown(it.key(), it.value());
    for (int i = 0; i < int(dashboard.panels.size()); ++i) {
        auto *panel = new PanelWidget(dashboard.panels[std::size_t(i)], m_store, m_window, this);
        m_panels.push_back(panel);
        QHash<QString, QString> formulas;
        const auto &series = dashboard.panels[std::size_t(i)].series;
        for (int q = 0; q < int(series.size()); ++q) {
            if (!series[std::size_t(q)].derive.isEmpty())
                formulas.insert(SeriesKey::derived(i, q),
                                FormulaDescription::describe(series[std::size_t(q)], dashboard));
        }
        panel->setFormulaDescriptions(formulas);
        connect(panel, &PanelWidget::phaseStatisticsRequested, this, [this, i] { emit phaseStatisticsRequested(i); });
        // Queued: the edit rebuilds the grid, and so deletes the panel whose menu asked for it.
        connect(
            panel, &PanelWidget::editRequested, this, [this, i](PanelEdit edit) { onPanelEdit(i, edit); },
            Qt::QueuedConnection);
        TimelineChart *chart = panel->chart();
        if (m_editor)
            chart->setAnnotationEditor(m_editor);
        else
            chart->setAnnotationModel(m_annotations);
        chart->setAnnotationScope(m_scope, i);
        panel->setTimeCursor(m_cursor);
        connect(chart, &TimelineChart::plotWidthChanged, this,
                [this, i](int pixels) { m_poller->setPanelWidth(i, pixels); });
        connect(chart, &TimelineChart::rangeSelected, m_window, &TimeWindow::showRange);
        connect(chart, &TimelineChart::resetRequested, this, [this] { m_window->setLive(true); });
        connect(chart, &TimelineChart::scrollRequested, m_window, &TimeWindow::scrollTo);
        connect(chart, &TimelineChart::scrollFinished, m_window, &TimeWindow::finishScroll);
        panel->setStatus(m_shown.statusOf(i));
        // Series bound before this grid existed (load tester values, or a rebuild after the
        // first poll) are drawn from the start; later ones arrive through seriesAdded.
        for (const SeriesBinding &binding : m_shown.seriesOf(i))
            chart->addSeries(binding.key, binding.legend, binding.query);
    }
    placePanels(columnsFor(width()));
    applyChecks();
}

void DashboardView::setScenarioChecks(const std::vector<ScenarioCheck> &checks)
{
    m_scenarioChecks = checks;
    applyChecks();
}

void DashboardView::applyChecks()
{
    const DashboardDefinition &dashboard = m_shown.dashboard;
    for (int i = 0; i < int(m_panels.size()) && i < int(dashboard.panels.size()); ++i) {
        std::vector<PanelCheck> checks = PanelChecks::of(dashboard, i, dashboard.checks);
        for (const ScenarioCheck &scenarioCheck : m_scenarioChecks) {
            for (PanelCheck &check : PanelChecks::of(dashboard, i, {scenarioCheck.check}, scenarioCheck.label)) {
                check.failedLive = scenarioCheck.failed;
                checks.push_back(std::move(check));
            }
        }
        m_panels[std::size_t(i)]->setChecks(std::move(checks), m_annotations);
    }
}

int DashboardView::columnsFor(int width) const
{
    const int wanted = qMax(1, m_shown.dashboard.columns);
    const QMargins margins = m_grid->contentsMargins();
    const int room = width - margins.left() - margins.right() + m_grid->spacing();
    return std::clamp(room / (kMinPanelWidth + m_grid->spacing()), 1, wanted);
}

void DashboardView::placePanels(int columns)
{
    for (PanelWidget *panel : m_panels)
        m_grid->removeWidget(panel);
    for (int c = 0; c < m_grid->columnCount(); ++c)
        m_grid->setColumnStretch(c, 0);
    const int count = int(m_panels.size());
    for (int i = 0; i < count; ++i) {
        m_grid->addWidget(m_panels[std::size_t(i)], i / columns, i % columns);
        PanelWidget::Moves moves;
        moves.left = i % columns > 0;
        moves.right = i % columns < columns - 1 && i + 1 < count;
        moves.up = i >= columns;
        moves.down = i + columns < count;
        m_panels[std::size_t(i)]->setEditable(m_editable, moves);
    }
    for (int c = 0; c < columns; ++c)
        m_grid->setColumnStretch(c, 1);
    // Rows share the height alike, whatever their legends hold when the grid is built (a
    // grid rebuilt mid-run has full legends; one built at start has none yet).
    for (int r = 0; r < m_grid->rowCount(); ++r)
        m_grid->setRowStretch(r, r < (count + columns - 1) / columns ? 1 : 0);
    m_columns = columns;
    updateGeometry();
}

void DashboardView::setEditable(bool editable)
{
    m_editable = editable;
    placePanels(columnsFor(width()));
}

void DashboardView::onPanelEdit(int panel, PanelEdit edit)
{
    switch (edit) {
    case PanelEdit::MoveLeft:
        emit panelsSwapRequested(panel, panel - 1);
        return;
    case PanelEdit::MoveRight:
        emit panelsSwapRequested(panel, panel + 1);
        return;
    case PanelEdit::MoveUp:
        emit panelsSwapRequested(panel, panel - m_columns);
        return;
    case PanelEdit::MoveDown:
        emit panelsSwapRequested(panel, panel + m_columns);
        return;
    case PanelEdit::Edit:
    case PanelEdit::Rename:
    case PanelEdit::AddDerived:
    case PanelEdit::Remove:
        emit panelEditRequested(panel, edit);
        return;
    }
}

QSize DashboardView::minimumSizeHint() const
{
    // One panel wide; as high as the panels in the columns shown now.
    const QMargins margins = m_grid->contentsMargins();
    int height = margins.top() + margins.bottom();
    const int rows = (int(m_panels.size()) + m_columns - 1) / qMax(1, m_columns);
    for (int row = 0; row < rows; ++row) {
        int rowHeight = 0;
        for (int c = 0; c < m_columns; ++c) {
            const std::size_t i = std::size_t(row) * std::size_t(m_columns) + std::size_t(c);
            if (i < m_panels.size())
                rowHeight = qMax(rowHeight, m_panels[i]->minimumSizeHint().height());
        }
        height += rowHeight + (row > 0 ? m_grid->spacing() : 0);
    }
    return {kMinPanelWidth + margins.left() + margins.right(), height};
}

void DashboardView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const int columns = columnsFor(width());
    if (columns != m_columns)
        placePanels(columns);
}
