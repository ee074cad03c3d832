// SPDX-License-Identifier: GPL-3.0-or-later
#include "processstats.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <unistd.h>

namespace {

QByteArray readProcFile(const char *path)
{
    QFile file(QString::fromLatin1(path));
    // /proc files report size 0, so readAll() (which reads until EOF) is the right call.
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace

ProcessStats ProcessStats::readSelf()
{
    ProcessStats stats;

    // /proc/self/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so
    // the fields are counted from the last ')'. utime and stime are fields 14 and 15.
    const QByteArray stat = readProcFile("/proc/self/stat");
    const qsizetype close = stat.lastIndexOf(')');
    if (close >= 0) {
        const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
        // After "comm" the list starts at field 3 (state), so utime is index 14 - 3 = 11.
        if (fields.size() > 12) {
            const double ticksPerSecond = static_cast<double>(sysconf(_SC_CLK_TCK));
            const double ticks = fields.at(11).toDouble() + fields.at(12).toDouble();
            if (ticksPerSecond > 0)
                stats.cpuSeconds = ticks / ticksPerSecond;
        }
    }

    // /proc/self/statm: "size resident shared ..." in pages.
    const QList<QByteArray> statm = readProcFile("/proc/self/statm").split(' ');
    if (statm.size() > 1)
        stats.residentBytes = statm.at(1).toLongLong() * static_cast<qint64>(sysconf(_SC_PAGESIZE));
    return stats;
}
