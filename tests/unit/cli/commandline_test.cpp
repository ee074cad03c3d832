// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commandline.h"
#include "fetching/dashboardpoller.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {
Result<AppOptions> parse(QStringList args)
{
    args.prepend(QStringLiteral("chaoscope"));
    return parseCommandLine(args);
}

// Sets an environment variable for one scope and restores what was there.
class ScopedEnv
{
public:
    ScopedEnv(const char *name, const QByteArray &value)
        : m_name(name), m_had(qEnvironmentVariableIsSet(name)), m_old(qgetenv(name))
    {
        qputenv(name, value);
    }
    ~ScopedEnv()
    {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }

private:
    const char *m_name;
    bool m_had;
    QByteArray m_old;
};

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    QFile file(dir.filePath(name));
    file.open(QIODevice::WriteOnly);
    file.write(content);
    return file.fileName();
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
    const auto options = parse(
        {QStringLiteral("--prometheus"), QStringLiteral("http://host:9090/prom/"), QStringLiteral("--screenshot"),
         QStringLiteral("out.png"), QStringLiteral("--after"), QStringLiteral("1m30s"), QStringLiteral("--header"),
         QStringLiteral("X-Scope-OrgID: team-a"), QStringLiteral("--window"), QStringLiteral("1h")});
    ASSERT_TRUE(options.ok()) << options.error().message.toStdString();
    EXPECT_EQ(options->prometheus.baseUrl.path(), QStringLiteral("/prom/"));
    EXPECT_EQ(options->screenshotAfterMs, 90'000);
    ASSERT_EQ(options->prometheus.extraHeaders.size(), 1);
    EXPECT_EQ(options->prometheus.extraHeaders.first().first, QByteArray("X-Scope-OrgID"));
    EXPECT_EQ(options->prometheus.extraHeaders.first().second, QByteArray("team-a"));
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
    bad = parse({QStringLiteral("--detail"), QStringLiteral("lots")});
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("--detail"))) << bad.error().message.toStdString();
    EXPECT_FALSE(parse({QStringLiteral("--detail"), QStringLiteral("0")}).ok());
}

TEST(CommandLine, DetailIsPointsPerColumnOrRaw)
{
    EXPECT_EQ(parse({})->detailPointsPerColumn, DashboardPoller::kDetailPointsPerColumn);
    EXPECT_EQ(parse({QStringLiteral("--detail"), QStringLiteral("4")})->detailPointsPerColumn, 4);
    EXPECT_EQ(parse({QStringLiteral("--detail"), QStringLiteral("raw")})->detailPointsPerColumn, 0);
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
    // As the desktop entry and a file manager pass it: the file alone.
    const auto opened = parse({QStringLiteral("/home/me/day1.chaoscope")});
    ASSERT_TRUE(opened.ok()) << opened.error().message.toStdString();
    EXPECT_EQ(opened->sessionPath, QStringLiteral("/home/me/day1.chaoscope"));
    EXPECT_FALSE(opened->record);
    const auto stray = parse({QStringLiteral("dashboard.json")});
    ASSERT_FALSE(stray.ok());
    EXPECT_EQ(stray.error().message, QStringLiteral("unexpected argument \"dashboard.json\"; a recording to open ends "
                                                    "in .chaoscope, anything else needs its option (see --help)"));
    EXPECT_FALSE(parse({QStringLiteral("a.chaoscope"), QStringLiteral("--scenario"), QStringLiteral("seed000")}).ok())
        << "a recording opened this way is offline too";

    auto bad = parse({QStringLiteral("--record"), QStringLiteral("a.chaoscope"), QStringLiteral("--no-record")});
    ASSERT_FALSE(bad.ok());
    bad = parse({QStringLiteral("--session"), QStringLiteral("a.chaoscope"), QStringLiteral("--scenario"),
                 QStringLiteral("seed000")});
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("--scenario"))) << bad.error().message.toStdString();
    bad = parse({QStringLiteral("--session"), QStringLiteral("a.chaoscope"), QStringLiteral("--admin"),
                 QStringLiteral("http://x:9600/")});
    ASSERT_FALSE(bad.ok());
}

TEST(CommandLine, RetentionBoundsMemoryAndMustBeADuration)
{
    const auto options = parse({QStringLiteral("--retention"), QStringLiteral("10m")});
    ASSERT_TRUE(options.ok()) << options.error().message.toStdString();
    EXPECT_EQ(options->retentionMs, 600'000);
    EXPECT_FALSE(parse({})->retentionMs.has_value()); // the store's default then

    const auto bad = parse({QStringLiteral("--retention"), QStringLiteral("forever")});
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("--retention")));
}

TEST(CommandLineSecurity, CredentialsComeFromFilesOrTheEnvironment)
{
    QTemporaryDir dir;
    const QString token = writeFile(dir, QStringLiteral("token"), "tok-123\n");
    const QString password = writeFile(dir, QStringLiteral("password"), "pa:ss word\n");
    {
        const ScopedEnv unset("CHAOSCOPE_PROMETHEUS_TOKEN", {});
        const auto fromFile = parse({QStringLiteral("--bearer-token-file"), token});
        ASSERT_TRUE(fromFile.ok()) << fromFile.error().message.toStdString();
        EXPECT_EQ(fromFile->prometheus.bearerToken, QStringLiteral("tok-123"));
    }
    {
        const ScopedEnv env("CHAOSCOPE_PROMETHEUS_TOKEN", "tok-env");
        const auto fromEnv = parse({});
        ASSERT_TRUE(fromEnv.ok());
        EXPECT_EQ(fromEnv->prometheus.bearerToken, QStringLiteral("tok-env"));
        const auto fileWins = parse({QStringLiteral("--bearer-token-file"), token});
        ASSERT_TRUE(fileWins.ok());
        EXPECT_EQ(fileWins->prometheus.bearerToken, QStringLiteral("tok-123"));
    }
    const auto basic = parse({QStringLiteral("--basic-auth-user"), QStringLiteral("me"),
                              QStringLiteral("--basic-auth-password-file"), password});
    ASSERT_TRUE(basic.ok()) << basic.error().message.toStdString();
    EXPECT_EQ(basic->prometheus.basicUser, QStringLiteral("me"));
    EXPECT_EQ(basic->prometheus.basicPassword, QStringLiteral("pa:ss word"));
    {
        const ScopedEnv env("CHAOSCOPE_PROMETHEUS_PASSWORD", "env-pass");
        const auto basicEnv = parse({QStringLiteral("--basic-auth-user"), QStringLiteral("me")});
        ASSERT_TRUE(basicEnv.ok());
        EXPECT_EQ(basicEnv->prometheus.basicPassword, QStringLiteral("env-pass"));
    }
    {
        const ScopedEnv unset("CHAOSCOPE_PROMETHEUS_PASSWORD", {});
        const auto noPassword = parse({QStringLiteral("--basic-auth-user"), QStringLiteral("me")});
        ASSERT_FALSE(noPassword.ok());
        EXPECT_TRUE(noPassword.error().message.contains(QStringLiteral("CHAOSCOPE_PROMETHEUS_PASSWORD")));
    }
    const auto empty = parse({QStringLiteral("--bearer-token-file"), writeFile(dir, QStringLiteral("empty"), "\n")});
    ASSERT_FALSE(empty.ok());
    EXPECT_TRUE(empty.error().message.contains(QStringLiteral("empty")));
}

TEST(CommandLineSecurity, SecretsOnTheCommandLineAreRefusedWithoutEchoingThem)
{
    const auto inline_ = parse({QStringLiteral("--basic-auth"), QStringLiteral("me:hunter2")});
    ASSERT_FALSE(inline_.ok());
    EXPECT_TRUE(inline_.error().message.contains(QStringLiteral("--basic-auth-user")));
    EXPECT_FALSE(inline_.error().message.contains(QStringLiteral("hunter2")));

    for (const QString &name :
         {QStringLiteral("Authorization"), QStringLiteral("proxy-authorization"), QStringLiteral("Cookie")}) {
        const auto header = parse({QStringLiteral("--header"), name + QStringLiteral(": Bearer hunter2")});
        ASSERT_FALSE(header.ok()) << qPrintable(name);
        EXPECT_TRUE(header.error().message.contains(QStringLiteral("--bearer-token-file")));
        EXPECT_FALSE(header.error().message.contains(QStringLiteral("hunter2")));
    }
    const auto userInfo = parse({QStringLiteral("--prometheus"), QStringLiteral("https://me:hunter2@prom.example/")});
    ASSERT_FALSE(userInfo.ok());
    EXPECT_TRUE(userInfo.error().message.contains(QStringLiteral("--basic-auth-user")));
    EXPECT_FALSE(userInfo.error().message.contains(QStringLiteral("hunter2")));
    const auto adminUserInfo = parse({QStringLiteral("--admin"), QStringLiteral("http://me:hunter2@127.0.0.1:9600/")});
    ASSERT_FALSE(adminUserInfo.ok());
    EXPECT_FALSE(adminUserInfo.error().message.contains(QStringLiteral("hunter2")));

    const auto badName = parse({QStringLiteral("--header"), QStringLiteral("X Bad: 1")});
    ASSERT_FALSE(badName.ok());
}

TEST(CommandLineSecurity, TlsVerificationIsOnUnlessInsecureIsGiven)
{
    const auto defaults = parse({});
    ASSERT_TRUE(defaults.ok());
    EXPECT_TRUE(defaults->prometheus.tls.verifyPeer);
    EXPECT_TRUE(defaults->prometheus.tls.caCertificates.isEmpty());
    const auto insecure = parse({QStringLiteral("--insecure")});
    ASSERT_TRUE(insecure.ok());
    EXPECT_FALSE(insecure->prometheus.tls.verifyPeer);

    QTemporaryDir dir;
    const auto missing = parse({QStringLiteral("--ca-file"), dir.filePath(QStringLiteral("nope.pem"))});
    ASSERT_FALSE(missing.ok());
    EXPECT_TRUE(missing.error().message.contains(QStringLiteral("--ca-file")));
    EXPECT_TRUE(missing.error().message.contains(QStringLiteral("nope.pem")));
    const auto notPem = parse({QStringLiteral("--ca-file"), writeFile(dir, QStringLiteral("bad.pem"), "hello\n")});
    ASSERT_FALSE(notPem.ok());
    EXPECT_TRUE(notPem.error().message.contains(QStringLiteral("no PEM certificate")));
}

TEST(CommandLineSecurity, AWindowStartedFromThisOneAuthenticatesTheSameWayWithoutASecretInItsArguments)
{
    QTemporaryDir dir;
    const QString token = writeFile(dir, QStringLiteral("token"), "tok-secret-123\n");
    const QString password = writeFile(dir, QStringLiteral("password"), "pass-secret-456\n");
    const auto bearer = parse({QStringLiteral("--prometheus"), QStringLiteral("https://prom.example:9090/"),
                               QStringLiteral("--bearer-token-file"), token, QStringLiteral("--header"),
                               QStringLiteral("X-Scope-OrgID: team-a"), QStringLiteral("--insecure")});
    ASSERT_TRUE(bearer.ok()) << bearer.error().message.toStdString();
    EXPECT_EQ(bearer->connectionArguments,
              (QStringList{QStringLiteral("--bearer-token-file"), token, QStringLiteral("--header"),
                           QStringLiteral("X-Scope-OrgID: team-a"), QStringLiteral("--insecure")}));
    const auto basic = parse({QStringLiteral("--basic-auth-user"), QStringLiteral("me"),
                              QStringLiteral("--basic-auth-password-file"), password});
    ASSERT_TRUE(basic.ok()) << basic.error().message.toStdString();
    EXPECT_EQ(basic->connectionArguments, (QStringList{QStringLiteral("--basic-auth-password-file"), password,
                                                       QStringLiteral("--basic-auth-user"), QStringLiteral("me")}));
    for (const auto *options : {&bearer.value(), &basic.value()}) {
        const QString joined = options->connectionArguments.join(QLatin1Char(' '));
        EXPECT_FALSE(joined.contains(QStringLiteral("secret"))) << joined.toStdString();
    }
    const auto none = parse({QStringLiteral("--prometheus"), QStringLiteral("http://127.0.0.1:9090/")});
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->connectionArguments.isEmpty());
}
