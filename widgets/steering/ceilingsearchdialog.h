// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/ceilingsearch.h"

#include <QDialog>

class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QCheckBox;

// "Find the ceiling…" from the Load tester dock: the stairs (from, step, until, how long each
// holds and settles), when a stair fails (tolerance, a latency limit) and what is measured
// (the queries, the Chaoscope starter's by default), all editable, with the plan's own words
// for a value it refuses.
class CeilingSearchDialog : public QDialog
{
    Q_OBJECT
public:
    CeilingSearchDialog(const CeilingSearchPlan &initial, const QString &rateUnit, QWidget *parent = nullptr);

    CeilingSearchPlan plan() const;
    QString problem() const; // why OK is disabled, or empty

private:
    void revalidate();

    CeilingSearchPlan m_initial;
    QDoubleSpinBox *m_from;
    QDoubleSpinBox *m_step;
    QDoubleSpinBox *m_until;
    QSpinBox *m_every;
    QSpinBox *m_settle;
    QDoubleSpinBox *m_tolerance;
    QCheckBox *m_limitLatency;
    QSpinBox *m_latency;
    QLineEdit *m_sent;
    QLineEdit *m_completed;
    QLineEdit *m_pending;
    QLineEdit *m_latencyQuery;
    QLineEdit *m_computed;
    class QLabel *m_problem;
    class QPushButton *m_ok;
};
