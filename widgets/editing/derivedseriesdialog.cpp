// SPDX-License-Identifier: GPL-3.0-or-later
#include "editing/derivedseriesdialog.h"

#include "dashboard/loadtesterfield.h"
#include "dialogs/dialogbuttons.h"
#include "store/derivedexpression.h"
#include "store/derivedseries.h"
#include "theme/uitheme.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

// How a series is named in the boxes: its panel, then its legend, id or query.
QString seriesName(const PanelDefinition &panel, const SeriesDefinition &series)
{
    QString name =
        !series.legend.isEmpty()   ? series.legend
        : !series.id.isEmpty()     ? series.id
        : !series.query.isEmpty()  ? series.query
        : !series.derive.isEmpty() ? series.derive
        : series.loadTester != LoadTesterField::None
            ? LoadTesterFields::defaultLegend(series.loadTester)
            : QStringLiteral("%1 %2").arg(series.workload, series.env.isEmpty() ? series.kubernetes : series.env);
    if (name.size() > 60)
        name = name.left(59) + QChar(0x2026);
    return QStringLiteral("%1 › %2").arg(panel.title, name);
}

} // namespace

DerivedSeriesDialog::DerivedSeriesDialog(const DashboardDefinition &dashboard, int panel, QWidget *parent)
    : QDialog(parent), m_dashboard(dashboard)
{
    setObjectName(QStringLiteral("derivedSeriesDialog"));
    const QString panelTitle =
        panel >= 0 && panel < int(dashboard.panels.size()) ? dashboard.panels[std::size_t(panel)].title : QString();
    setWindowTitle(tr("Add a derived series to “%1”").arg(panelTitle));
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        for (int s = 0; s < int(dashboard.panels[std::size_t(p)].series.size()); ++s)
            m_choices.push_back({p, s});
    }

    m_builtin = new QComboBox(this);
    m_builtin->setObjectName(QStringLiteral("derivedBuiltin"));
    m_builtin->addItem(tr("A formula of your own"));
    for (const DerivedSeries::Builtin &builtin : DerivedSeries::builtins())
        m_builtin->addItem(
            QStringLiteral("%1 = %2").arg(QString::fromUtf8(builtin.title), QString::fromUtf8(builtin.formula)),
            QString::fromUtf8(builtin.name));
    m_formula = new QLineEdit(this);
    m_formula->setObjectName(QStringLiteral("derivedFormula"));
    m_formula->setPlaceholderText(QStringLiteral("activated - handled"));
    m_legend = new QLineEdit(this);
    m_legend->setObjectName(QStringLiteral("derivedLegend"));
    m_legend->setPlaceholderText(tr("worker fill level — empty: the formula"));
    auto *form = new QFormLayout;
    form->addRow(tr("&Built-in:"), m_builtin);
    form->addRow(tr("&Formula:"), m_formula);
    form->addRow(tr("&Legend:"), m_legend);
    auto *hint = new QLabel(tr("Names in the formula stand for series of the dashboard; + − × ÷, numbers and "
                               "brackets as usual. Drawn where every input has a value."),
                            this);
    hint->setWordWrap(true);
    m_inputs = new QFormLayout;

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("derivedProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: %1;").arg(UiTheme::css(UiTheme::instance()->colors().error)));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    DialogButtons::keepTabbable(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addLayout(m_inputs);
    layout->addStretch(1);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    resize(620, 360);

    connect(m_builtin, &QComboBox::activated, this, [this](int index) {
        const DerivedSeries::Builtin *builtin = DerivedSeries::builtin(m_builtin->itemData(index).toString());
        if (!builtin)
            return;
        m_formula->setText(QString::fromUtf8(builtin->formula));
        m_legend->setText(QString::fromUtf8(builtin->title));
        readFormula();
    });
    connect(m_formula, &QLineEdit::textEdited, this, [this] {
        m_builtin->setCurrentIndex(0);
        readFormula();
    });
    readFormula();
}

void DerivedSeriesDialog::readFormula()
{
    const QString text = m_formula->text().trimmed();
    QStringList names;
    m_formulaError.clear();
    if (!text.isEmpty()) {
        const Result<DerivedExpression> expression = DerivedExpression::parse(text);
        if (expression)
            names = expression->inputs();
        else
            m_formulaError = expression.error().message;
    }
    if (names != m_names && m_formulaError.isEmpty()) {
        // The rows follow the names; a name kept keeps its choice.
        QHash<QString, int> chosen;
        for (int i = 0; i < int(m_names.size()); ++i)
            chosen.insert(m_names[i], m_inputBoxes[std::size_t(i)]->currentIndex());
        while (m_inputs->rowCount() > 0)
            m_inputs->removeRow(0);
        m_inputBoxes.clear();
        for (const QString &name : names) {
            auto *box = new QComboBox(this);
            box->setObjectName(QStringLiteral("input_") + name);
            box->addItem(tr("— choose the series —"));
            int preset = 0;
            for (int i = 0; i < int(m_choices.size()); ++i) {
                const PanelDefinition &panel = m_dashboard.panels[std::size_t(m_choices[std::size_t(i)].panel)];
                const SeriesDefinition &series = panel.series[std::size_t(m_choices[std::size_t(i)].series)];
                box->addItem(seriesName(panel, series));
                if (preset == 0 && series.id == name)
                    preset = i + 1; // the series this dashboard already calls so
            }
            box->setCurrentIndex(chosen.value(name, preset));
            connect(box, &QComboBox::activated, this, &DerivedSeriesDialog::validate);
            m_inputs->addRow(QStringLiteral("%1:").arg(name), box);
            m_inputBoxes.push_back(box);
        }
        m_names = names;
    }
    validate();
}

void DerivedSeriesDialog::validate()
{
    const QString why = problem();
    m_problem->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

QString DerivedSeriesDialog::problem() const
{
    if (m_formula->text().trimmed().isEmpty())
        return tr("Type a formula, or choose a built-in.");
    if (!m_formulaError.isEmpty())
        return tr("The formula: %1").arg(m_formulaError);
    for (int i = 0; i < int(m_names.size()); ++i) {
        if (m_inputBoxes[std::size_t(i)]->currentIndex() <= 0)
            return tr("Choose the series “%1” stands for.").arg(m_names[i]);
    }
    return {};
}

QString DerivedSeriesDialog::formula() const
{
    return m_formula->text().trimmed();
}

QString DerivedSeriesDialog::legend() const
{
    return m_legend->text().trimmed();
}

std::vector<DashboardEdits::DerivedInput> DerivedSeriesDialog::inputs() const
{
    std::vector<DashboardEdits::DerivedInput> result;
    for (int i = 0; i < int(m_names.size()); ++i) {
        const int index = m_inputBoxes[std::size_t(i)]->currentIndex() - 1;
        if (index < 0 || index >= int(m_choices.size()))
            continue;
        result.push_back({m_names[i], m_choices[std::size_t(index)].panel, m_choices[std::size_t(index)].series});
    }
    return result;
}

QComboBox *DerivedSeriesDialog::inputBox(const QString &name) const
{
    const qsizetype index = m_names.indexOf(name);
    return index < 0 ? nullptr : m_inputBoxes[std::size_t(index)];
}
