// SPDX-License-Identifier: GPL-3.0-or-later
// The one wording table of transport failures, printed: every fault of every source reads
// "<who> at <where> <what happened>" in sentence case, with the kind a caller acts on, and
// sizes and durations as base/format writes them.
#include "net/transporterror.h"

#include <QStringList>
#include <gtest/gtest.h>

namespace {

using Fault = TransportFailure::Fault;

QString kindName(Error::Kind kind)
{
    switch (kind) {
    case Error::Kind::Network:
        return QStringLiteral("Network");
    case Error::Kind::Timeout:
        return QStringLiteral("Timeout");
    case Error::Kind::Http:
        return QStringLiteral("Http");
    case Error::Kind::Query:
        return QStringLiteral("Query");
    case Error::Kind::Parse:
        return QStringLiteral("Parse");
    case Error::Kind::TooLarge:
        return QStringLiteral("TooLarge");
    case Error::Kind::Invalid:
        return QStringLiteral("Invalid");
    case Error::Kind::Io:
        return QStringLiteral("Io");
    case Error::Kind::Cancelled:
        return QStringLiteral("Cancelled");
    }
    return {};
}

TransportFailure failure(Fault fault, const QString &who = QStringLiteral("the starter"))
{
    TransportFailure failure;
    failure.fault = fault;
    failure.who = who;
    failure.url = QUrl(QStringLiteral("http://user:secret@127.0.0.1:9600/admin/status?x=1#top"));
    failure.timeoutMs = 1500;
    failure.deadlineMs = 60'000;
    failure.limitBytes = 64ll * 1024 * 1024;
    failure.seenBytes = 1536ll * 1024 * 1024;
    return failure;
}

QString print(const TransportFailure &failure)
{
    const Error error = transportError(failure);
    QString line = kindName(error.kind) + QStringLiteral(": ") + error.message;
    if (error.httpStatus)
        line += QStringLiteral(" [HTTP %1]").arg(error.httpStatus);
    return line;
}

} // namespace

TEST(TransportError, EveryFaultInOneWording)
{
    QStringList printed;
    for (const Fault fault : {Fault::Refused, Fault::HostNotFound, Fault::NoAnswer, Fault::Closed, Fault::Cancelled}) {
        printed << print(failure(fault));
    }
    TransportFailure stalled = failure(Fault::Stalled);
    stalled.httpStatus = 200;
    printed << print(stalled);
    TransportFailure slow = failure(Fault::TooSlow);
    slow.httpStatus = 200;
    printed << print(slow);
    TransportFailure cut = failure(Fault::ClosedMidAnswer);
    cut.httpStatus = 200;
    printed << print(cut);
    TransportFailure tls = failure(Fault::Tls);
    tls.detail = QStringLiteral("The certificate is self-signed, and untrusted");
    printed << print(tls);
    TransportFailure loop = failure(Fault::RedirectLoop);
    loop.httpStatus = 302;
    loop.detail = QStringLiteral("Too many redirects");
    printed << print(loop);
    TransportFailure away = failure(Fault::RedirectAway);
    away.httpStatus = 301;
    away.detail = QStringLiteral("Insecure redirect");
    printed << print(away);
    TransportFailure large = failure(Fault::TooLarge);
    large.httpStatus = 200;
    printed << print(large);
    TransportFailure other = failure(Fault::Other);
    other.detail = QStringLiteral("Network access is disabled.");
    printed << print(other);

    const QString where = QStringLiteral("http://127.0.0.1:9600/admin/status");
    const QStringList expected{
        QStringLiteral("Network: The starter at %1 refused the connection; is it running, and are host and port "
                       "right?"),
        QStringLiteral("Network: The starter at %1 cannot be reached: the host 127.0.0.1 was not found; check the "
                       "URL."),
        QStringLiteral("Timeout: The starter at %1 did not answer within 1.5 s."),
        QStringLiteral("Network: The starter at %1 closed the connection without answering."),
        QStringLiteral("Cancelled: The request to the starter at %1 was cancelled."),
        QStringLiteral("Timeout: The starter at %1 stopped sending its answer for 1.5 s. [HTTP 200]"),
        QStringLiteral("Timeout: The starter at %1 did not finish its answer within 1 min; it arrives too slowly. "
                       "[HTTP 200]"),
        QStringLiteral("Network: The starter at %1 closed the connection in the middle of its answer. [HTTP 200]"),
        QStringLiteral("Network: The TLS certificate of the starter at %1 was not accepted: The certificate is "
                       "self-signed, and untrusted. Give its CA with --ca-file (or, on a test setup only, turn "
                       "verification off with --insecure)."),
        QStringLiteral("Http: The starter at %1 redirects in a loop (Too many redirects); enter the final URL "
                       "instead. [HTTP 302]"),
        QStringLiteral("Http: The starter at %1 redirects to another place (Insecure redirect); enter the final URL "
                       "instead. [HTTP 301]"),
        QStringLiteral("TooLarge: The starter at %1 sent an answer larger than the limit of 64 MiB (at least 1.5 "
                       "GiB); is this the right URL? [HTTP 200]"),
        QStringLiteral("Network: The starter at %1 could not be reached: Network access is disabled."),
    };
    ASSERT_EQ(printed.size(), expected.size());
    for (qsizetype i = 0; i < printed.size(); ++i)
        EXPECT_EQ(printed[i], expected[i].arg(where)) << i;
}

TEST(TransportError, EachSourceIsNamedTheSameWay)
{
    for (const char *who : {"Prometheus", "the starter", "Locust", "k6"}) {
        const QString name = QString::fromLatin1(who);
        const QString subject = name == QLatin1String("the starter") ? QStringLiteral("The starter") : name;
        EXPECT_EQ(transportError(failure(Fault::Refused, name)).message,
                  subject + QStringLiteral(" at http://127.0.0.1:9600/admin/status refused the connection; is it "
                                           "running, and are host and port right?"));
    }
}

TEST(TransportError, AnInvalidUrlNamesWhoseItIsAndNoSecret)
{
    TransportFailure invalid;
    invalid.fault = Fault::InvalidUrl;
    invalid.who = QStringLiteral("Prometheus");
    invalid.url = QUrl(QStringLiteral("localhost:9090"));
    const Error error = transportError(invalid);
    EXPECT_EQ(error.kind, Error::Kind::Invalid);
    EXPECT_EQ(
        error.message,
        QStringLiteral("The URL of Prometheus, \"localhost:9090\", is not an http:// or https:// URL with a host."));

    invalid.url = QUrl(QStringLiteral("ftp://alice:pw@host/"));
    EXPECT_EQ(transportError(invalid).message,
              QStringLiteral("The URL of Prometheus, \"ftp://host/\", is not an http:// or https:// URL with a host."));
}

TEST(TransportError, TheAdviceForTooLargeIsTheCallers)
{
    TransportFailure large = failure(Fault::TooLarge, QStringLiteral("Prometheus"));
    large.limitBytes = 4 * 1024 * 1024;
    large.seenBytes = 4 * 1024 * 1024 + 262'144;
    large.tooLargeAdvice = QStringLiteral("narrow the query, choose a larger step, or raise the limit.");
    EXPECT_EQ(transportError(large).message,
              QStringLiteral("Prometheus at http://127.0.0.1:9600/admin/status sent an answer larger than the limit of "
                             "4 MiB (at least 4.25 MiB); narrow the query, choose a larger step, or raise the limit."));
}

TEST(TransportError, OneRuleForWhatIsATransportFailure)
{
    using E = QNetworkReply::NetworkError;
    // No HTTP status: whatever Qt says, there was no answer to read.
    EXPECT_TRUE(TransportFailure::isTransportFailure(E::ConnectionRefusedError, 0));
    EXPECT_TRUE(TransportFailure::isTransportFailure(E::ProtocolFailure, 0));
    EXPECT_TRUE(TransportFailure::isTransportFailure(E::ContentNotFoundError, 0));
    // A status arrived, then the connection broke, timed out or was aborted: still no answer.
    EXPECT_TRUE(TransportFailure::isTransportFailure(E::RemoteHostClosedError, 200));
    EXPECT_TRUE(TransportFailure::isTransportFailure(E::OperationCanceledError, 200));
    EXPECT_TRUE(TransportFailure::isTransportFailure(E::ProxyConnectionRefusedError, 200));
    // A 4xx/5xx is an answer for the caller to read.
    EXPECT_FALSE(TransportFailure::isTransportFailure(E::ContentNotFoundError, 404));
    EXPECT_FALSE(TransportFailure::isTransportFailure(E::InternalServerError, 500));
    EXPECT_FALSE(TransportFailure::isTransportFailure(E::ServiceUnavailableError, 503));
    EXPECT_FALSE(TransportFailure::isTransportFailure(E::NoError, 200));

    EXPECT_EQ(TransportFailure::faultOf(E::OperationCanceledError, 0), Fault::NoAnswer); // Qt 6.4's transfer timeout
    EXPECT_EQ(TransportFailure::faultOf(E::OperationCanceledError, 200), Fault::Stalled);
    EXPECT_EQ(TransportFailure::faultOf(E::RemoteHostClosedError, 0), Fault::Closed);
    EXPECT_EQ(TransportFailure::faultOf(E::RemoteHostClosedError, 200), Fault::ClosedMidAnswer);
}
