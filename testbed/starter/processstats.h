// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// The usual process metrics, read from the kernel when asked.
class ProcessStats
{
public:
    static qint64 residentMemoryBytes();     // 0 when /proc is not readable
    static double cpuSeconds();              // user + system
    static qint64 peakResidentMemoryBytes(); // VmHWM, 0 when unknown
};
