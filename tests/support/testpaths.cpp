// SPDX-License-Identifier: GPL-3.0-or-later
#include "testpaths.h"

QString sourcePath(const QString &relative)
{
    return QStringLiteral(CHAOSCOPE_TEST_SOURCE_DIR "/") + relative;
}

QString binaryPath(const QString &relative)
{
    return QStringLiteral(CHAOSCOPE_TEST_BINARY_DIR "/") + relative;
}
