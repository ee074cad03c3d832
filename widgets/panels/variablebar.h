// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QHash>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QHBoxLayout;

// The dashboard's choosable $variables in the toolbar: a label and a combo box for each, in
// the dashboard's order. A label-values variable's combo is editable (a value Prometheus has
// not listed yet can be typed) and gets its choices later (setChoices), or the reason it has
// none (setError, in its tooltip). Choosing emits valueChosen; the bar changes nothing else.
class VariableBar : public QWidget
{
    Q_OBJECT
public:
    explicit VariableBar(QWidget *parent = nullptr);

    // Rebuilds the combos. Fixed variables get none; hasChoosable() says whether any did.
    void setVariables(const std::vector<VariableDefinition> &variables);
    bool hasChoosable() const { return !m_combos.isEmpty(); }

    // A list equal to the one shown changes nothing; one that comes while the user has the
    // list open or is typing is left for the next load.
    void setChoices(const QString &name, const QStringList &choices);
    void setError(const QString &name, const QString &message);
    // Shows a value chosen elsewhere (a session reopened) without emitting valueChosen.
    void setValue(const QString &name, const QString &value);

    QComboBox *comboFor(const QString &name) const { return m_combos.value(name); }

signals:
    // DashboardVariables::kAllValue for "All".
    void valueChosen(const QString &name, const QString &value);

private:
    struct Entry
    {
        bool includeAll = false;
        QString tooltip; // what the variable is, before any error is added
    };
    void fill(QComboBox *combo, const Entry &entry, const QStringList &choices, const QString &current);
    void onChosen(const QString &name);

    QHBoxLayout *m_layout;
    QHash<QString, QComboBox *> m_combos;
    QHash<QString, Entry> m_entries;
    QHash<QString, QStringList> m_choices; // the list last shown, by variable
    QList<QWidget *> m_widgets;
};
