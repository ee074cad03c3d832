// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/transporterror.h"

#include "base/format.h"

namespace {

// "the starter" starts a sentence as "The starter"; "k6" stays as its authors write it.
QString sentenceStart(const QString &who)
{
    if (who.isEmpty() || !who.front().isLower() || who.startsWith(QLatin1String("k6")))
        return who;
    return who.front().toUpper() + who.mid(1);
}

} // namespace

TransportFailure::Fault TransportFailure::faultOf(QNetworkReply::NetworkError error, int httpStatus)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return Fault::Refused;
    case QNetworkReply::HostNotFoundError:
        return Fault::HostNotFound;
    case QNetworkReply::TimeoutError:
    case QNetworkReply::OperationCanceledError: // Qt 6.4 aborts on the transfer timeout like this
        return httpStatus != 0 ? Fault::Stalled : Fault::NoAnswer;
    case QNetworkReply::RemoteHostClosedError:
        return httpStatus != 0 ? Fault::ClosedMidAnswer : Fault::Closed;
    case QNetworkReply::SslHandshakeFailedError:
        return Fault::Tls;
    case QNetworkReply::TooManyRedirectsError:
        return Fault::RedirectLoop;
    case QNetworkReply::InsecureRedirectError:
        return Fault::RedirectAway;
    default:
        return Fault::Other;
    }
}

bool TransportFailure::isTransportFailure(QNetworkReply::NetworkError error, int httpStatus)
{
    return error != QNetworkReply::NoError && (httpStatus == 0 || error < QNetworkReply::ContentAccessDenied);
}

QString TransportFailure::displayUrl(const QUrl &url)
{
    return url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment);
}

Error transportError(const TransportFailure &failure)
{
    using Fault = TransportFailure::Fault;
    using Kind = Error::Kind;
    const QString subject = sentenceStart(failure.who);
    const QString where = TransportFailure::displayUrl(failure.url);
    const int status = failure.httpStatus;
    switch (failure.fault) {
    case Fault::InvalidUrl:
        return Error::make(Kind::Invalid,
                           QStringLiteral("The URL of %1, \"%2\", is not an http:// or https:// URL with a host.")
                               .arg(failure.who, failure.url.toDisplayString(QUrl::RemoveUserInfo)));
    case Fault::Refused:
        return Error::make(
            Kind::Network,
            QStringLiteral("%1 at %2 refused the connection; is it running, and are host and port right?")
                .arg(subject, where));
    case Fault::HostNotFound:
        return Error::make(Kind::Network,
                           QStringLiteral("%1 at %2 cannot be reached: the host %3 was not found; check the URL.")
                               .arg(subject, where, failure.url.host()));
    case Fault::NoAnswer:
        return Error::make(Kind::Timeout, QStringLiteral("%1 at %2 did not answer within %3.")
                                              .arg(subject, where, Format::duration(failure.timeoutMs)));
    case Fault::Stalled:
        return Error::make(Kind::Timeout,
                           QStringLiteral("%1 at %2 stopped sending its answer for %3.")
                               .arg(subject, where, Format::duration(failure.timeoutMs)),
                           status);
    case Fault::TooSlow:
        return Error::make(Kind::Timeout,
                           QStringLiteral("%1 at %2 did not finish its answer within %3; it arrives too slowly.")
                               .arg(subject, where, Format::duration(failure.deadlineMs)),
                           status);
    case Fault::Closed:
        return Error::make(Kind::Network,
                           QStringLiteral("%1 at %2 closed the connection without answering.").arg(subject, where));
    case Fault::ClosedMidAnswer:
        return Error::make(
            Kind::Network,
            QStringLiteral("%1 at %2 closed the connection in the middle of its answer.").arg(subject, where), status);
    case Fault::Tls:
        return Error::make(Kind::Network, QStringLiteral("The TLS certificate of %1 at %2 was not accepted: %3. Give "
                                                         "its CA with --ca-file (or, on a test setup only, turn "
                                                         "verification off with --insecure).")
                                              .arg(failure.who, where, failure.detail));
    case Fault::RedirectLoop:
        return Error::make(Kind::Http,
                           QStringLiteral("%1 at %2 redirects in a loop (%3); enter the final URL instead.")
                               .arg(subject, where, failure.detail),
                           status);
    case Fault::RedirectAway:
        // The server answered, it only sent us elsewhere: a configuration problem.
        return Error::make(Kind::Http,
                           QStringLiteral("%1 at %2 redirects to another place (%3); enter the final URL instead.")
                               .arg(subject, where, failure.detail),
                           status);
    case Fault::TooLarge:
        return Error::make(Kind::TooLarge,
                           QStringLiteral("%1 at %2 sent an answer larger than the limit of %3 (at least %4); %5")
                               .arg(subject, where, Format::bytes(failure.limitBytes), Format::bytes(failure.seenBytes),
                                    failure.tooLargeAdvice.isEmpty() ? QStringLiteral("is this the right URL?")
                                                                     : failure.tooLargeAdvice),
                           status);
    case Fault::Cancelled:
        return Error::make(Kind::Cancelled,
                           QStringLiteral("The request to %1 at %2 was cancelled.").arg(failure.who, where));
    case Fault::Other:
        break;
    }
    return Error::make(Kind::Network,
                       QStringLiteral("%1 at %2 could not be reached: %3").arg(subject, where, failure.detail), status);
}
