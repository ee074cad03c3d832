// SPDX-License-Identifier: GPL-3.0-or-later
#include "processstats.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <sys/resource.h>
#include <unistd.h>

qint64 ProcessStats::residentMemoryBytes()
{
    QFile file(QStringLiteral("/proc/self/statm"));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = file.readAll().split(' ');
    if (fields.size() < 2)
        return 0;
    return fields.at(1).trimmed().toLongLong() * sysconf(_SC_PAGESIZE);
}

double ProcessStats::cpuSeconds()
{
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0;
    const auto seconds = [](const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

qint64 ProcessStats::peakResidentMemoryBytes()
{
    QFile file(QStringLiteral("/proc/self/status"));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        if (line.startsWith("VmHWM:")) {
            const QList<QByteArray> parts = line.mid(6).simplified().split(' ');
            return parts.value(0).toLongLong() * 1024; // reported in kB
        }
    }
    return 0;
}
