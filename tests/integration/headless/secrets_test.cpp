// SPDX-License-Identifier: GPL-3.0-or-later
// Secrets as a user hands them over (token files, environment variables) go to the servers
// that need them and nowhere else: the real app runs against a server that records every
// request, records its session, exports PNG, SVG and CSV, and then every file it could have
// written, and everything it printed, is searched for the secrets.
#include "apprun.h"
#include "faultserver.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QDateTime>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

using Reply = FaultServer::Reply;

const QByteArray kBearer = "tok-SECRET-bearer-4f1d9e";
const QByteArray kEnvBearer = "tok-SECRET-envbearer-77ab";
const QByteArray kAdminToken = "tok-SECRET-admin-c0ffee";
const QByteArray kBasicUser = "grafana-reader";
const QByteArray kPassword = "pw-SECRET-basic-9a7c31";
const QByteArray kEnvPassword = "pw-SECRET-envbasic-51e0";

// Prometheus' answers: any range query gets one flat series over the asked range, any instant
// query one sample; the admin endpoint answers a starter's status.
Reply answer(const FaultServer::Request &request)
{
    const QByteArray path = request.path();
    if (path.endsWith("/api/v1/query_range")) {
        const QUrlQuery params = request.params();
        const double start = params.queryItemValue(QStringLiteral("start")).toDouble();
        const double end = params.queryItemValue(QStringLiteral("end")).toDouble();
        const double step = std::max(params.queryItemValue(QStringLiteral("step")).toDouble(), (end - start) / 300);
        QList<QPair<double, QByteArray>> samples;
        for (double t = start; t <= end && step > 0; t += step)
            samples.append({t, "42"});
        return FaultServer::json(FaultServer::matrixBody(1, samples));
    }
    if (path.endsWith("/api/v1/query")) {
        const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
        return FaultServer::json(R"({"status":"success","data":{"resultType":"vector","result":[)"
                                 R"({"metric":{"__name__":"m"},"value":[)" +
                                 QByteArray::number(now, 'f', 3) + R"(,"42"]}]}})");
    }
    if (path.startsWith("/admin/"))
        return FaultServer::json(R"({"rate":10,"inflightLimit":0,"inflight":0,"pending":0,"poolSize":100,)"
                                 R"("paused":false,"sent":"5","succeeded":"5","failed":"0","skipped":"0",)"
                                 R"("startedAt":"2026-01-01T00:00:00Z","instance":"fault:1","version":"1"})");
    return FaultServer::json(R"({"status":"success","data":[]})");
}

class Secrets : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(scratch.isValid());
        ASSERT_TRUE(secrets.isValid());
        server.script("", FaultServer::Handler(answer));
        bearerFile = writeSecret(QStringLiteral("bearer"), kBearer);
        adminTokenFile = writeSecret(QStringLiteral("admin"), kAdminToken);
        passwordFile = writeSecret(QStringLiteral("password"), kPassword);
    }

    QString writeSecret(const QString &name, const QByteArray &secret)
    {
        QFile file(secrets.filePath(name));
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(secret + '\n');
        return file.fileName();
    }

    // The app as a user starts it, with its data, settings and cache folders in the scratch
    // folder. Not runChaoscope(): the server in this process must go on answering meanwhile.
    AppRun run(const QStringList &arguments, const QMap<QString, QString> &environment = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        for (const char *name : {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
            env.insert(QLatin1String(name), scratch.filePath(QString::fromLatin1(name).toLower()));
        env.remove(QStringLiteral("CHAOSCOPE_PROMETHEUS_TOKEN"));
        env.remove(QStringLiteral("CHAOSCOPE_PROMETHEUS_PASSWORD"));
        for (auto it = environment.begin(); it != environment.end(); ++it)
            env.insert(it.key(), it.value());
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(chaoscopeBinary(), arguments);
        AppRun result;
        if (!waitFor([&] { return process.state() == QProcess::NotRunning; }, 120000)) {
            process.kill();
            process.waitForFinished();
            result.err = QStringLiteral("timed out");
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        printed += result.out + result.err;
        return result;
    }

    QStringList common(const QString &exportFile) const
    {
        return {QStringLiteral("--prometheus"),
                server.url().toString(),
                QStringLiteral("--dashboard"),
                QStringLiteral("testbed"),
                QStringLiteral("--admin"),
                server.url().toString(),
                QStringLiteral("--admin-token-file"),
                adminTokenFile,
                QStringLiteral("--header"),
                QStringLiteral("X-Scope-OrgID: team-a"),
                QStringLiteral("--window"),
                QStringLiteral("5m"),
                QStringLiteral("--after"),
                QStringLiteral("4s"),
                QStringLiteral("--export"),
                scratch.filePath(QStringLiteral("out/") + exportFile)};
    }

    // Every Prometheus query since the last call carried this Authorization and the extra
    // header, and the admin calls the admin token: the secrets did go where they belong.
    void expectRequestsCarried(const QByteArray &authorization)
    {
        int queries = 0;
        int adminCalls = 0;
        for (const FaultServer::Request &request : std::as_const(server.requests)) {
            if (request.path().startsWith("/api/v1/query")) {
                ++queries;
                EXPECT_EQ(request.headers.value("authorization"), authorization) << request.target.constData();
                EXPECT_EQ(request.headers.value("x-scope-orgid"), "team-a") << request.target.constData();
            } else if (request.path().startsWith("/admin/")) {
                ++adminCalls;
                EXPECT_EQ(request.headers.value("authorization"), "Bearer " + kAdminToken);
            }
        }
        EXPECT_GT(queries, 0);
        EXPECT_GT(adminCalls, 0);
        server.requests.clear();
    }

    FaultServer server;
    QTemporaryDir scratch; // everything the app may write: searched
    QTemporaryDir secrets; // the secret files themselves: not searched
    QString bearerFile, adminTokenFile, passwordFile;
    QString printed;
};

} // namespace

TEST_F(Secrets, NeverWrittenToFilesOrOutput)
{
    // 1. Bearer token from a file; PNG; a named recording.
    AppRun first = run(common(QStringLiteral("chart.png")) +
                       QStringList{QStringLiteral("--bearer-token-file"), bearerFile, QStringLiteral("--record"),
                                   scratch.filePath(QStringLiteral("sessions/one.chaoscope"))});
    EXPECT_EQ(first.exitCode, 0) << qPrintable(first.err);
    expectRequestsCarried("Bearer " + kBearer);

    // 2. Bearer token from the environment; SVG; the default recording in the data folder.
    AppRun second = run(common(QStringLiteral("chart.svg")),
                        {{QStringLiteral("CHAOSCOPE_PROMETHEUS_TOKEN"), QString::fromLatin1(kEnvBearer)}});
    EXPECT_EQ(second.exitCode, 0) << qPrintable(second.err);
    expectRequestsCarried("Bearer " + kEnvBearer);

    // 3. Basic authentication, the password from a file; CSV.
    AppRun third = run(common(QStringLiteral("chart.csv")) +
                       QStringList{QStringLiteral("--basic-auth-user"), QString::fromLatin1(kBasicUser),
                                   QStringLiteral("--basic-auth-password-file"), passwordFile});
    EXPECT_EQ(third.exitCode, 0) << qPrintable(third.err);
    expectRequestsCarried("Basic " + (kBasicUser + ':' + kPassword).toBase64());

    // 4. Basic authentication, the password from the environment; one PNG per panel.
    AppRun fourth = run(common(QStringLiteral("{panel}.png")) +
                            QStringList{QStringLiteral("--basic-auth-user"), QString::fromLatin1(kBasicUser)},
                        {{QStringLiteral("CHAOSCOPE_PROMETHEUS_PASSWORD"), QString::fromLatin1(kEnvPassword)}});
    EXPECT_EQ(fourth.exitCode, 0) << qPrintable(fourth.err);
    expectRequestsCarried("Basic " + (kBasicUser + ':' + kEnvPassword).toBase64());

    // What was written, so that an empty search cannot pass for a clean one.
    QStringList written;
    QDirIterator files(scratch.path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (files.hasNext())
        written << files.next();
    const auto has = [&](const QString &suffix) {
        return std::any_of(written.begin(), written.end(), [&](const QString &f) { return f.endsWith(suffix); });
    };
    EXPECT_TRUE(has(QStringLiteral("out/chart.png"))) << qPrintable(written.join('\n'));
    EXPECT_TRUE(has(QStringLiteral("out/chart.svg"))) << qPrintable(written.join('\n'));
    EXPECT_TRUE(has(QStringLiteral("out/chart.csv"))) << qPrintable(written.join('\n'));
    EXPECT_TRUE(has(QStringLiteral("sessions/one.chaoscope"))) << qPrintable(written.join('\n'));
    EXPECT_GE(written.filter(QStringLiteral(".chaoscope")).size(), 4) << qPrintable(written.join('\n'));

    QList<QByteArray> needles{kBearer, kEnvBearer, kAdminToken, kPassword, kEnvPassword};
    for (const QByteArray &password : {kPassword, kEnvPassword}) {
        needles << (kBasicUser + ':' + password).toBase64();
        needles << password.toBase64();
    }
    for (const QByteArray &token : {kBearer, kEnvBearer, kAdminToken})
        needles << token.toBase64();
    for (const QString &path : std::as_const(written)) {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << qPrintable(path);
        const QByteArray content = file.readAll();
        for (const QByteArray &needle : needles)
            EXPECT_FALSE(content.contains(needle)) << needle.constData() << " in " << qPrintable(path);
        // Session files are protobuf: a secret in them would still be its plain bytes.
    }
    for (const QByteArray &needle : needles)
        EXPECT_FALSE(printed.toUtf8().contains(needle)) << needle.constData() << " printed:\n" << qPrintable(printed);
}
