// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTimer>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class ScenarioRunner;

// Shows a running scenario: its steps with their outcome, the next step with a countdown,
// its expectations and guards with their state as the run goes (a guard that could not act in
// red), the verdict once it ends, and a stop button.
class ScenarioPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ScenarioPanel(ScenarioRunner *runner, QWidget *parent = nullptr);

    QString nextStepText() const;
    QString checksText() const; // the checks' lines as shown (plain text), for tests

private:
    void reload();
    void refreshCountdown();
    void refreshChecks();

    ScenarioRunner *m_runner;
    QLabel *m_title;
    QLabel *m_next;
    QListWidget *m_steps;
    QLabel *m_checks;
    QPushButton *m_stop;
    QTimer m_tick;
};
