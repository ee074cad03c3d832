// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/panelwidget.h"

#include "analysis/checkjudgement.h"
#include "analysis/phasestatistics.h"
#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "chart/chartpaint.h"
#include "chart/legendview.h"
#include "chart/timelinechart.h"
#include "panels/paneltitle.h"
#include "panels/statvalues.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "theme/palette.h"
#include "theme/uitheme.h"
#include "timeline/timecursor.h"
#include "timeline/timewindow.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QVBoxLayout>
#include <algorithm>

PanelWidget::PanelWidget(const PanelDefinition &panel, SampleStore *store, TimeWindow *window, QWidget *parent)
    : QFrame(parent), m_panel(panel), m_window(window), m_chart(new TimelineChart(panel, store, window, this)),
      m_title(new PanelTitle(this)), m_freshness(new QLabel(this)), m_legend(new LegendView(this)), m_store(store)
{
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("panel"));
    m_freshness->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    applyTheme();
    connect(UiTheme::instance(), &UiTheme::changed, this, &PanelWidget::applyTheme);
    m_legend->setObjectName(QStringLiteral("legend"));
    m_legend->setReservedRows(int(panel.series.size())); // a row per query at least, mostly
    QFont legendFont = m_legend->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    m_legend->setFont(legendFont);

    auto *header = new QHBoxLayout;
    header->setContentsMargins(8, 4, 8, 0);
    // A narrow panel ends its title in "…" rather than draw the freshness text over it; the
    // tooltip has the whole title.
    header->addWidget(m_title, 1);
    header->addWidget(m_freshness);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(1, 1, 1, 4);
    layout->setSpacing(0);
    layout->addLayout(header);
    if (m_panel.kind == PanelKind::Stat) {
        // A stat tile: the numbers first, the window's sparkline under them on the shared
        // time axis (crosshair, marks and zoom as in any chart); the names are under the
        // numbers, so the legend row is not needed.
        m_statValues = new StatValues(this);
        layout->addWidget(m_statValues, 3);
        layout->addWidget(m_chart, 2);
        m_legend->hide();
    } else {
        layout->addWidget(m_chart, 1);
    }
    auto *legendRow = new QHBoxLayout;
    legendRow->setContentsMargins(TimelineChart::kLeftGutter, 0, 8, 0);
    legendRow->addWidget(m_legend);
    if (m_panel.kind == PanelKind::Heatmap) {
        // A heatmap's series are its buckets, one per bound: the rows and the colour scale
        // say what a line legend would. One line under it says how many and how much
        // went past the largest bound.
        m_legend->hide();
        m_heatmapSummary = new QLabel(this);
        m_heatmapSummary->setObjectName(QStringLiteral("heatmapSummary"));
        m_heatmapSummary->setFont(legendFont);
        legendRow->addWidget(m_heatmapSummary);
        applyTheme();
    }
    layout->addLayout(legendRow);

    connect(m_chart, &TimelineChart::legendChanged, this, &PanelWidget::updateLegend);
    // As in Grafana: a click on a legend row shows that series alone, and the value axes fit
    // it (a limit of 20 beside an in-flight count that once reached 800); a click on it again
    // shows them all. Ctrl+click hides or shows one.
    connect(m_legend, &LegendView::rowClicked, this, [this](int row, Qt::KeyboardModifiers modifiers) {
        const QList<TimelineChart::LegendEntry> entries = m_chart->legend();
        if (row < 0 || row >= entries.size())
            return;
        const QString clicked = entries[row].key;
        if (modifiers & (Qt::ControlModifier | Qt::ShiftModifier)) {
            m_chart->setSeriesVisible(clicked, !entries[row].visible);
            return;
        }
        const bool alone = std::all_of(entries.begin(), entries.end(), [&](const TimelineChart::LegendEntry &entry) {
            return entry.visible == (entry.key == clicked);
        });
        for (const TimelineChart::LegendEntry &entry : entries)
            m_chart->setSeriesVisible(entry.key, alone || entry.key == clicked);
    });
    // The chart takes only left presses, so a right-click is free for the panel's menu.
    m_chart->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_chart, &QWidget::customContextMenuRequested, this,
            [this](const QPoint &at) { showMenu(m_chart->viewport()->mapToGlobal(at)); }); // viewport coordinates
    m_title->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_title, &QWidget::customContextMenuRequested, this,
            [this](const QPoint &at) { showMenu(m_title->mapToGlobal(at)); });
    updateLegend();
    refreshFreshness();
}

void PanelWidget::setEditable(bool editable, Moves moves)
{
    m_editable = editable;
    m_moves = moves;
}

void PanelWidget::showMenu(const QPoint &at)
{
    auto *menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("panelMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Statistics per phase…"), this, &PanelWidget::phaseStatisticsRequested);
    if (m_editable) {
        const auto add = [this, menu](const QString &text, PanelEdit edit, bool enabled = true) {
            QAction *action = menu->addAction(text, this, [this, edit] { emit editRequested(edit); });
            action->setEnabled(enabled);
            return action;
        };
        menu->addSeparator();
        add(tr("Edit panel…"), PanelEdit::Edit);
        add(tr("Rename…"), PanelEdit::Rename);
        add(tr("Add derived series…"), PanelEdit::AddDerived);
        QMenu *move = menu->addMenu(tr("Move"));
        move->setEnabled(m_moves.left || m_moves.right || m_moves.up || m_moves.down);
        const auto addMove = [this, move](const QString &text, PanelEdit edit, bool enabled) {
            move->addAction(text, this, [this, edit] { emit editRequested(edit); })->setEnabled(enabled);
        };
        addMove(tr("Left"), PanelEdit::MoveLeft, m_moves.left);
        addMove(tr("Right"), PanelEdit::MoveRight, m_moves.right);
        addMove(tr("Up"), PanelEdit::MoveUp, m_moves.up);
        addMove(tr("Down"), PanelEdit::MoveDown, m_moves.down);
        menu->addSeparator();
        add(tr("Remove panel"), PanelEdit::Remove);
    }
    menu->popup(at);
}

void PanelWidget::applyTheme()
{
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    setStyleSheet(QStringLiteral("#panel { background: %1; border: 1px solid %2; border-radius: 4px; }")
                      .arg(UiTheme::css(colors.panel), UiTheme::css(colors.panelBorder)));
    m_title->setTitle(m_panel.title, m_panel.unit, colors.muted);
    m_freshness->setStyleSheet(QStringLiteral("color: %1;").arg(UiTheme::css(colors.muted)));
    if (m_heatmapSummary)
        m_heatmapSummary->setStyleSheet(m_freshness->styleSheet());
    refreshFreshness();
    updateLegend();
}

void PanelWidget::setStatus(const PanelStatus &status)
{
    m_status = status;
    m_chart->setStatus(status);
    refreshFreshness();
    if (m_statValues)
        updateStatValues();
}

void PanelWidget::refreshFreshness()
{
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    QStringList parts;
    if (m_status.stepMs > 0 && m_window->isLive()) // out of live, the range says more (below)
        parts << tr("step %1").arg(Format::duration(m_status.stepMs));
    // Out of live (a zoom, a pan, a pause) the header says what is shown first: "newest 1 s
    // ago" alone read as a live view while the panels stood still.
    if (!m_window->isLive()) {
        parts << QStringLiteral("<span style='color:%1'><b>%2</b></span>")
                     .arg(UiTheme::css(colors.warning),
                          tr("not live: %1")
                              .arg(Format::clockRange(m_window->range().startMs, m_window->range().endMs,
                                                      m_window->now())));
    }
    if (m_status.newestSampleMs)
        parts << tr("newest %1 ago").arg(Format::duration(qMax<qint64>(0, m_window->now() - *m_status.newestSampleMs)));
    switch (m_status.state) {
    case PanelStatus::State::Loading:
        parts << tr("loading");
        break;
    case PanelStatus::State::SourceDown:
        parts << QStringLiteral("<span style='color:%1'><b>%2</b></span>")
                     .arg(UiTheme::css(colors.error), tr("source down"));
        break;
    case PanelStatus::State::QueryError:
        parts << QStringLiteral("<span style='color:%1'><b>%2</b></span>")
                     .arg(UiTheme::css(colors.warning), tr("query error"));
        break;
    case PanelStatus::State::NoData:
        parts << tr("no data");
        break;
    case PanelStatus::State::Ok:
        break;
    }
    if (!m_status.warnings.isEmpty())
        parts << QStringLiteral("<span style='color:%1' title='%2'>⚠ %3</span>")
                     .arg(UiTheme::css(colors.warning), m_status.warnings.join(QLatin1Char('\n')).toHtmlEscaped(),
                          tr("warnings"));
    m_freshness->setText(parts.join(QStringLiteral(" · ")));
    m_freshness->setToolTip(m_status.message);
}

void PanelWidget::setFormulaDescriptions(const QHash<QString, QString> &descriptions)
{
    m_formulas = descriptions;
    updateLegend();
}

QString PanelWidget::legendToolTip() const
{
    return m_legend->toolTip();
}

void PanelWidget::setChecks(std::vector<PanelCheck> checks, const AnnotationModel *annotations)
{
    m_checks = std::move(checks);
    if (annotations != m_annotations) {
        disconnect(m_annotationsChanged);
        m_annotations = annotations;
        // Annotations split the run into the phases a check with "during" is judged in.
        if (annotations)
            m_annotationsChanged =
                connect(annotations, &AnnotationModel::annotationsChanged, this, &PanelWidget::updateLegend);
    }
    updateLegend();
}

QString PanelWidget::heatmapSummary() const
{
    return m_heatmapSummary ? m_heatmapSummary->text() : QString();
}

void PanelWidget::updateLegend()
{
    if (m_heatmapSummary) {
        const HeatmapGrid *grid = m_chart->heatmap();
        const QString summary = grid ? grid->summary(m_panel.unit) : QString();
        if (summary != m_heatmapSummary->text())
            m_heatmapSummary->setText(summary);
        return;
    }
    // Each check is judged over the visible range on every series it applies to: the legend
    // row of a series says how it fared, the level turns red when one of them failed.
    const TimeRange visible = m_window->range();
    std::vector<Phase> phases;
    if (!m_checks.empty())
        phases = Phases::of(visible, m_annotations ? m_annotations->annotations() : std::vector<Annotation>{});
    std::vector<bool> failed(m_checks.size(), false);
    QHash<QString, QStringList> badges; // by store key
    QHash<QString, bool> badFailed;
    QHash<QString, bool> judged;
    for (const TimelineChart::LegendEntry &entry : m_chart->legend()) {
        for (std::size_t c = 0; c < m_checks.size(); ++c) {
            if (!SeriesKey::matches(m_checks[c].reference, entry.key))
                continue;
            const SampleStore::Series *stored = m_store->series(entry.key);
            if (!stored)
                continue;
            const CheckVerdict verdict =
                CheckJudgement::perPhase(m_checks[c].check, {{stored->timestampsMs(), stored->values()}}, phases)
                    .front();
            badges[entry.key] << verdict.badge(m_checks[c].check);
            judged[entry.key] = judged.value(entry.key, false) || (verdict.applies && verdict.samples > 0);
            if (verdict.failed()) {
                failed[c] = true;
                badFailed[entry.key] = true;
            }
        }
    }
    std::vector<TimelineChart::Threshold> thresholds;
    for (const PanelLevel &level : PanelChecks::levels(m_checks, failed))
        thresholds.push_back({level.value, level.label, level.axis, level.failed});
    m_chart->setThresholds(thresholds);

    std::vector<LegendView::Row> rows;
    QStringList formulas;
    for (const TimelineChart::LegendEntry &entry : m_chart->legend()) {
        const QString unit = entry.axis == AxisSide::Right ? m_panel.rightUnit : m_panel.unit;
        LegendView::Row row;
        row.color = entry.color;
        row.name = entry.name;
        row.hidden = !entry.visible;
        // A small dip below zero the axis does not make room for (ValueScale) is said here.
        const ValueScale &scale = m_chart->valueScale(entry.axis);
        if (entry.stats.count > 0 && scale.high > scale.low && entry.stats.min < scale.low)
            row.note = tr("↓ %1 below the axis").arg(Format::value(entry.stats.min, unit));
        row.check = badges.value(entry.key).join(QStringLiteral("  "));
        row.checkFailed = badFailed.value(entry.key, false);
        row.checkJudged = judged.value(entry.key, false);
        if (entry.stats.last) {
            row.last = Format::value(*entry.stats.last, unit);
            row.stats = tr("min %1  max %2  mean %3")
                            .arg(Format::value(entry.stats.min, unit), Format::value(entry.stats.max, unit),
                                 Format::value(entry.stats.mean, unit));
        }
        // A derived series is drawn dashed: its legend mark is dashed too, and its formula is
        // in the legend's tooltip.
        const QString formula = m_formulas.value(entry.key);
        row.dashed = !formula.isEmpty();
        if (row.dashed)
            formulas << formula;
        rows.push_back(std::move(row));
    }
    // Every render reports its statistics; the legend repaints only when what it shows
    // changed (most live ticks change no digit shown).
    m_legend->setRows(std::move(rows));
    if (m_statValues)
        updateStatValues();
    formulas << tr("Click a row: that series alone, the axes fitted to it (click it again: all). Ctrl+click: "
                   "hide or show one.");
    const QString toolTip = formulas.join(QStringLiteral("\n\n"));
    if (toolTip != m_legend->toolTip())
        m_legend->setToolTip(toolTip);
}

void PanelWidget::setTimeCursor(TimeCursor *cursor)
{
    m_chart->setTimeCursor(cursor);
    if (!m_statValues || cursor == m_cursor)
        return;
    disconnect(m_cursorChanged);
    m_cursor = cursor;
    if (cursor)
        m_cursorChanged = connect(cursor, &TimeCursor::changed, this, &PanelWidget::updateStatValues);
    updateStatValues();
}

void PanelWidget::updateStatValues()
{
    std::vector<StatValues::Value> values;
    const Palette::Background background = UiTheme::instance()->background();
    // While the crosshair is on the dashboard, the numbers are the values at its instant, as
    // the read-out beside it: the tile then answers "how much was it then?". A sample farther
    // than a few steps (or pixels) away is a gap there, not a value.
    const std::optional<qint64> at = m_cursor ? m_cursor->timeMs() : std::nullopt;
    const qint64 step = m_status.stepMs > 0 ? m_status.stepMs : 1000;
    const qint64 msPerPixel = m_window->range().length() / std::max(1, m_chart->plotWidth());
    const qint64 maxDistance = std::max<qint64>(step * 5 / 2, msPerPixel * 6);
    int index = 0;
    for (const TimelineChart::LegendEntry &entry : m_chart->legend()) {
        const QString unit = entry.axis == AxisSide::Right ? m_panel.rightUnit : m_panel.unit;
        StatValues::Value value;
        value.name = entry.name;
        std::optional<double> shown = entry.stats.last;
        if (at) {
            const SampleStore::Series *series = m_store->series(entry.key);
            const std::optional<NearestSample> sample =
                series ? nearestSample(*series, *at, maxDistance) : std::optional<NearestSample>();
            shown = sample ? std::optional<double>(sample->value) : std::nullopt;
            value.name = QStringLiteral("%1 · %2").arg(entry.name, ChartPaint::timeText(*at));
        }
        if (shown) {
            value.text = Format::value(*shown, unit);
            const Format::ValueParts parts = Format::valueParts(*shown, unit);
            value.number = parts.number;
            value.unit = parts.unit;
            const QString color = ThresholdSteps::colorFor(m_panel.thresholds, *shown);
            if (!color.isEmpty())
                value.color = Palette::resolve(color, index, background);
        } else {
            value.text = QStringLiteral("–");
        }
        // A source that is down or a failing query shows its last value greyed: it is not
        // the value now (a value read at the crosshair is what it was then).
        if (!at &&
            (m_status.state == PanelStatus::State::SourceDown || m_status.state == PanelStatus::State::QueryError))
            value.color = UiTheme::instance()->colors().muted;
        values.push_back(std::move(value));
        ++index;
    }
    m_statValues->setValues(std::move(values));
}
