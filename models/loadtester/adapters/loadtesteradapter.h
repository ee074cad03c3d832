// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "loadtester/adapters/loadtesterstatus.h"

#include <QFuture>
#include <QObject>
#include <QString>
#include <QUrl>
#include <functional>
#include <memory>
#include <optional>

// One load tester replica reached over HTTP. Every call is asynchronous and answers with
// the status read back after the change (or the error, in words a user can act on: the
// HTTP status, the problem+json detail, or the network error). A reply that does not parse
// is an error, never a silent success. Futures finish on the adapter's thread.
class LoadTesterAdapter : public QObject
{
    Q_OBJECT
public:
    using Reply = QFuture<Result<LoadTesterStatus>>;

    explicit LoadTesterAdapter(QUrl baseUrl, QObject *parent = nullptr) : QObject(parent), m_baseUrl(std::move(baseUrl))
    {}
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
