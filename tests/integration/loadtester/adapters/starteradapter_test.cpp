// SPDX-License-Identifier: GPL-3.0-or-later
// The starter adapter against the real chaoscope-starter, which sends to the real
// chaoscope-engine: every change is read back and confirmed, a refusal comes back in the
// starter's words and changes nothing, and an unreachable or frozen starter is an error that
// names its URL.
#include "freeport.h"
#include "loadtester/adapters/starteradapter.h"
#include "loadtester/loadtestercontroller.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QFile>
#include <QTemporaryDir>
#include <cmath>
#include <csignal>
#include <gtest/gtest.h>
#include <limits>
#include <optional>
#include <sys/types.h>

namespace {

using Kind = Error::Kind;
using ActionKind = LoadTesterAction::Kind;

std::optional<Result<LoadTesterStatus>> await(const LoadTesterAdapter::Reply &reply, int timeoutMs = 15000)
{
    return awaitResult(reply, timeoutMs);
}

std::string describe(const std::optional<Result<LoadTesterStatus>> &status)
{
    if (!status)
        return "no answer";
    return status->ok() ? "a status" : status->error().message.toStdString();
}

class StarterAdapterTest : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_TRUE(m_engine.start(engineBinary(), {})) << m_engine.errorString().toStdString(); }

    // A starter sending at 20/s to the engine; extra arguments after the defaults win.
    void startStarter(const QStringList &extra = {})
    {
        const QStringList arguments{QStringLiteral("--target"),    m_engine.baseUrl(),
                                    QStringLiteral("--rate"),      QStringLiteral("20"),
                                    QStringLiteral("--pool-size"), QStringLiteral("8"),
                                    QStringLiteral("--max-rate"),  QStringLiteral("1000"),
                                    QStringLiteral("--instance"),  QStringLiteral("starter-a")};
        ASSERT_TRUE(m_starter.start(starterBinary(), arguments + extra)) << m_starter.errorString().toStdString();
    }

    QUrl starterUrl() const { return QUrl(m_starter.baseUrl()); }

    TestbedProcess m_engine;
    TestbedProcess m_starter;
};

TEST_F(StarterAdapterTest, ReadsTheStatus)
{
    startStarter();
    StarterAdapter adapter(starterUrl());
    const auto status = await(adapter.status());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    const LoadTesterStatus &s = status->value();
    EXPECT_EQ(s.rate, 20);
    EXPECT_EQ(s.inflightLimit, 0);
    EXPECT_EQ(s.poolSize, 8);
    EXPECT_TRUE(s.inflight.has_value());
    EXPECT_TRUE(s.pending.has_value());
    EXPECT_FALSE(s.paused);
    EXPECT_EQ(s.instance, QStringLiteral("starter-a"));
    EXPECT_EQ(s.version, 0);

    const LoadTesterCapabilities capabilities = adapter.capabilities();
    EXPECT_EQ(capabilities.kind, QStringLiteral("Chaoscope starter"));
    EXPECT_EQ(capabilities.rateUnit, QStringLiteral("/s"));
    EXPECT_TRUE(capabilities.canSetRate && capabilities.canSetInflightLimit && capabilities.canPause);
}

TEST_F(StarterAdapterTest, ChangesAreReadBackAndConfirmed)
{
    startStarter();
    StarterAdapter adapter(starterUrl());
    const LoadTesterCapabilities capabilities = adapter.capabilities();

    auto status = await(adapter.setRate(50.5));
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_TRUE(LoadTesterController::mismatch({ActionKind::SetRate, 50.5}, status->value(), capabilities).isEmpty());
    EXPECT_EQ(status->value().version, 1);

    status = await(adapter.setInflightLimit(5));
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_EQ(status->value().inflightLimit, 5);
    EXPECT_EQ(status->value().rate, 50.5);

    status = await(adapter.pause());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_TRUE(status->value().paused);
    EXPECT_EQ(status->value().state, QStringLiteral("paused"));

    status = await(adapter.resume());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_FALSE(status->value().paused);

    status = await(adapter.setInflightLimit(0));
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_EQ(status->value().inflightLimit, 0);

    // A fresh read agrees with what the changes answered.
    status = await(adapter.status());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_EQ(status->value().rate, 50.5);
    EXPECT_EQ(status->value().inflightLimit, 0);
    EXPECT_FALSE(status->value().paused);
    EXPECT_EQ(status->value().version, 5);
    // The starter logs every applied change with its old and new value.
    EXPECT_TRUE(waitFor([&] { return m_starter.log().contains(QStringLiteral("50.5")); }, 5000))
        << m_starter.log().toStdString();
}

TEST_F(StarterAdapterTest, ARefusedValueComesBackInTheStartersWordsAndChangesNothing)
{
    startStarter();
    StarterAdapter adapter(starterUrl());
    const auto refused = await(adapter.setRate(5000));
    ASSERT_TRUE(refused && !refused->ok());
    const Error &error = refused->error();
    EXPECT_EQ(error.kind, Kind::Query);
    EXPECT_EQ(error.httpStatus, 400);
    EXPECT_FALSE(error.detail.isEmpty());
    EXPECT_TRUE(error.detail.contains(QStringLiteral("1000"))) << error.detail.toStdString();
    EXPECT_EQ(error.message,
              QStringLiteral("The starter at %1 refused: %2 (400)").arg(m_starter.hostPort(), error.detail));
    EXPECT_FALSE(error.isSourceDown());

    const auto status = await(adapter.status());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_EQ(status->value().rate, 20);
    EXPECT_EQ(status->value().version, 0);
}

TEST_F(StarterAdapterTest, NegativeOrNonFiniteValuesAreRefusedBeforeSending)
{
    startStarter();
    StarterAdapter adapter(starterUrl());
    for (const double rate : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
        const auto refused = await(adapter.setRate(rate));
        ASSERT_TRUE(refused && !refused->ok());
        EXPECT_EQ(refused->error().kind, Kind::Invalid);
    }
    const auto limit = await(adapter.setInflightLimit(-3));
    ASSERT_TRUE(limit && !limit->ok());
    EXPECT_EQ(limit->error().kind, Kind::Invalid);
}

TEST_F(StarterAdapterTest, TheAdminTokenIsSentAndAWrongOneIsRefusedInWords)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QFile tokenFile(dir.filePath(QStringLiteral("token")));
    ASSERT_TRUE(tokenFile.open(QIODevice::WriteOnly));
    tokenFile.write("s3cret-token\n");
    tokenFile.close();
    tokenFile.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    startStarter({QStringLiteral("--admin-token-file"), tokenFile.fileName()});

    StarterAdapter right(starterUrl(), QStringLiteral("s3cret-token"));
    const auto ok = await(right.setRate(30));
    ASSERT_TRUE(ok && ok->ok()) << describe(ok);
    EXPECT_EQ(ok->value().rate, 30);

    StarterAdapter wrong(starterUrl(), QStringLiteral("guess"));
    const auto refused = await(wrong.setRate(40));
    ASSERT_TRUE(refused && !refused->ok());
    EXPECT_EQ(refused->error().httpStatus, 401);
    EXPECT_TRUE(refused->error().message.startsWith(
        QStringLiteral("The starter at %1 refused the admin token: ").arg(m_starter.hostPort())))
        << refused->error().message.toStdString();
    EXPECT_TRUE(refused->error().message.endsWith(QStringLiteral("(401)")));

    StarterAdapter without(starterUrl());
    const auto missing = await(without.status());
    ASSERT_TRUE(missing && !missing->ok());
    EXPECT_EQ(missing->error().httpStatus, 401);
    EXPECT_TRUE(missing->error().message.contains(QStringLiteral("needs an admin token")))
        << missing->error().message.toStdString();

    const auto status = await(right.status());
    ASSERT_TRUE(status && status->ok());
    EXPECT_EQ(status->value().rate, 30); // the refused change changed nothing
}

TEST_F(StarterAdapterTest, AStoppedStarterIsANetworkErrorWithItsUrl)
{
    startStarter();
    const QUrl url = starterUrl();
    ASSERT_EQ(m_starter.stop(), 0) << m_starter.log().toStdString();
    StarterAdapter adapter(url);
    const auto status = await(adapter.setRate(10));
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Network);
    EXPECT_TRUE(status->error().isSourceDown());
    EXPECT_EQ(status->error().message,
              QStringLiteral("The starter at %1/admin/rate refused the connection; is it running, and are host and "
                             "port right?")
                  .arg(url.toString()));
}

TEST_F(StarterAdapterTest, AFrozenStarterTimesOut)
{
    startStarter();
    StarterAdapter adapter(starterUrl());
    adapter.setTimeoutMs(500);
    // SIGSTOP: the port stays open and the kernel accepts the connection, but nobody answers.
    ASSERT_EQ(::kill(pid_t(m_starter.pid()), SIGSTOP), 0);
    const auto status = await(adapter.status());
    ::kill(pid_t(m_starter.pid()), SIGCONT);
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Timeout);
    EXPECT_EQ(status->error().message,
              QStringLiteral("The starter at %1/admin/status did not answer within 500 ms.").arg(m_starter.baseUrl()));

    // And it answers again once it runs.
    adapter.setTimeoutMs(5000);
    const auto again = await(adapter.status());
    ASSERT_TRUE(again && again->ok()) << describe(again);
}

TEST_F(StarterAdapterTest, APathPrefixIsKept)
{
    startStarter();
    // A starter behind a reverse proxy would be at http://host/starter/; the direct one with
    // a prefix answers 404, which must say so rather than look like a status.
    StarterAdapter adapter(QUrl(m_starter.baseUrl() + QStringLiteral("/starter/")));
    const auto status = await(adapter.status());
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().httpStatus, 404);
    EXPECT_TRUE(status->error().message.contains(QStringLiteral("/starter/admin/status")))
        << status->error().message.toStdString();
}

} // namespace
