// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTimer>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class ScenarioRunner;

// Shows a running scenario: its steps with their outcome, the next step with a countdown,
// and a stop button.
class ScenarioPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ScenarioPanel(ScenarioRunner *runner, QWidget *parent = nullptr);

    QString nextStepText() const;

private:
    void reload();
    void refreshCountdown();

    ScenarioRunner *m_runner;
    QLabel *m_title;
    QLabel *m_next;
    QListWidget *m_steps;
    QPushButton *m_stop;
    QTimer m_tick;
};
