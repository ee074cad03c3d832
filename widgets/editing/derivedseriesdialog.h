// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "dashboard/dashboardedits.h"

#include <QDialog>
#include <vector>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;

// A series computed from others, as a small form: a built-in (Little's law: the wait from
// pending / completed; a fill level …) or a formula typed in ("activated - handled"), and for
// each name in it the series of the dashboard it stands for. The formula is read as it is
// typed; what is wrong with it, or which name still needs a series, is said under the form,
// and OK is offered only when nothing is.
class DerivedSeriesDialog : public QDialog
{
    Q_OBJECT
public:
    DerivedSeriesDialog(const DashboardDefinition &dashboard, int panel, QWidget *parent = nullptr);

    QString formula() const;
    QString legend() const;
    std::vector<DashboardEdits::DerivedInput> inputs() const;
    QString problem() const; // why OK is not offered; empty when it is

    // Handles for tests and the guide's picture.
    QComboBox *builtinBox() const { return m_builtin; }
    QLineEdit *formulaEdit() const { return m_formula; }
    QLineEdit *legendEdit() const { return m_legend; }
    QComboBox *inputBox(const QString &name) const; // nullptr when the formula has no such name

private:
    struct Choice
    {
        int panel;
        int series;
    };
    void readFormula(); // the inputs' rows follow the names in the formula
    void validate();

    DashboardDefinition m_dashboard;
    std::vector<Choice> m_choices; // the series a name may stand for, in the boxes' order (after "choose")
    QStringList m_names;           // the formula's inputs, as read last
    QString m_formulaError;

    QComboBox *m_builtin;
    QLineEdit *m_formula;
    QLineEdit *m_legend;
    QFormLayout *m_inputs;
    std::vector<QComboBox *> m_inputBoxes; // one per name
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
};
