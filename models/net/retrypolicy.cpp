// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/retrypolicy.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <algorithm>
#include <cmath>

bool RetryPolicy::isTransient(const Error &error)
{
    switch (error.kind) {
    case Error::Kind::Network:
    case Error::Kind::Timeout:
        return true;
    case Error::Kind::Http:
        return error.httpStatus == 429 || error.httpStatus == 502 || error.httpStatus == 503 || error.httpStatus == 504;
    case Error::Kind::Query:
        // Prometheus says "timeout" when the query ran out of time (the next one may not,
        // once the server is less busy) and "unavailable" while it starts up or is loaded.
        return error.detail == QLatin1String("timeout") || error.detail == QLatin1String("unavailable");
    case Error::Kind::Parse:
    case Error::Kind::TooLarge:
    case Error::Kind::Invalid:
    case Error::Kind::Io:
    case Error::Kind::Cancelled:
        break;
    }
    return false;
}

std::optional<int> RetryPolicy::delayBeforeRetry(int failedAttempts, const Error &error,
                                                 const std::function<double()> &random01) const
{
    if (failedAttempts < 1 || failedAttempts >= m_settings.maxAttempts || !isTransient(error))
        return std::nullopt;
    if (error.retryAfterMs >= 0) {
        if (error.retryAfterMs > m_settings.maxRetryAfterMs)
            return std::nullopt; // the server asks for a long pause: the next refresh will do
        return error.retryAfterMs;
    }
    double delay = m_settings.initialDelayMs * std::pow(m_settings.multiplier, failedAttempts - 1);
    delay = std::min(delay, double(m_settings.maxDelayMs));
    const double random = random01 ? random01() : QRandomGenerator::global()->generateDouble();
    const double jitter = std::clamp(m_settings.jitter, 0.0, 1.0);
    delay *= 1.0 + jitter * (2.0 * std::clamp(random, 0.0, 1.0) - 1.0);
    return std::max(0, int(std::lround(delay)));
}

std::optional<int> RetryPolicy::parseRetryAfter(const QByteArray &header, qint64 nowMs)
{
    const QByteArray text = header.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qlonglong seconds = text.toLongLong(&ok);
    if (ok)
        return seconds < 0 ? std::nullopt : std::optional<int>(int(std::min<qlonglong>(seconds, 86'400) * 1000));
    // HTTP dates end in "GMT", which Qt's RFC 2822 reader does not take; it takes "+0000".
    QString dateText = QString::fromLatin1(text);
    if (dateText.endsWith(QLatin1String(" GMT")))
        dateText.replace(dateText.size() - 3, 3, QStringLiteral("+0000"));
    const QDateTime date = QDateTime::fromString(dateText, Qt::RFC2822Date);
    if (!date.isValid())
        return std::nullopt;
    return int(std::clamp<qint64>(date.toMSecsSinceEpoch() - nowMs, 0, 86'400'000));
}
