// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// This process's CPU time and resident memory from /proc/self, for the standard
// process_cpu_seconds_total and process_resident_memory_bytes metrics. Zero where /proc
// cannot be read (the metrics are then still well-formed).
struct ProcessStats
{
    double cpuSeconds = 0;
    qint64 residentBytes = 0;

    static ProcessStats readSelf();
};
