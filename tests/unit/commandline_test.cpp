// SPDX-License-Identifier: GPL-3.0-or-later
#include "commandline.h"

#include <gtest/gtest.h>

namespace {
Result<AppOptions> parse(QStringList args)
{
    args.prepend(QStringLiteral("chaoscope"));
    return parseCommandLine(args);
}
} // namespace

TEST(CommandLine, Defaults)
{
    const auto options = parse({});
    ASSERT_TRUE(options.ok());
    EXPECT_EQ(options->prometheus.baseUrl, QUrl(QStringLiteral("http://127.0.0.1:9090/")));
    EXPECT_EQ(options->dashboard, QStringLiteral("prometheus-self"));
    EXPECT_TRUE(options->screenshotPath.isEmpty());
}

TEST(CommandLine, HeadlessAndConnectionOptions)
{
    const auto options = parse({QStringLiteral("--prometheus"), QStringLiteral("http://host:9090/prom/"),
                                QStringLiteral("--screenshot"), QStringLiteral("out.png"),
                                QStringLiteral("--after"), QStringLiteral("1m30s"),
                                QStringLiteral("--header"), QStringLiteral("X-Scope-OrgID: team-a"),
                                QStringLiteral("--basic-auth"), QStringLiteral("me:secret:colon"),
                                QStringLiteral("--window"), QStringLiteral("1h")});
    ASSERT_TRUE(options.ok()) << options.error().message.toStdString();
    EXPECT_EQ(options->prometheus.baseUrl.path(), QStringLiteral("/prom/"));
    EXPECT_EQ(options->screenshotAfterMs, 90'000);
    ASSERT_EQ(options->prometheus.extraHeaders.size(), 1);
    EXPECT_EQ(options->prometheus.extraHeaders.first().first, QByteArray("X-Scope-OrgID"));
    EXPECT_EQ(options->prometheus.extraHeaders.first().second, QByteArray("team-a"));
    EXPECT_EQ(options->prometheus.basicPassword, QStringLiteral("secret:colon"));
    EXPECT_EQ(options->windowMs, 3'600'000);
}

TEST(CommandLine, BadValuesNameTheOption)
{
    auto bad = parse({QStringLiteral("--after"), QStringLiteral("soon")});
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("--after")));
    bad = parse({QStringLiteral("--prometheus"), QStringLiteral("ftp://x")});
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("--prometheus")));
    bad = parse({QStringLiteral("--size"), QStringLiteral("big")});
    ASSERT_FALSE(bad.ok());
    bad = parse({QStringLiteral("--bearer-token-file"), QStringLiteral("/nonexistent/token")});
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("/nonexistent/token")));
    bad = parse({QStringLiteral("stray")});
    ASSERT_FALSE(bad.ok());
}

TEST(CommandLine, SessionsRecordByDefaultAndOpenOffline)
{
    const auto live = parse({});
    ASSERT_TRUE(live.ok());
    EXPECT_TRUE(live->record);
    EXPECT_TRUE(live->recordPath.isEmpty()) << "the default file in the sessions folder";
    const auto chosen = parse({QStringLiteral("--record"), QStringLiteral("/tmp/day1.chaoscope")});
    ASSERT_TRUE(chosen.ok());
    EXPECT_EQ(chosen->recordPath, QStringLiteral("/tmp/day1.chaoscope"));
    const auto off = parse({QStringLiteral("--no-record")});
    ASSERT_TRUE(off.ok());
    EXPECT_FALSE(off->record);
    const auto offline = parse({QStringLiteral("--session"), QStringLiteral("day1.chaoscope")});
    ASSERT_TRUE(offline.ok());
    EXPECT_EQ(offline->sessionPath, QStringLiteral("day1.chaoscope"));
    EXPECT_FALSE(offline->record) << "a recording is not recorded again";

    auto bad = parse({QStringLiteral("--record"), QStringLiteral("a.chaoscope"), QStringLiteral("--no-record")});
    ASSERT_FALSE(bad.ok());
    bad = parse({QStringLiteral("--session"), QStringLiteral("a.chaoscope"), QStringLiteral("--scenario"), QStringLiteral("seed000")});
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("--scenario"))) << bad.error().message.toStdString();
    bad = parse({QStringLiteral("--session"), QStringLiteral("a.chaoscope"), QStringLiteral("--admin"), QStringLiteral("http://x:9600/")});
    ASSERT_FALSE(bad.ok());
}
