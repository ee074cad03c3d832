// SPDX-License-Identifier: GPL-3.0-or-later
// GoogleTest main for every suite: a QApplication exists for the whole run so that event
// loops, QSignalSpy::wait and widgets work. Tests run offscreen (set by ctest's environment).
#include <QApplication>

#include <gtest/gtest.h>

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("chaoscope-tests"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
