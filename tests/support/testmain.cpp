// SPDX-License-Identifier: GPL-3.0-or-later
// GoogleTest main for every suite: a QApplication exists for the whole run so that event
// loops, QSignalSpy::wait and widgets work.
//
// The environment of a test is set up here, not through ctest's ENVIRONMENT property:
// gtest_discover_tests() in CMake 3.25 passes only the first entry of a list-valued
// property on to the discovered tests. What is set here also reaches every process a test
// starts (the app, the testbed), which inherit it.
#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

// The sanitizers read these before main() runs, so the test binaries themselves get them
// from these hooks; the environment variables set in main() are for the child processes.
// The names are the sanitizer runtimes' documented entry points.
extern "C" {
const char *__asan_default_options() // NOLINT(bugprone-reserved-identifier)
{
    return "detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1";
}
const char *__ubsan_default_options() // NOLINT(bugprone-reserved-identifier)
{
    return "print_stacktrace=1:halt_on_error=1";
}
// Only read in a ThreadSanitizer build (./dev test --tsan).
const char *__tsan_default_options() // NOLINT(bugprone-reserved-identifier)
{
    return "suppressions=" CHAOSCOPE_TEST_SOURCE_DIR
           "/tests/tsan.supp:ignore_noninstrumented_modules=1:second_deadlock_stack=1:history_size=4";
}
}

namespace {

void setIfUnset(const char *name, const QByteArray &value)
{
    if (qEnvironmentVariableIsEmpty(name))
        qputenv(name, value);
}

} // namespace

int main(int argc, char **argv)
{
    setIfUnset("QT_QPA_PLATFORM", "offscreen");
    setIfUnset("QT_LOGGING_RULES", "qt.qpa.*=false");
    setIfUnset("ASAN_OPTIONS",
               "detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1");
    setIfUnset("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1");
    setIfUnset("TSAN_OPTIONS",
               "suppressions=" CHAOSCOPE_TEST_SOURCE_DIR
               "/tests/tsan.supp:ignore_noninstrumented_modules=1:second_deadlock_stack=1:history_size=4");
    setIfUnset("LSAN_OPTIONS", "suppressions=" CHAOSCOPE_TEST_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0");
    // Every live run of the app records a session into its data folder: the apps the tests
    // start record into a folder that goes away with the run, not into $HOME.
    // The same for settings: a test never reads or changes the user's.
    QTemporaryDir dataHome;
    qputenv("XDG_DATA_HOME", QFile::encodeName(dataHome.path()));
    QTemporaryDir configHome;
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(configHome.path()));
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("chaoscope-tests"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
