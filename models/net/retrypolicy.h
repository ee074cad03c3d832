// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QtGlobal>
#include <functional>
#include <optional>

// When a failed request is worth sending again, and after how long. A source that is
// restarting, overloaded or behind a flaky proxy usually answers a moment later; a request
// the server understood and refused (a bad query, a 404) would fail again the same way, so
// it is never repeated. Pure: the caller owns the timer and the clock.
class RetryPolicy
{
public:
    struct Settings
    {
        int maxAttempts = 3;          // including the first; 1 = never retry
        int initialDelayMs = 500;     // before the second attempt
        double multiplier = 2.0;      // each further wait is this much longer
        int maxDelayMs = 10'000;      // no wait is longer, whatever the attempt
        double jitter = 0.2;          // each wait varies at random by up to ±this share, so
                                      // that many panels failing together do not retry together
        int maxRetryAfterMs = 60'000; // a server asking for a longer pause is not retried
    };

    RetryPolicy() = default;
    explicit RetryPolicy(Settings settings) : m_settings(settings) {}

    const Settings &settings() const { return m_settings; }

    // Whether the failure may go away by itself: no answer (refused, reset, timed out),
    // a gateway or overloaded server (502, 503, 504), too many requests (429), or
    // Prometheus' own "timeout" and "unavailable". Never another 4xx, a refused query
    // (bad_data, execution, …), an answer that does not parse, or one above the size cap.
    static bool isTransient(const Error &error);

    // How long to wait before attempt number failedAttempts + 1, or nothing when the request
    // should not be repeated. random01 gives a number in [0, 1) for the jitter (defaults to
    // QRandomGenerator); a server's Retry-After wins over the computed wait.
    std::optional<int> delayBeforeRetry(int failedAttempts, const Error &error,
                                        const std::function<double()> &random01 = {}) const;

    // The wait a Retry-After header asks for: seconds ("120") or an HTTP date; nothing when
    // it is missing or does not parse. nowMs is the current time, for the date form.
    static std::optional<int> parseRetryAfter(const QByteArray &header, qint64 nowMs);

private:
    Settings m_settings;
};
