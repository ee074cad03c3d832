// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>

class LoadTesterController;
struct ActionReport;

// Sets the load tester's set-point as one move of something larger (a ramp, stairs, a ceiling
// search): quietly, since the shape marks itself as one region; tried again while another
// change (a button, a guard) is in flight; answered once, with why it failed.
class RateSetter : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(bool ok, const QString &message)>;

    explicit RateSetter(LoadTesterController *controller, QObject *parent = nullptr);

    // Replaces a move not yet answered (its callback is not called).
    void set(double rate, Done done);
    void cancel();

private:
    void tryApply();
    void onActionFinished(const ActionReport &report);

    LoadTesterController *m_controller;
    QTimer m_retry;
    QElapsedTimer m_waiting;
    Done m_done;
    double m_rate = 0;
    bool m_applied = false; // the controller took it; its report is ours
};
