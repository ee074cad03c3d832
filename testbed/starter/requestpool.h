// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "requestdispatcher.h"

#include <QByteArray>
#include <chrono>
#include <curl/curl.h>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

struct LoadCounters;
class LatencyHistogram;

// A pool of keep-alive HTTP connections to the target, with a FIFO of requests waiting for
// one, the way the HTTP client of seed 000 works: at most `poolSize` transfers are on a
// connection (leased), the rest wait (pending), and every request has a deadline counted from
// its scheduling, after which it fails as status 599 wherever it is. The FIFO has a hard cap
// (`maxPending`) as the last line of defence against the unbounded queue of seed 000.
//
// libcurl's multi interface, because QNetworkAccessManager opens at most 6 connections per
// host. Not thread-safe: owned and driven by the scheduler thread; only wakeup() may be
// called from elsewhere.
class RequestPool : public RequestDispatcher
{
public:
    struct Options
    {
        QByteArray url;  // the full POST URL
        QByteArray body; // the JSON body of every request
        int poolSize = 100;
        std::chrono::milliseconds deadline{5000};
        qint64 maxPending = 100000;
    };

    RequestPool(Options options, LoadCounters &counters, LatencyHistogram &histogram);
    ~RequestPool() override;
    RequestPool(const RequestPool &) = delete;
    RequestPool &operator=(const RequestPool &) = delete;

    // Dropped when the FIFO is full.
    Admission submit(Clock::time_point scheduledAt) override;
    // Expires overdue pending requests, leases free connections to the FIFO's head, lets curl
    // do its work and records the finished transfers.
    void pump() override;
    void poll(std::chrono::milliseconds timeout) override;
    void wakeup() override;
    qint32 inflight() const override { return static_cast<qint32>(m_pending.size()) + m_leased; }
    std::optional<Clock::time_point> nextPendingDeadline() const override;

private:
    struct Transfer
    {
        CURL *easy = nullptr;
        Clock::time_point scheduledAt;
    };

    void expirePending(Clock::time_point now);
    void leaseConnections(Clock::time_point now);
    bool harvest();
    void finish(Clock::time_point scheduledAt, Clock::time_point now, int status);
    void publishGauges();
    void noteDropped();
    CURL *makeEasyHandle(Transfer *transfer);

    Options m_options;
    LoadCounters &m_counters;
    LatencyHistogram &m_histogram;
    CURLM *m_multi = nullptr;
    curl_slist *m_headers = nullptr;

    std::deque<Clock::time_point> m_pending;            // scheduling times, oldest first
    std::vector<std::unique_ptr<Transfer>> m_transfers; // one per connection, created lazily
    std::vector<Transfer *> m_idle;
    qint32 m_leased = 0;

    qint64 m_droppedSinceLog = 0;
    std::optional<Clock::time_point> m_lastDropLog;
};
