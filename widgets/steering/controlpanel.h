// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadtester/loadtestercontroller.h"
#include "scenario/ceilingsearch.h"

#include <QPointer>
#include <QWidget>
#include <functional>

class LoadTesterWatch;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSpinBox;

// The steering dock: shows the load tester's configured rate, in-flight limit, in-flight now
// and paused state (polled every second), and lets the user change them — type and press
// Enter or Apply, step buttons for rate and limit, pause/resume — with confirmation for big
// changes. After an apply it shows what each replica read back, or why it failed; nothing
// pretends to have worked.
class ControlPanel : public QWidget
{
    Q_OBJECT
public:
    // Asks the user to confirm; returns true to go ahead. Replaceable for tests.
    using Confirm = std::function<bool(const QString &reason)>;

    explicit ControlPanel(LoadTesterController *controller, QWidget *parent = nullptr);
    ~ControlPanel() override;

    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    // Shows, next to a replica, how long it has sent nothing while it should have been sending.
    void setWatch(LoadTesterWatch *watch);

    // For tests and shortcuts: what the buttons do.
    void applyRate(double rate);
    void applyInflightLimit(int limit);
    void stepRate(int step); // SteeringPolicy::Step as int
    void stepInflightLimit(int step);
    void togglePause();

    QString resultText() const;
    QString statusText() const;
    // The guards that may act on this load tester, and their state ("armed", "tripped …"), so
    // whoever steers by hand knows a guard may pause the load. Empty hides the line.
    void setGuards(const QString &richText);
    QString guardsText() const;
    // "Find the ceiling…" is offered while nothing else steers the load (no scenario runs).
    void setCeilingSearchAllowed(bool allowed);
    bool isCeilingSearchOffered() const;
    // What the dialog's "Start the search" does; for tests.
    void requestCeilingSearch(const CeilingSearchPlan &plan);

signals:
    void actionRequested(const LoadTesterAction &action);
    void ceilingSearchRequested(const CeilingSearchPlan &plan);

private:
    void build();
    // A row of the four step buttons (×½, −10 %, +10 %, ×2) for `what`, calling onStep with a
    // SteeringPolicy::Step; the rate's row also gets keyboard shortcuts.
    QHBoxLayout *makeStepRow(const QString &what, QList<QPushButton *> &buttons, bool withShortcuts,
                             const std::function<void(int)> &onStep);
    void updateCapabilities();
    void showStatus();
    void showReport(const ActionReport &report);
    void request(const LoadTesterAction &action, double from, bool unlimitedIsZero);
    bool confirm(const QString &question); // m_confirm, the fields held as typed meanwhile
    // Enter or Apply in a field: sends what was typed, but asks first when the value in force
    // changed elsewhere (a step key, a scenario, someone else) since the typing began.
    void applyTypedRate();
    void applyTypedLimit();
    // The first keystroke of an edit remembers the value in force it started from.
    void noteRateEdit();
    void noteLimitEdit();
    // The field shows the value in force again, and nothing beside it.
    void followRate(double rate);
    void followLimit(int limit);
    std::optional<LoadTesterStatus> firstStatus() const;

    LoadTesterController *m_controller;
    QPointer<LoadTesterWatch> m_watch;
    Confirm m_confirm;
    bool m_asking = false; // a confirmation is open
    QLabel *m_header = nullptr;
    QLabel *m_status = nullptr;
    QDoubleSpinBox *m_rate = nullptr;
    QPushButton *m_applyRate = nullptr;
    QList<QPushButton *> m_stepButtons;
    QSpinBox *m_limit = nullptr;
    QPushButton *m_applyLimit = nullptr;
    QList<QPushButton *> m_limitStepButtons;
    QPushButton *m_pause = nullptr;
    QPushButton *m_findCeiling = nullptr;
    CeilingSearchPlan m_ceilingPlan;
    bool m_ceilingSearchAllowed = true;
    QLabel *m_result = nullptr;
    QLabel *m_guards = nullptr;
    // Beside a field being edited: the value in force when it changed elsewhere meanwhile.
    QLabel *m_rateElsewhere = nullptr;
    QLabel *m_limitElsewhere = nullptr;
    bool m_userEditedRate = false;
    bool m_userEditedLimit = false;
    std::optional<double> m_rateEditedFrom; // the value in force when the typing began
    std::optional<int> m_limitEditedFrom;
};
