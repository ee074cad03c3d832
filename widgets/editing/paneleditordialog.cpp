// SPDX-License-Identifier: GPL-3.0-or-later
#include "editing/paneleditordialog.h"

#include "dashboard/loadtesterfield.h"
#include "dialogs/dialogbuttons.h"
#include "theme/palette.h"
#include "theme/uitheme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

// The units the dashboards use most; any other may be typed.
const QStringList kUnits{QString(),           QStringLiteral("ops/s"), QStringLiteral("req/s"),
                         QStringLiteral("s"), QStringLiteral("ms"),    QStringLiteral("bytes"),
                         QStringLiteral("%")};

QComboBox *unitBox(const QString &unit, QWidget *parent)
{
    auto *box = new QComboBox(parent);
    box->setEditable(true);
    box->addItems(kUnits);
    box->setCurrentText(unit);
    return box;
}

} // namespace

PanelEditorDialog::PanelEditorDialog(const PanelDefinition &panel, QWidget *parent) : QDialog(parent), m_panel(panel)
{
    setWindowTitle(panel.title.isEmpty() ? tr("New panel") : tr("Edit panel “%1”").arg(panel.title));
    setObjectName(QStringLiteral("panelEditor"));
    for (int i = 0; i < int(panel.series.size()); ++i)
        m_rows.push_back({panel.series[std::size_t(i)], i});

    m_title = new QLineEdit(panel.title, this);
    m_title->setObjectName(QStringLiteral("panelTitle"));
    m_unit = unitBox(panel.unit, this);
    m_rightUnit = unitBox(panel.rightUnit, this);
    m_headline = new QCheckBox(tr("In the post's summary picture"), this);
    m_headline->setChecked(panel.headline);
    auto *panelForm = new QFormLayout;
    panelForm->addRow(tr("&Title:"), m_title);
    panelForm->addRow(tr("&Unit:"), m_unit);
    panelForm->addRow(tr("Right axis u&nit:"), m_rightUnit);
    panelForm->addRow(tr("Headline:"), m_headline);

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("seriesList"));
    m_list->setMinimumWidth(220);
    m_add = new QPushButton(tr("&Add series"), this);
    m_remove = new QPushButton(tr("&Remove"), this);
    m_up = new QPushButton(tr("U&p"), this);
    m_down = new QPushButton(tr("Do&wn"), this);
    auto *listButtons = new QHBoxLayout;
    for (QPushButton *button : {m_add, m_remove, m_up, m_down})
        listButtons->addWidget(button);
    auto *listColumn = new QVBoxLayout;
    listColumn->addWidget(new QLabel(tr("Series:"), this));
    listColumn->addWidget(m_list, 1);
    listColumn->addLayout(listButtons);

    m_source = new QLabel(this);
    m_source->setWordWrap(true);
    m_query = new QLineEdit(this);
    m_query->setObjectName(QStringLiteral("seriesQuery"));
    m_query->setPlaceholderText(QStringLiteral("sum(rate(starter_requests_sent_total[1m]))"));
    m_legend = new QLineEdit(this);
    m_legend->setObjectName(QStringLiteral("seriesLegend"));
    m_legend->setPlaceholderText(tr("{{pod}} sent/s — empty: the labels"));
    m_axis = new QComboBox(this);
    m_axis->addItems({tr("Left"), tr("Right")});
    m_style = new QComboBox(this);
    m_style->addItems({tr("Line"), tr("Step"), tr("Area")});
    m_color = new QLineEdit(this);
    m_color->setObjectName(QStringLiteral("seriesColor"));
    m_color->setPlaceholderText(tr("#RRGGBB or a name — empty: the palette's"));
    m_swatch = new QLabel(this);
    m_swatch->setFixedSize(18, 18);
    auto *colorRow = new QHBoxLayout;
    colorRow->addWidget(m_color, 1);
    colorRow->addWidget(m_swatch);
    auto *seriesForm = new QFormLayout;
    seriesForm->addRow(m_source);
    seriesForm->addRow(tr("&Query:"), m_query);
    seriesForm->addRow(tr("&Legend:"), m_legend);
    seriesForm->addRow(tr("A&xis:"), m_axis);
    seriesForm->addRow(tr("&Style:"), m_style);
    auto *colorLabel = new QLabel(tr("&Colour:"), this); // a row of two: the label needs its buddy named
    colorLabel->setBuddy(m_color);
    seriesForm->addRow(colorLabel, colorRow);

    auto *seriesRow = new QHBoxLayout;
    seriesRow->addLayout(listColumn, 2);
    seriesRow->addLayout(seriesForm, 3);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("panelProblem"));
    m_problem->setStyleSheet(QStringLiteral("color: %1;").arg(UiTheme::css(UiTheme::instance()->colors().error)));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    DialogButtons::keepTabbable(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(panelForm);
    layout->addLayout(seriesRow, 1);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    resize(760, 420);

    connect(m_list, &QListWidget::currentRowChanged, this, &PanelEditorDialog::showRow);
    for (QLineEdit *edit : {m_query, m_legend, m_color})
        connect(edit, &QLineEdit::textEdited, this, &PanelEditorDialog::storeFields);
    for (QComboBox *box : {m_axis, m_style})
        connect(box, &QComboBox::activated, this, &PanelEditorDialog::storeFields);
    connect(m_title, &QLineEdit::textEdited, this, &PanelEditorDialog::validate);
    connect(m_add, &QPushButton::clicked, this, [this] {
        m_rows.push_back({SeriesDefinition{}, -1});
        refreshList();
        m_list->setCurrentRow(int(m_rows.size()) - 1);
        m_query->setFocus();
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int row = m_list->currentRow();
        if (row < 0)
            return;
        m_rows.erase(m_rows.begin() + row);
        refreshList();
        m_list->setCurrentRow(qMin(row, int(m_rows.size()) - 1));
    });
    connect(m_up, &QPushButton::clicked, this, [this] { moveRow(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { moveRow(+1); });

    refreshList();
    m_list->setCurrentRow(m_rows.empty() ? -1 : 0);
    showRow(m_list->currentRow());
}

QString PanelEditorDialog::describe(const SeriesDefinition &series)
{
    if (series.loadTester != LoadTesterField::None)
        return tr("The load tester's %1, as it reports it.").arg(LoadTesterFields::defaultLegend(series.loadTester));
    if (!series.kubernetes.isEmpty())
        return series.env.isEmpty() ? tr("The cluster's %1 replicas of %2.").arg(series.kubernetes, series.workload)
                                    : tr("The cluster's %1 of %2.").arg(series.env, series.workload);
    if (!series.derive.isEmpty())
        return tr("Computed: %1.").arg(series.derive);
    return {};
}

void PanelEditorDialog::showRow(int row)
{
    const bool valid = row >= 0 && row < int(m_rows.size());
    for (QWidget *field : std::initializer_list<QWidget *>{m_query, m_legend, m_axis, m_style, m_color})
        field->setEnabled(valid);
    m_remove->setEnabled(valid);
    m_up->setEnabled(valid && row > 0);
    m_down->setEnabled(valid && row + 1 < int(m_rows.size()));
    m_showing = true;
    const SeriesDefinition series = valid ? m_rows[std::size_t(row)].series : SeriesDefinition{};
    const QString source = valid ? describe(series) : QString();
    m_source->setText(source);
    m_source->setVisible(!source.isEmpty());
    m_query->setText(series.query);
    m_query->setEnabled(valid && source.isEmpty()); // what is not queried has no query to edit
    m_legend->setText(series.legend);
    m_axis->setCurrentIndex(series.axis == AxisSide::Right ? 1 : 0);
    m_style->setCurrentIndex(int(series.style));
    m_color->setText(series.color);
    m_showing = false;
    validate();
}

void PanelEditorDialog::storeFields()
{
    const int row = m_list->currentRow();
    if (m_showing || row < 0 || row >= int(m_rows.size()))
        return;
    SeriesDefinition &series = m_rows[std::size_t(row)].series;
    if (describe(series).isEmpty())
        series.query = m_query->text().trimmed();
    series.legend = m_legend->text();
    series.axis = m_axis->currentIndex() == 1 ? AxisSide::Right : AxisSide::Left;
    series.style = SeriesStyle(m_style->currentIndex());
    series.color = m_color->text().trimmed();
    refreshList();
    validate();
}

void PanelEditorDialog::refreshList()
{
    const QSignalBlocker blocker(m_list); // the texts change, not the choice
    const int current = m_list->currentRow();
    while (m_list->count() > int(m_rows.size()))
        delete m_list->takeItem(m_list->count() - 1);
    for (int i = 0; i < int(m_rows.size()); ++i) {
        const SeriesDefinition &series = m_rows[std::size_t(i)].series;
        QString text = !series.legend.isEmpty()   ? series.legend
                       : !series.query.isEmpty()  ? series.query
                       : !series.derive.isEmpty() ? series.derive
                                                  : describe(series);
        if (text.isEmpty())
            text = tr("(new series)");
        if (i >= m_list->count())
            m_list->addItem(text);
        else
            m_list->item(i)->setText(text);
        m_list->item(i)->setData(Qt::DecorationRole, Palette::resolve(series.color, i));
    }
    m_list->setCurrentRow(qMin(current, m_list->count() - 1));
}

void PanelEditorDialog::moveRow(int delta)
{
    const int row = m_list->currentRow();
    const int to = row + delta;
    if (row < 0 || to < 0 || to >= int(m_rows.size()))
        return;
    std::swap(m_rows[std::size_t(row)], m_rows[std::size_t(to)]);
    refreshList();
    m_list->setCurrentRow(to);
}

void PanelEditorDialog::validate()
{
    const QString color = m_color->text().trimmed();
    const QColor resolved = Palette::resolve(color, qMax(0, m_list->currentRow()));
    m_swatch->setStyleSheet(QStringLiteral("background: %1; border: 1px solid #888;").arg(resolved.name()));
    const QString why = problem();
    m_problem->setText(why);
    m_problem->setVisible(!why.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

QString PanelEditorDialog::problem() const
{
    if (m_title->text().trimmed().isEmpty())
        return tr("A panel needs a title.");
    for (int i = 0; i < int(m_rows.size()); ++i) {
        const SeriesDefinition &series = m_rows[std::size_t(i)].series;
        if (describe(series).isEmpty() && series.query.isEmpty())
            return tr("Series %1 needs a query.").arg(i + 1);
        if (!series.color.isEmpty() && !QColor(series.color).isValid())
            return tr("Series %1: “%2” is no colour (#RRGGBB or a name such as orange).").arg(i + 1).arg(series.color);
    }
    return {};
}

PanelDefinition PanelEditorDialog::panel() const
{
    PanelDefinition edited = m_panel;
    edited.title = m_title->text().trimmed();
    edited.unit = m_unit->currentText().trimmed();
    edited.rightUnit = m_rightUnit->currentText().trimmed();
    edited.headline = m_headline->isChecked();
    edited.series.clear();
    for (const Row &row : m_rows)
        edited.series.push_back(row.series);
    return edited;
}

std::vector<int> PanelEditorDialog::rows() const
{
    std::vector<int> origins;
    for (const Row &row : m_rows)
        origins.push_back(row.origin);
    return origins;
}
