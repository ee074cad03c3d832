// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QDialog>
#include <vector>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

// One panel of the dashboard as a form: its title, units and headline mark, and its series in
// a list, each with its query, legend template, axis, style and colour. Series that are not
// queried (load tester, cluster, derived) keep what they are and offer the rest. Nothing is
// changed until OK, which is offered only while the form makes a panel (a title, a query for
// every queried series, colours Qt can read); the reason is said under the form.
class PanelEditorDialog : public QDialog
{
    Q_OBJECT
public:
    PanelEditorDialog(const PanelDefinition &panel, QWidget *parent = nullptr);

    PanelDefinition panel() const; // as edited
    // For each series of panel(), the index it had in the panel given, or -1 when added here.
    std::vector<int> rows() const;
    QString problem() const; // why OK is not offered; empty when it is

    // Handles for tests and the guide's picture.
    QListWidget *seriesList() const { return m_list; }
    QLineEdit *titleEdit() const { return m_title; }
    QLineEdit *queryEdit() const { return m_query; }
    QLineEdit *legendEdit() const { return m_legend; }
    QLineEdit *colorEdit() const { return m_color; }
    QComboBox *axisBox() const { return m_axis; }
    QComboBox *styleBox() const { return m_style; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *removeButton() const { return m_remove; }
    QPushButton *upButton() const { return m_up; }
    QPushButton *downButton() const { return m_down; }

private:
    struct Row
    {
        SeriesDefinition series;
        int origin = -1;
    };

    void showRow(int row);   // the fields show the series chosen in the list
    void storeFields();      // and write back into it as they change
    void refreshList();      // each entry's text: its legend, or its query
    void moveRow(int delta); // up or down by one
    void validate();
    static QString describe(const SeriesDefinition &series);

    PanelDefinition m_panel;
    std::vector<Row> m_rows;
    bool m_showing = false; // fields being filled from a row: not an edit

    QLineEdit *m_title;
    QComboBox *m_unit;
    QComboBox *m_rightUnit;
    QCheckBox *m_headline;
    QListWidget *m_list;
    QPushButton *m_add;
    QPushButton *m_remove;
    QPushButton *m_up;
    QPushButton *m_down;
    QLabel *m_source; // what a series that is not queried reads
    QLineEdit *m_query;
    QLineEdit *m_legend;
    QComboBox *m_axis;
    QComboBox *m_style;
    QLineEdit *m_color;
    QLabel *m_swatch;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
};
