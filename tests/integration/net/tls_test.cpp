// SPDX-License-Identifier: GPL-3.0-or-later
// HTTPS to Prometheus and the admin endpoints: a server with a certificate of its own CA (made
// by the real openssl for this run) is refused by default with a message naming the problem,
// accepted once its CA is given (--ca-file), and accepted unverified only with --insecure,
// which the window and the terminal then say for as long as the app runs.
#include "annotations/annotationmodel.h"
#include "apprun.h"
#include "fetching/dashboardpoller.h"
#include "net/loadtesterhttp.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"
#include "waitfor.h"
#include "window/mainwindow.h"

#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <memory>

namespace {

// A self-signed certificate for 127.0.0.1 from the openssl command line tool.
bool makeCertificate(const QTemporaryDir &dir)
{
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
                  {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                   QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                   dir.filePath(QStringLiteral("key.pem")), QStringLiteral("-out"),
                   dir.filePath(QStringLiteral("cert.pem")), QStringLiteral("-days"), QStringLiteral("2"),
                   QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                   QStringLiteral("subjectAltName=IP:127.0.0.1")});
    return openssl.waitForFinished(60000) && openssl.exitStatus() == QProcess::NormalExit && openssl.exitCode() == 0;
}

// HTTPS on 127.0.0.1: every request gets one Prometheus vector, or a starter status under
// /admin/. One request per connection.
class TlsServer
{
public:
    bool start(const QTemporaryDir &dir)
    {
        QFile certFile(dir.filePath(QStringLiteral("cert.pem")));
        QFile keyFile(dir.filePath(QStringLiteral("key.pem")));
        if (!certFile.open(QIODevice::ReadOnly) || !keyFile.open(QIODevice::ReadOnly))
            return false;
        QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
        configuration.setLocalCertificate(QSslCertificate(&certFile, QSsl::Pem));
        configuration.setPrivateKey(QSslKey(&keyFile, QSsl::Rsa, QSsl::Pem));
        configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_server.setSslConfiguration(configuration);
        QObject::connect(&m_server, &QTcpServer::pendingConnectionAvailable, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [socket, buffer] {
                    *buffer += socket->readAll();
                    if (!buffer->contains("\r\n\r\n"))
                        return;
                    const QByteArray body =
                        buffer->contains(" /admin/")
                            ? QByteArray(R"({"rate":10,"inflightLimit":0,"inflight":0,"pending":0,"poolSize":100,)"
                                         R"("paused":false,"sent":"1","succeeded":"1","failed":"0","skipped":"0",)"
                                         R"("startedAt":"2026-01-01T00:00:00Z","instance":"tls:1","version":"1"})")
                            : QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[)"
                                         R"({"metric":{"__name__":"up"},"value":[1700000000,"1"]}]}})");
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                  "Content-Length: " +
                                  QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    socket->disconnectFromHost();
                });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        return m_server.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(QStringLiteral("https://127.0.0.1:%1/").arg(m_server.serverPort())); }

private:
    QSslServer m_server;
};

class Tls : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!QSslSocket::supportsSsl())
            GTEST_SKIP() << "no TLS backend";
        ASSERT_FALSE(QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty());
        ASSERT_TRUE(makeCertificate(dir));
        ASSERT_TRUE(server.start(dir));
        caFile = dir.filePath(QStringLiteral("cert.pem"));
        auto certificates = TlsSettings::readCaFile(caFile);
        ASSERT_TRUE(certificates.ok()) << qPrintable(certificates.error().message);
        ca = certificates.value();
    }
    void TearDown() override { LoadTesterHttp::setDefaultTls({}); }

    Result<PromQueryResult> query(const TlsSettings &tls)
    {
        PrometheusConnection connection;
        connection.baseUrl = server.url();
        connection.tls = tls;
        connection.retry.maxAttempts = 1;
        PrometheusClient client(connection);
        const auto result = awaitResult(client.instantQuery(QStringLiteral("up")), 30000);
        if (!result)
            return Error::make(Error::Kind::Timeout, QStringLiteral("no answer in the test's time"));
        return *result;
    }

    Result<HttpAnswer> adminStatus()
    {
        LoadTesterHttp http(QStringLiteral("the starter"), QStringLiteral("admin-token"));
        const auto result = awaitResult(
            http.send("GET", LoadTesterHttp::join(server.url(), QStringLiteral("admin/status")), 15000), 30000);
        if (!result)
            return Error::make(Error::Kind::Timeout, QStringLiteral("no answer in the test's time"));
        return *result;
    }

    QTemporaryDir dir;
    TlsServer server;
    QString caFile;
    QList<QSslCertificate> ca;
};

} // namespace

TEST_F(Tls, AnUntrustedCertificateIsRefusedWithTheReason)
{
    const auto refused = query({});
    ASSERT_FALSE(refused.ok());
    const QString message = refused.error().message;
    EXPECT_TRUE(message.contains(QStringLiteral("TLS certificate of Prometheus at https://127.0.0.1")))
        << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("self-signed"), Qt::CaseInsensitive)) << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("--ca-file"))) << qPrintable(message);

    const auto admin = adminStatus();
    ASSERT_FALSE(admin.ok());
    EXPECT_TRUE(admin.error().message.contains(QStringLiteral("TLS certificate of the starter")))
        << qPrintable(admin.error().message);
    EXPECT_TRUE(admin.error().message.contains(QStringLiteral("self-signed"), Qt::CaseInsensitive))
        << qPrintable(admin.error().message);
}

TEST_F(Tls, ItsCaMakesItTrusted)
{
    TlsSettings tls;
    tls.caCertificates = ca;
    const auto answered = query(tls);
    ASSERT_TRUE(answered.ok()) << qPrintable(answered.error().message);
    EXPECT_EQ(answered.value().series.size(), 1u);

    LoadTesterHttp::setDefaultTls(tls);
    const auto admin = adminStatus();
    ASSERT_TRUE(admin.ok()) << qPrintable(admin.error().message);
    EXPECT_EQ(admin.value().status, 200);
}

TEST_F(Tls, InsecureSkipsVerificationAndSaysSo)
{
    TlsSettings insecure;
    insecure.verifyPeer = false;
    const auto answered = query(insecure);
    ASSERT_TRUE(answered.ok()) << qPrintable(answered.error().message);

    // The window shows a banner as long as it exists.
    PrometheusConnection connection;
    connection.baseUrl = server.url();
    connection.tls = insecure;
    PrometheusClient client(connection);
    SampleStore store;
    TimeWindow window;
    AnnotationModel annotations;
    DashboardPoller poller(&client, &store, &window);
    MainWindow mainWindow(&client, &store, &window, &poller, &annotations);
    mainWindow.showDashboard({});
    mainWindow.show();
    auto *banner = mainWindow.findChild<QLabel *>(QStringLiteral("insecureTlsBanner"));
    ASSERT_NE(banner, nullptr);
    EXPECT_TRUE(banner->isVisible());
    EXPECT_TRUE(banner->text().contains(QStringLiteral("TLS certificate verification is off (--insecure)")));

    connection.tls = {};
    PrometheusClient verifying(connection);
    MainWindow verifiedWindow(&verifying, &store, &window, &poller, &annotations);
    EXPECT_EQ(verifiedWindow.findChild<QLabel *>(QStringLiteral("insecureTlsBanner")), nullptr);
}

// The app itself: a bad CA file stops it before anything runs; --insecure is said on stderr.
TEST_F(Tls, TheAppRefusesABadCaFileAndWarnsWhenInsecure)
{
    QFile notPem(dir.filePath(QStringLiteral("not.pem")));
    ASSERT_TRUE(notPem.open(QIODevice::WriteOnly));
    notPem.write("not a certificate\n");
    notPem.close();
    const AppRun bad = runChaoscope({QStringLiteral("--ca-file"), notPem.fileName(), QStringLiteral("--screenshot"),
                                     dir.filePath(QStringLiteral("x.png"))});
    EXPECT_EQ(bad.exitCode, 2) << qPrintable(bad.err);
    EXPECT_TRUE(bad.err.contains(QStringLiteral("--ca-file"))) << qPrintable(bad.err);
    EXPECT_TRUE(bad.err.contains(QStringLiteral("no PEM certificate"))) << qPrintable(bad.err);
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("x.png"))));

    const AppRun insecure =
        runChaoscope({QStringLiteral("--prometheus"), QStringLiteral("https://127.0.0.1:9/"),
                      QStringLiteral("--insecure"), QStringLiteral("--no-record"), QStringLiteral("--screenshot"),
                      dir.filePath(QStringLiteral("y.png")), QStringLiteral("--after"), QStringLiteral("1s")});
    EXPECT_TRUE(insecure.err.contains(QStringLiteral("TLS certificate verification is off (--insecure)")))
        << qPrintable(insecure.err);

    // A good CA file: nothing but the run's own lines (no Qt warning from reading it early).
    const AppRun trusted = runChaoscope({QStringLiteral("--prometheus"), QStringLiteral("https://127.0.0.1:9/"),
                                         QStringLiteral("--ca-file"), caFile, QStringLiteral("--no-record"),
                                         QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("z.png")),
                                         QStringLiteral("--after"), QStringLiteral("1s")});
    EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("z.png")))) << qPrintable(trusted.err);
    EXPECT_FALSE(trusted.err.contains(QStringLiteral("QObject::connect"))) << qPrintable(trusted.err);
}
