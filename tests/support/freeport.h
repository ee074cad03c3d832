// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// A TCP port on 127.0.0.1 that was free a moment ago (the OS picked it for a listener that
// is closed again). Good enough for starting a child process on it in a test.
quint16 freeLoopbackPort();
