// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Where the sources and the built binaries are, for tests that start real processes.
inline QString sourcePath(const QString &relative)
{
    return QStringLiteral(CHAOSCOPE_TEST_SOURCE_DIR "/") + relative;
}
inline QString binaryPath(const QString &relative)
{
    return QStringLiteral(CHAOSCOPE_TEST_BINARY_DIR "/") + relative;
}
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
