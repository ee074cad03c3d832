// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// A TCP port on 127.0.0.1 that was free a moment ago (a listener on it is closed again),
// outside the range the kernel gives outgoing connections. Good enough for starting a child
// process on it in a test.
quint16 freeLoopbackPort();
