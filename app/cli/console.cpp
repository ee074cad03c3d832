// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/console.h"

#include <cstdio>

namespace Console {

void say(const QString &message)
{
    std::fprintf(stderr, "chaoscope: %s\n", qPrintable(message));
}

} // namespace Console
