// SPDX-License-Identifier: GPL-3.0-or-later
#include "steering/ceilingsearchdialog.h"

#include "dialogs/dialogbuttons.h"
#include "theme/uitheme.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

QDoubleSpinBox *rateField(double value, const QString &unit)
{
    auto *field = new QDoubleSpinBox;
    field->setRange(0, 1e7);
    field->setDecimals(0);
    field->setValue(value);
    field->setSuffix(QStringLiteral(" ") + unit);
    return field;
}

QSpinBox *secondsField(qint64 ms, int minimum)
{
    auto *field = new QSpinBox;
    field->setRange(minimum, 3600);
    field->setValue(int(ms / 1000));
    field->setSuffix(QStringLiteral(" s"));
    return field;
}

QLineEdit *queryField(const QString &query)
{
    auto *field = new QLineEdit(query);
    field->setMinimumWidth(460);
    field->setClearButtonEnabled(true);
    return field;
}

} // namespace

CeilingSearchDialog::CeilingSearchDialog(const CeilingSearchPlan &initial, const QString &rateUnit, QWidget *parent)
    : QDialog(parent), m_initial(initial), m_from(rateField(initial.from, rateUnit)),
      m_step(rateField(initial.step, rateUnit)), m_until(rateField(initial.until, rateUnit)),
      m_every(secondsField(initial.everyMs, 1)), m_settle(secondsField(initial.settleMs, 0)),
      m_tolerance(new QDoubleSpinBox), m_limitLatency(new QCheckBox(tr("p99 below"))), m_latency(new QSpinBox),
      m_sent(queryField(initial.sentQuery)), m_completed(queryField(initial.completedQuery)),
      m_pending(queryField(initial.pendingQuery)), m_latencyQuery(queryField(initial.latencyQuery)),
      m_computed(queryField(initial.computedQuery)), m_problem(new QLabel), m_ok(nullptr)
{
    setWindowTitle(tr("Find the ceiling"));
    // Named for tests and for the accessibility tree.
    m_every->setObjectName(QStringLiteral("every"));
    m_settle->setObjectName(QStringLiteral("settle"));
    m_sent->setObjectName(QStringLiteral("sentQuery"));
    m_completed->setObjectName(QStringLiteral("completedQuery"));
    m_tolerance->setRange(1, 50);
    m_tolerance->setDecimals(0);
    m_tolerance->setSuffix(QStringLiteral(" %"));
    m_tolerance->setValue(initial.tolerance * 100);
    m_latency->setRange(1, 600'000);
    m_latency->setSuffix(QStringLiteral(" ms"));
    m_latency->setValue(int(initial.latencyBelowSeconds.value_or(0.5) * 1000));
    m_limitLatency->setChecked(initial.latencyBelowSeconds.has_value());
    m_latency->setEnabled(m_limitLatency->isChecked());
    connect(m_limitLatency, &QCheckBox::toggled, m_latency, &QWidget::setEnabled);
    m_computed->setPlaceholderText(tr("optional: the dashboard's own ceiling, drawn beside the measured one"));

    auto *intro = new QLabel(tr("Raises the load in stairs while completed/s follows sent/s and pending does not "
                                "grow, stops at the first stair that fails, narrows down between the last good "
                                "and the first bad one, and confirms the last good one. Guards of a running "
                                "scenario still apply."));
    intro->setWordWrap(true);
    auto *stairs = new QFormLayout;
    stairs->addRow(tr("From"), m_from);
    stairs->addRow(tr("Step"), m_step);
    stairs->addRow(tr("Until"), m_until);
    stairs->addRow(tr("Each stair"), m_every);
    stairs->addRow(tr("Not judged at first"), m_settle);
    stairs->addRow(tr("Tolerance"), m_tolerance);
    stairs->addRow(m_limitLatency, m_latency);
    stairs->addRow(tr("Sent/s"), m_sent);
    stairs->addRow(tr("Completed/s"), m_completed);
    stairs->addRow(tr("Pending"), m_pending);
    stairs->addRow(tr("p99 latency"), m_latencyQuery);
    stairs->addRow(tr("Computed ceiling"), m_computed);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color:%1").arg(UiTheme::css(UiTheme::instance()->colors().error)));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Start the search"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    DialogButtons::keepTabbable(buttons);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(stairs);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);

    for (QDoubleSpinBox *field : {m_from, m_step, m_until, m_tolerance})
        connect(field, &QDoubleSpinBox::valueChanged, this, &CeilingSearchDialog::revalidate);
    for (QSpinBox *field : {m_every, m_settle, m_latency})
        connect(field, &QSpinBox::valueChanged, this, &CeilingSearchDialog::revalidate);
    for (QLineEdit *field : {m_sent, m_completed})
        connect(field, &QLineEdit::textChanged, this, &CeilingSearchDialog::revalidate);
    revalidate();
}

CeilingSearchPlan CeilingSearchDialog::plan() const
{
    CeilingSearchPlan plan = m_initial;
    plan.from = m_from->value();
    plan.step = m_step->value();
    plan.until = m_until->value();
    plan.everyMs = qint64(m_every->value()) * 1000;
    plan.settleMs = qint64(m_settle->value()) * 1000;
    plan.tolerance = m_tolerance->value() / 100;
    plan.latencyBelowSeconds =
        m_limitLatency->isChecked() ? std::optional<double>(m_latency->value() / 1000.0) : std::nullopt;
    plan.sentQuery = m_sent->text().trimmed();
    plan.completedQuery = m_completed->text().trimmed();
    plan.pendingQuery = m_pending->text().trimmed();
    plan.latencyQuery = m_latencyQuery->text().trimmed();
    plan.computedQuery = m_computed->text().trimmed();
    return plan;
}

QString CeilingSearchDialog::problem() const
{
    return plan().problem();
}

void CeilingSearchDialog::revalidate()
{
    const QString text = problem();
    m_problem->setText(text);
    m_problem->setVisible(!text.isEmpty());
    m_ok->setEnabled(text.isEmpty());
}
