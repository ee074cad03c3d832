// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>

// The memory a starter's requests hold, as seed 000's Java starter held them: every request
// in flight (waiting for a connection or on one) keeps its request object, body and future,
// about 6 KiB (85,000 queued requests filled its 512 MiB heap). Our own requests are a few
// bytes, so the model, not the resident size, decides: that keeps the out-of-memory end of
// seed 000 reproducible in any build, with or without sanitizers.
class MemoryLimit
{
public:
    static constexpr qint64 defaultBytesPerRequest = 6LL * 1024;

    MemoryLimit(qint64 limitBytes, qint64 bytesPerRequest);

    bool isEnabled() const { return m_limit > 0; }
    qint64 limitBytes() const { return m_limit; }
    qint64 usedBytes(qint64 inflight) const { return inflight * m_perRequest; }
    bool isExceeded(qint64 inflight) const { return isEnabled() && usedBytes(inflight) > m_limit; }
    // The line the starter leaves when it dies of it.
    QString describe(qint64 inflight) const;

    // What the OOM killer's SIGKILL leaves as the exit code, and the cluster reads as
    // OOMKilled.
    static constexpr int exitCode = 137;

private:
    qint64 m_limit;
    qint64 m_perRequest;
};
