// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "result.h"

#include <QFuture>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

// What a load tester reports about itself, in the vocabulary of the control panel. Fields a
// backend does not have stay empty.
struct LoadTesterStatus
{
    double rate = 0;                    // the "load" set-point: requests/s (starter), users
                                        // (Locust), VUs (k6)
    std::optional<int> inflightLimit;   // 0 = unlimited
    std::optional<int> inflight;
    std::optional<int> pending;
    std::optional<int> poolSize;
    std::optional<double> observedRate; // what it actually does, when it reports that (Locust total_rps)
    std::optional<double> failRatio;    // share of failed requests, 0..1, when reported (Locust fail_ratio)
    std::optional<double> maxRate;      // highest set-point the backend takes right now (k6 vus-max)
    std::optional<qint64> sent;         // requests handed out since start, when reported (starter)
    bool paused = false;
    QString state;                      // backend's own word: "running", "stopped", "spawning"…
    QString instance;                   // stable name of the replica
    qint64 version = -1;                // change counter, -1 when the backend has none
};

// Which controls a backend supports; a control it cannot do is disabled with the reason as
// its tooltip.
struct LoadTesterCapabilities
{
    QString kind;               // "Chaoscope starter", "Locust", "k6"
    QString rateLabel;          // "rate", "users", "VUs"
    QString rateUnit;           // "/s", "", ""
    bool canSetRate = true;
    QString rateUnavailable;
    bool canSetInflightLimit = true;
    QString inflightLimitUnavailable;
    bool canPause = true;
    QString pauseUnavailable;
};

// One load tester replica reached over HTTP. Every call is asynchronous and answers with
// the status read back after the change (or the error, in words a user can act on: the
// HTTP status, the problem+json detail, or the network error). A reply that does not parse
// is an error, never a silent success. Futures finish on the adapter's thread.
class LoadTesterAdapter : public QObject
{
    Q_OBJECT
public:
    using Reply = QFuture<Result<LoadTesterStatus>>;

    explicit LoadTesterAdapter(QUrl baseUrl, QObject *parent = nullptr)
        : QObject(parent), m_baseUrl(std::move(baseUrl)) {}
    ~LoadTesterAdapter() override = default;

    QUrl baseUrl() const { return m_baseUrl; }
    virtual LoadTesterCapabilities capabilities() const = 0;

    // Longest silence while waiting for (the rest of) one HTTP answer; applies to requests
    // sent from now on.
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    int timeoutMs() const { return m_timeoutMs; }

    virtual Reply status() = 0;
    virtual Reply setRate(double rate) = 0;
    virtual Reply setInflightLimit(int limit) = 0;
    virtual Reply pause() = 0;
    virtual Reply resume() = 0;

protected:
    using Settled = std::function<bool(const LoadTesterStatus &)>;
    // Reads status() every intervalMs until `settled` holds for it or deadlineMs has passed,
    // and answers the last status read (the caller judges whether it is what was asked) or
    // the first error. For backends whose changes take effect over time (Locust spawning).
    Reply readBackUntil(Settled settled, int deadlineMs, int intervalMs = 250);

    QUrl m_baseUrl;
    int m_timeoutMs = 5000;
};

// A reply that is already finished, for answers known without asking the backend (a control
// it does not have, a value it cannot take).
LoadTesterAdapter::Reply finishedReply(Result<LoadTesterStatus> result);

// Backends by name: "starter" (the Chaoscope admin API), "locust", "k6". Returns nullptr for
// an unknown kind. A non-empty bearerToken is sent as "Authorization: Bearer" to any backend:
// the starter checks it, and a reverse proxy in front of Locust or k6 may want one.
std::unique_ptr<LoadTesterAdapter> makeLoadTesterAdapter(const QString &kind, const QUrl &baseUrl,
                                                         const QString &bearerToken = {},
                                                         QObject *parent = nullptr);
