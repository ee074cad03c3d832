// SPDX-License-Identifier: GPL-3.0-or-later
// testbed/demo-stack --no-app as a newcomer runs it: it must come up (engine, starter and a
// Prometheus that scrapes both), and stop everything it started on SIGTERM and on Ctrl-C,
// leaving no orphan process and no temporary folder behind.
#include "testpaths.h"
#include "waitfor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <csignal>
#include <gtest/gtest.h>

namespace {

// True while the process exists and is not a zombie (a zombie has exited; only its parent
// has not collected it yet, which in a container may be a PID 1 that never does).
bool isRunning(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close >= 0 && text.size() > close + 2 && text.at(close + 2) != 'Z';
}

class DemoStackTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (QStandardPaths::findExecutable(QStringLiteral("prometheus")).isEmpty())
            GTEST_SKIP() << "prometheus is not installed";
        ASSERT_TRUE(QFileInfo(starterBinary()).isExecutable()) << "chaoscope-starter is not built";
        ASSERT_TRUE(QFileInfo(engineBinary()).isExecutable()) << "chaoscope-engine is not built";
        ASSERT_TRUE(m_out.isValid());
    }

    void TearDown() override
    {
        if (m_script.state() != QProcess::NotRunning) {
            m_script.kill();
            m_script.waitForFinished(5000);
        }
        for (const qint64 pid : m_pids) {
            if (isRunning(pid))
                ::kill(static_cast<pid_t>(pid), SIGKILL); // do not leave them to the next test
        }
    }

    // Starts the script (in its own session when `ownSession`, like a terminal's foreground
    // job) and waits for "demo-stack: ready"; collects the pids it reports.
    void startStack(bool ownSession)
    {
        QStringList arguments = {sourcePath(QStringLiteral("testbed/demo-stack")),
                                 QStringLiteral("--no-app"),
                                 QStringLiteral("--build"),
                                 binaryPath(QString()),
                                 QStringLiteral("--out"),
                                 m_out.path()};
        QString program = arguments.takeFirst();
        if (ownSession) {
            arguments.prepend(program);
            program = QStringLiteral("setsid");
        }
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TMPDIR"), m_tmp.path()); // to see what it leaves
        m_script.setProcessEnvironment(environment);
        m_script.setProcessChannelMode(QProcess::MergedChannels);
        m_script.start(program, arguments);
        ASSERT_TRUE(m_script.waitForStarted(5000));

        const bool ready = waitFor(
            [this] {
                m_output += m_script.readAll();
                return m_output.contains("demo-stack: ready\n") || m_script.state() != QProcess::Running;
            },
            60000, 100);
        ASSERT_TRUE(ready && m_output.contains("demo-stack: ready\n")) << m_output.constData();

        static const QRegularExpression pidPattern(
            QStringLiteral(R"(^demo-stack: (engine|starter|prometheus) +http://127\.0\.0\.1:\d+/ +pid (\d+))"),
            QRegularExpression::MultilineOption);
        auto matches = pidPattern.globalMatch(QString::fromUtf8(m_output));
        while (matches.hasNext()) {
            const QRegularExpressionMatch match = matches.next();
            m_pids << match.captured(2).toLongLong();
        }
        ASSERT_EQ(m_pids.size(), 3) << m_output.constData();
        for (const qint64 pid : m_pids)
            EXPECT_TRUE(isRunning(pid)) << pid;
        EXPECT_EQ(QDir(m_tmp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 1)
            << "the stack keeps its Prometheus data in one temporary folder";
    }

    void expectEverythingStopped()
    {
        ASSERT_TRUE(waitFor([this] { return m_script.state() == QProcess::NotRunning; }, 30000))
            << "demo-stack did not exit: " << m_output.constData();
        m_output += m_script.readAll();
        EXPECT_TRUE(m_output.contains("stopped everything")) << m_output.constData();
        // The children were terminated and waited for by the script; give the kernel a
        // moment to finish tearing them down, then none may be left.
        waitFor([this] { return std::none_of(m_pids.begin(), m_pids.end(), isRunning); }, 5000);
        for (const qint64 pid : m_pids)
            EXPECT_FALSE(isRunning(pid)) << "pid " << pid << " survived demo-stack";
        EXPECT_TRUE(QDir(m_tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty())
            << "temporary folders left behind";
        EXPECT_TRUE(QFileInfo::exists(m_out.filePath(QStringLiteral("engine.log"))));
    }

    QTemporaryDir m_out;
    QTemporaryDir m_tmp;
    QProcess m_script;
    QByteArray m_output;
    QList<qint64> m_pids;
};

} // namespace

TEST_F(DemoStackTest, SigtermStopsEveryChild)
{
    startStack(false);
    ASSERT_FALSE(HasFatalFailure());
    ::kill(static_cast<pid_t>(m_script.processId()), SIGTERM);
    expectEverythingStopped();
    EXPECT_EQ(m_script.exitCode(), 143) << "128 + SIGTERM";
}

TEST_F(DemoStackTest, CtrlCToTheProcessGroupStopsEveryChild)
{
    if (QStandardPaths::findExecutable(QStringLiteral("setsid")).isEmpty())
        GTEST_SKIP() << "setsid is not installed";
    startStack(true);
    ASSERT_FALSE(HasFatalFailure());
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    ::kill(-static_cast<pid_t>(m_script.processId()), SIGINT);
    expectEverythingStopped();
}
