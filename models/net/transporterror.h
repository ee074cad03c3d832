// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QNetworkReply>
#include <QString>
#include <QUrl>
#include <QtGlobal>

// What went wrong below HTTP, or instead of a usable HTTP answer, with any source Chaoscope
// talks to (Prometheus, the starter, Locust, k6). One table words them all, so that the same
// failure reads the same whoever it happened with: "<who> at <where> <what happened>", in
// sentence case, where <where> is the URL the request went to without user info and query.
struct TransportFailure
{
    enum class Fault
    {
        InvalidUrl,      // not an http(s) URL with a host: nothing was sent
        Refused,         // nobody listens there
        HostNotFound,    // the name does not resolve
        NoAnswer,        // silence for timeoutMs before any answer
        Stalled,         // silence for timeoutMs in the middle of an answer
        TooSlow,         // the whole answer took longer than deadlineMs
        Closed,          // the connection closed before any answer
        ClosedMidAnswer, // the connection closed (or was reset) in the middle of an answer
        Tls,             // the certificate was not accepted
        RedirectLoop,    // too many redirects
        RedirectAway,    // a redirect to another origin, not followed (credentials stay here)
        TooLarge,        // the answer is larger than the cap
        Cancelled,       // the caller no longer wanted it
        Other,           // anything else Qt reports; its words go into `detail`
    };

    Fault fault = Fault::Other;
    QString who;            // "Prometheus", "the starter", "Locust", "k6"
    QUrl url;               // where the request went
    int httpStatus = 0;     // of the answer that was under way, 0 if none
    int timeoutMs = 0;      // NoAnswer, Stalled
    int deadlineMs = 0;     // TooSlow
    qint64 limitBytes = 0;  // TooLarge: the cap
    qint64 seenBytes = 0;   // TooLarge: announced or received so far
    QString detail;         // Tls: the certificate problems; redirects, Other: Qt's words
    QString tooLargeAdvice; // TooLarge: what to do about it; empty: "is this the right URL?"

    // Which fault a finished QNetworkReply's error is, given the HTTP status it carried.
    static Fault faultOf(QNetworkReply::NetworkError error, int httpStatus);
    // The one rule for what is a transport failure rather than an HTTP answer for the caller
    // to read: any error without an HTTP status, and the errors below the content errors
    // (refused, reset, timed out, TLS, redirects, proxy) even when a status had arrived. A
    // 4xx/5xx is an answer: Qt's ContentNotFoundError, InternalServerError … are not failures.
    static bool isTransportFailure(QNetworkReply::NetworkError error, int httpStatus);

    // <where> as every message writes it: the URL without user info, query and fragment.
    static QString displayUrl(const QUrl &url);
};

// The one wording table: the Error (kind, message, HTTP status) a user reads for a failure.
// Kinds: Invalid; Network (refused, host not found, closed, TLS, other); Timeout (no answer,
// stalled, too slow); Http (redirects: the server answered, the URL is wrong); TooLarge;
// Cancelled. Durations and sizes are written by base/format ("1.5 s", "64 MiB").
Error transportError(const TransportFailure &failure);
