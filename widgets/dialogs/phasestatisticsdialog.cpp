// SPDX-License-Identifier: GPL-3.0-or-later
#include "dialogs/phasestatisticsdialog.h"

#include "analysis/phasestatisticsmodel.h"
#include "annotations/annotationmodel.h"
#include "dialogs/dialogbuttons.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "theme/uitheme.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace {

// A check row's cells in green or red, as the legend says it: the model cannot hold a colour.
class VerdictColours : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const QVariant verdict = index.data(PhaseStatisticsModel::VerdictRole);
        if (!verdict.isValid())
            return;
        const UiTheme::Colors &colors = UiTheme::instance()->colors();
        const auto shown = PhaseStatisticsModel::Verdict(verdict.toInt());
        option->palette.setColor(QPalette::Text, shown == PhaseStatisticsModel::Verdict::Failed ? colors.error
                                                 : shown == PhaseStatisticsModel::Verdict::Held ? colors.ok
                                                                                                : colors.axisText);
        if (shown == PhaseStatisticsModel::Verdict::Failed)
            option->font.setBold(true);
    }
};

} // namespace

PhaseStatisticsDialog::PanelSeries PhaseStatisticsDialog::panelSeries(const PanelDefinition &definition,
                                                                      const QList<TimelineChart::LegendEntry> &legend,
                                                                      const std::vector<PanelCheck> &checks)
{
    PanelSeries panel{definition.title, {}, checks};
    for (const TimelineChart::LegendEntry &entry : legend)
        panel.series.push_back(
            {entry.key, entry.name, entry.axis == AxisSide::Right ? definition.rightUnit : definition.unit});
    return panel;
}

PhaseStatisticsDialog::PhaseStatisticsDialog(SampleStore *store, AnnotationModel *annotations, QWidget *parent)
    : QDialog(parent), m_store(store), m_annotations(annotations), m_model(new PhaseStatisticsModel(this)),
      m_panelPicker(new QComboBox), m_p95(new QCheckBox(tr("p95"))), m_rangeLabel(new QLabel), m_table(new QTableView)
{
    setObjectName(QStringLiteral("phaseStatisticsDialog"));
    setWindowTitle(tr("Statistics per phase"));
    m_panelPicker->setObjectName(QStringLiteral("phasePanelPicker"));
    m_p95->setObjectName(QStringLiteral("phaseP95"));
    m_p95->setToolTip(tr("Also the 95th percentile of each phase"));
    m_rangeLabel->setStyleSheet(QStringLiteral("color: %1;").arg(UiTheme::css(UiTheme::instance()->colors().axisText)));
    m_table->setObjectName(QStringLiteral("phaseTable"));
    m_table->setModel(m_model);
    m_table->setItemDelegate(new VerdictColours(m_table));
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Arrow keys move between cells; Tab moves on to the next control instead of trapping
    // the keyboard in the table.
    m_table->setTabKeyNavigation(false);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_panelPicker, &QComboBox::currentIndexChanged, this, &PhaseStatisticsDialog::recompute);
    connect(m_p95, &QCheckBox::toggled, this, &PhaseStatisticsDialog::recompute);
    // Phases follow the annotations: one added, moved or accepted splits the run anew.
    connect(annotations, &AnnotationModel::annotationsChanged, this, &PhaseStatisticsDialog::recompute);

    auto *copyText = new QPushButton(tr("Copy as text"));
    copyText->setObjectName(QStringLiteral("phaseCopyText"));
    copyText->setToolTip(tr("Tab-separated, for a spreadsheet"));
    connect(copyText, &QPushButton::clicked, this, &PhaseStatisticsDialog::copyAsText);
    auto *copyMarkdown = new QPushButton(tr("Copy as Markdown"));
    copyMarkdown->setObjectName(QStringLiteral("phaseCopyMarkdown"));
    copyMarkdown->setToolTip(tr("A Markdown table with units, for a report"));
    connect(copyMarkdown, &QPushButton::clicked, this, &PhaseStatisticsDialog::copyAsMarkdown);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(copyText, QDialogButtonBox::ActionRole);
    buttons->addButton(copyMarkdown, QDialogButtonBox::ActionRole);
    DialogButtons::keepTabbable(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Panel")));
    top->addWidget(m_panelPicker, 1);
    top->addWidget(m_p95);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_rangeLabel);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(900, 420);
}

void PhaseStatisticsDialog::setPanels(std::vector<PanelSeries> panels, int current)
{
    m_panels = std::move(panels);
    const QSignalBlocker block(m_panelPicker);
    m_panelPicker->clear();
    for (const PanelSeries &panel : m_panels)
        m_panelPicker->addItem(panel.title);
    m_panelPicker->setCurrentIndex(std::clamp(current, 0, std::max(0, int(m_panels.size()) - 1)));
    recompute();
}

void PhaseStatisticsDialog::setRange(const TimeRange &range)
{
    m_range = range;
    const auto time = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    };
    m_rangeLabel->setText(tr("Visible range %1 – %2").arg(time(range.startMs), time(range.endMs)));
    recompute();
}

void PhaseStatisticsDialog::recompute()
{
    const int current = m_panelPicker->currentIndex();
    std::vector<PhaseSeries> series;
    std::vector<PhaseStatistics::PhaseCheck> checks;
    if (current >= 0 && current < int(m_panels.size())) {
        const PanelSeries &panel = m_panels[std::size_t(current)];
        for (const SeriesRef &ref : panel.series) {
            if (const SampleStore::Series *stored = m_store->series(ref.key))
                series.push_back({ref.name, ref.unit, stored->timestampsMs(), stored->values()});
        }
        for (const PanelCheck &check : panel.checks) {
            PhaseStatistics::PhaseCheck judged{check.check, {}};
            for (const SeriesRef &ref : panel.series) {
                const SampleStore::Series *stored = m_store->series(ref.key);
                if (stored && SeriesKey::matches(check.reference, ref.key))
                    judged.series.push_back({stored->timestampsMs(), stored->values()});
            }
            checks.push_back(std::move(judged));
        }
    }
    m_model->setTable(
        PhaseStatistics::compute(series, m_range, m_annotations->annotations(), m_p95->isChecked(), checks));
}

void PhaseStatisticsDialog::copyAsText()
{
    QGuiApplication::clipboard()->setText(m_model->table().toTabSeparated());
}

void PhaseStatisticsDialog::copyAsMarkdown()
{
    QGuiApplication::clipboard()->setText(m_model->table().toMarkdown());
}
