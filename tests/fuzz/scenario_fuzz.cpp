// SPDX-License-Identifier: GPL-3.0-or-later
// Any bytes as a scenario file: the loader gives a scenario or the issues found, never a
// crash.
#include "scenario/scenario.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    (void)ScenarioLoader::fromJson(json);
    return 0;
}
