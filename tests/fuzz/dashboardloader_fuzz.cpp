// SPDX-License-Identifier: GPL-3.0-or-later
// Any bytes as a dashboard file: the loader gives a dashboard and a list of issues, never a
// crash.
#include "base/durationgrammar.h"
#include "dashboard/loader/dashboardloader.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    (void)DashboardLoader::fromJson(json);
    (void)DurationGrammar::parseMs(QString::fromUtf8(json.left(64)));
    return 0;
}
