// SPDX-License-Identifier: GPL-3.0-or-later
#include "memorylimit.h"

MemoryLimit::MemoryLimit(qint64 limitBytes, qint64 bytesPerRequest) : m_limit(limitBytes), m_perRequest(bytesPerRequest)
{}

QString MemoryLimit::describe(qint64 inflight) const
{
    const auto mib = [](qint64 bytes) { return QString::number(double(bytes) / 1048576.0, 'f', 1); };
    return QStringLiteral("out of memory: %1 requests in flight hold %2 MiB (%3 bytes each), over "
                          "the memory limit of %4 MiB (--memory-limit); exiting with %5, as the "
                          "OOM killer would")
        .arg(inflight)
        .arg(mib(usedBytes(inflight)))
        .arg(m_perRequest)
        .arg(mib(m_limit))
        .arg(exitCode);
}
