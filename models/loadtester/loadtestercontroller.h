// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/generation.h"
#include "loadtester/adapters/loadtesteradapter.h"
#include "loadtester/loadtesteraction.h"

#include <QList>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>
#include <vector>

// Steers every replica of one load tester together: polls their status (every second by
// default), fans each action out to all of them, and reports each replica's outcome so that
// one failing replica is visible without hiding the others' success.
class LoadTesterController : public QObject
{
    Q_OBJECT
public:
    explicit LoadTesterController(QObject *parent = nullptr);
    ~LoadTesterController() override;

    // Takes ownership. All replicas are assumed to be of the same kind. An action in flight is
    // finished at once, with an error for the replicas that had not answered.
    void setReplicas(std::vector<std::unique_ptr<LoadTesterAdapter>> replicas);
    int replicaCount() const { return int(m_replicas.size()); }
    const LoadTesterAdapter *adapter(int replica) const; // nullptr when out of range
    LoadTesterCapabilities capabilities() const;

    void setPollIntervalMs(int ms);
    void startPolling();
    void stopPolling();

    // Latest status per replica (nullopt while unknown or failing) and the last poll error.
    std::optional<LoadTesterStatus> status(int replica) const;
    std::optional<Error> statusError(int replica) const;

    // Fans the action out; actionFinished() follows once every replica has answered (never
    // from inside apply()). Returns false (and does nothing) when another action is still in
    // flight or there are no replicas. An action a backend cannot do, or a value it cannot
    // take, is not refused here: each replica's outcome carries the reason.
    bool apply(const LoadTesterAction &action);
    bool isBusy() const { return m_busy; }

    // Whether `after` is what `action` asked for: empty when it is, otherwise what came back
    // instead ("rate read back as 450 /s, not 500 /s"). Rates compare within 1e-9 relative.
    static QString mismatch(const LoadTesterAction &action, const LoadTesterStatus &after,
                            const LoadTesterCapabilities &capabilities);

signals:
    void statusUpdated(int replica);
    void replicasChanged(); // setReplicas(): a different set (e.g. found by discovery)
    void actionStarted(const LoadTesterAction &action);
    void actionFinished(const ActionReport &report);

private:
    struct Replica;
    void pollAll();
    void onStatus(int replica, Generation::Ticket epoch, const Result<LoadTesterStatus> &status);
    void onActionAnswer(int replica, const Result<LoadTesterStatus> &result);
    void finishAction();

    std::vector<std::unique_ptr<Replica>> m_replicas;
    QTimer m_poll;
    bool m_busy = false;
    ActionReport m_report;   // of the action in flight
    int m_unanswered = 0;    // replicas the action in flight still waits for
    Generation m_generation; // advanced by setReplicas: answers of replaced replicas do not count
};
