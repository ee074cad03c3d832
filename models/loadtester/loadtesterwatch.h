// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadtester/adapters/loadtesteradapter.h"
#include "loadtester/loadtestercontroller.h"

#include <QHash>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <optional>
#include <vector>

class AnnotationModel;

// Watches the load tester for what Chaoscope did not do, and puts it on the timelines:
// - a set-point changed from outside (a colleague's curl, another dashboard): "rate 100 →
//   200 /s on starter-0, not by Chaoscope" — for backends with a change counter (the
//   starter); Locust's users and k6's VUs are live counts, not set-points;
// - a replica restarted (its change counter or its "sent" counter went back), with the
//   start-up values it came back with: "starter-0 restarted: rate 200 → 50 /s" — also when
//   discovery finds it again at another address (known by its instance name);
// - a replica that runs but sends nothing (seed 000's zombie starter: alive, not paused, a
//   rate above 0, and its "sent" counter standing still): a region from when it stopped to
//   when it sent again, and silentForMs() for the dock while it lasts.
// Changes Chaoscope makes are ActionAnnotator's; a poll that sees them is not reported again.
class LoadTesterWatch : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>; // UTC ms

    LoadTesterWatch(LoadTesterController *controller, AnnotationModel *annotations, QObject *parent = nullptr);

    void setClock(Clock clock) { m_clock = std::move(clock); }
    // How long "sent" may stand still before a running replica counts as silent.
    void setSilenceThresholdMs(qint64 ms) { m_silenceThresholdMs = ms; }
    // Changes of several replicas seen within this time become one annotation.
    void setCoalesceMs(int ms) { m_flush.setInterval(ms); }

    // How long this replica has sent nothing while it should have been sending; nullopt
    // while it sends, is paused, runs at rate 0, or has never been seen sending (a backend
    // without a "sent" counter).
    std::optional<qint64> silentForMs(int replica) const;

signals:
    void silenceChanged(int replica);

private:
    struct Replica
    {
        std::optional<LoadTesterStatus> known; // the last status seen, or Chaoscope's change
        std::optional<qint64> lastSent;
        qint64 lastProgressMs = 0; // when "sent" last moved (or sending was not due)
        bool sentMoves = false;    // "sent" was seen to move: the backend keeps it
        bool silent = false;
        quint64 silenceAnnotation = 0;                 // id of the open silence region, 0 when none
        std::optional<LoadTesterAction> pendingAction; // Chaoscope's, not confirmed by this replica
    };
    struct Pending
    {
        qint64 timeMs = 0;
        QString change; // "rate 100 → 200 /s", "restarted: rate 200 → 50 /s"
        bool restart = false;
        QStringList instances;
    };

    void onStatus(int replica);
    void compare(Replica &watched, const LoadTesterStatus &before, const LoadTesterStatus &now, int replica);
    void onActionFinished(const ActionReport &report);
    void endSilence(int replica, const QString &name);
    void noteChange(const QString &instance, const QString &change, bool restart);
    void flush();
    void watchSilence(int replica, const LoadTesterStatus &status);
    QString describeChanges(const LoadTesterStatus &before, const LoadTesterStatus &after) const;

    LoadTesterController *m_controller;
    AnnotationModel *m_annotations;
    Clock m_clock;
    qint64 m_silenceThresholdMs = 5000;
    std::vector<Replica> m_replicas;
    QHash<QString, LoadTesterStatus> m_lastSeen; // by instance: replicas of an earlier set
    bool m_actionInFlight = false;
    std::vector<Pending> m_pending;
    QTimer m_flush;
};
