// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/variablebar.h"

#include "dashboard/dashboardvariables.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>

VariableBar::VariableBar(QWidget *parent) : QWidget(parent), m_layout(new QHBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(4);
}

void VariableBar::setVariables(const std::vector<VariableDefinition> &variables)
{
    qDeleteAll(m_widgets);
    m_widgets.clear();
    m_combos.clear();
    m_entries.clear();
    m_choices.clear();
    for (const VariableDefinition &variable : variables) {
        if (!variable.isChoosable())
            continue;
        auto *label = new QLabel((variable.title.isEmpty() ? variable.name : variable.title) + QLatin1Char(' '));
        auto *combo = new QComboBox;
        combo->setObjectName(QStringLiteral("variable_") + variable.name);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        combo->setMinimumContentsLength(8);
        Entry entry;
        entry.includeAll = variable.includeAll;
        if (!variable.labelName.isEmpty()) {
            // A value can be typed before Prometheus lists it (a namespace about to be created).
            combo->setEditable(true);
            combo->setInsertPolicy(QComboBox::NoInsert);
            entry.tooltip = tr("$%1: values of the label \"%2\"%3")
                                .arg(variable.name, variable.labelName,
                                     variable.labelMatch.isEmpty() ? QString() : tr(" on %1").arg(variable.labelMatch));
            connect(combo->lineEdit(), &QLineEdit::editingFinished, this,
                    [this, name = variable.name] { onChosen(name); });
        } else {
            entry.tooltip = tr("$%1").arg(variable.name);
        }
        combo->setToolTip(entry.tooltip);
        label->setToolTip(entry.tooltip);
        fill(combo, entry, variable.choices, variable.value);
        connect(combo, &QComboBox::activated, this, [this, name = variable.name] { onChosen(name); });
        m_layout->addWidget(label);
        m_layout->addWidget(combo);
        m_widgets << label << combo;
        m_combos.insert(variable.name, combo);
        m_entries.insert(variable.name, entry);
    }
}

void VariableBar::fill(QComboBox *combo, const Entry &entry, const QStringList &choices, const QString &current)
{
    const QSignalBlocker blocker(combo);
    combo->clear();
    if (entry.includeAll)
        combo->addItem(tr("All"), DashboardVariables::kAllValue);
    for (const QString &choice : DashboardVariables::choicesWithCurrent(choices, current))
        combo->addItem(choice, choice);
    const int index = combo->findData(current);
    if (index >= 0)
        combo->setCurrentIndex(index);
    else if (combo->isEditable())
        combo->setEditText(current); // no value yet: empty until Prometheus answers
}

void VariableBar::setChoices(const QString &name, const QStringList &choices)
{
    QComboBox *combo = m_combos.value(name);
    if (!combo)
        return;
    // Lists come again every minute: the same list rebuilds nothing, and a new one waits while
    // the user has the list open or is typing (it would move the entries under the pointer or
    // take the typed text away); the next load brings it.
    if (m_choices.contains(name) && m_choices.value(name) == choices) {
        combo->setToolTip(m_entries.value(name).tooltip); // answered: an earlier error is over
        return;
    }
    const bool typing = combo->lineEdit() && combo->lineEdit()->hasFocus() && combo->lineEdit()->isModified();
    if (combo->view()->isVisible() || typing)
        return;
    m_choices.insert(name, choices);
    const QString current = combo->currentData().isValid() ? combo->currentData().toString() : combo->currentText();
    fill(combo, m_entries.value(name), choices, current);
    combo->setToolTip(m_entries.value(name).tooltip);
    // Without a default the first value listed is taken, as soon as there is one.
    if (current.isEmpty() && combo->count() > 0) {
        combo->setCurrentIndex(0);
        onChosen(name);
    }
}

void VariableBar::setError(const QString &name, const QString &message)
{
    if (QComboBox *combo = m_combos.value(name))
        combo->setToolTip(m_entries.value(name).tooltip + QStringLiteral("\n") + message);
}

void VariableBar::setValue(const QString &name, const QString &value)
{
    QComboBox *combo = m_combos.value(name);
    if (!combo)
        return;
    const QSignalBlocker blocker(combo);
    int index = combo->findData(value);
    if (index < 0) {
        combo->insertItem(m_entries.value(name).includeAll ? 1 : 0, value, value);
        index = combo->findData(value);
    }
    combo->setCurrentIndex(index);
}

void VariableBar::onChosen(const QString &name)
{
    QComboBox *combo = m_combos.value(name);
    if (!combo)
        return;
    // A typed text that matches an item (its text: "All") is that item's value.
    const int index = combo->findText(combo->currentText());
    const QString value = index >= 0 ? combo->itemData(index).toString() : combo->currentText().trimmed();
    if (value.isEmpty())
        return;
    emit valueChosen(name, value);
}
