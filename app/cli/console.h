// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// What a run says on stderr, one line each, as "chaoscope: …": where opening, connecting and
// the scenario report to a terminal and to CI logs.
namespace Console {

void say(const QString &message);

} // namespace Console
