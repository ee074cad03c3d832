// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Where the sources and the built binaries are, for tests that start real processes.
// Defined in testpaths.cpp, the one test file that is compiled with the checkout's paths:
// a path in a header would make every test's object differ between two clones of one
// commit, and none would come from the compiler cache.
QString sourcePath(const QString &relative);
QString binaryPath(const QString &relative);

inline QString chaoscopeBinary()
{
    return binaryPath(QStringLiteral("app/chaoscope"));
}
inline QString engineBinary()
{
    return binaryPath(QStringLiteral("testbed/engine/chaoscope-engine"));
}
inline QString starterBinary()
{
    return binaryPath(QStringLiteral("testbed/starter/chaoscope-starter"));
}
inline QString clusterBinary()
{
    return binaryPath(QStringLiteral("testbed/cluster/chaoscope-cluster"));
}
inline QString workerBinary()
{
    return binaryPath(QStringLiteral("testbed/worker/chaoscope-worker"));
}
