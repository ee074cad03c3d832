// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "net/tlssettings.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>
#include <QtGlobal>
#include <functional>
#include <optional>

class QNetworkAccessManager;
class QObject;

// One HTTP answer, whatever its status: the caller knows what its source's error bodies look
// like (Prometheus' JSON, the starter's problem+json, k6's JSON:API), the exchange does not.
struct HttpAnswer
{
    QUrl url; // where it came from, for messages
    int status = 0;
    QString reason;         // the status line's phrase: "Not Found"
    QByteArray contentType; // media type only, lower case: "application/problem+json"
    QByteArray body;
    std::optional<int> retryAfterMs; // a Retry-After header, as a pause

    bool isSuccess() const { return status >= 200 && status < 300; }
    // host:port, the short name of a replica in messages.
    QString hostPort() const;
    // The first characters of the body as text, for messages about answers that did not parse.
    QString bodySnippet(int maxChars = 80) const;
};

// What goes out.
struct HttpCall
{
    QByteArray method = "GET";
    QUrl url;
    QByteArray body;
    QByteArray contentType;   // of the body
    QByteArray authorization; // the Authorization header, empty for none (see Http::bearer)
    // Sent last, so they win (e.g. X-Scope-OrgID). Not secret: the command line shows them.
    QList<QPair<QByteArray, QByteArray>> headers;
    TlsSettings tls;
    // A stream (a Kubernetes watch): the body is handed to this piece by piece as it arrives,
    // and not kept; the answer then has an empty body. Only a success status is streamed, so
    // an error's body stays whole for its message. The body cap does not apply.
    std::function<void(const QByteArray &piece)> onBodyPiece;
};

// Who is asked, and how long and how much an answer may be: what the messages name and what
// the exchange enforces.
struct HttpTarget
{
    QString who;             // starts the messages: "Prometheus", "the starter", "Locust", "k6"
    int timeoutMs = 0;       // longest silence, before or within the answer; <= 0: Qt's default
    int deadlineMs = 0;      // longest time for the whole answer, however steadily it trickles; <= 0: none
    qint64 maxBodyBytes = 0; // answers above this are refused unread; <= 0: no cap
    QString tooLargeAdvice;  // the end of the too-large message; empty: "is this the right URL?"
};

namespace Http {

// One request and its answer. The future answers the HTTP answer, whatever its status, or
// the transport failure in the words of net/transporterror (refused, host not found, silent,
// trickling past the deadline, closed in the middle, TLS, redirects, too large). Request
// headers are set here and only here: Accept JSON, Chaoscope's User-Agent, the authorization
// (never sent on to another origin by a redirect), the transfer timeout, the TLS settings.
// The body is taken as it arrives, so that a flood is stopped near the cap. Cancelling the
// future aborts the transfer; destroying `owner` does too and cancels the future. `network`
// must outlive `owner`'s exchanges. Runs on owner's thread, which must be network's.
QFuture<Result<HttpAnswer>> exchange(QNetworkAccessManager *network, const HttpCall &call, const HttpTarget &target,
                                     QObject *owner);

// The error for a URL nothing can be sent to (not http:// or https://, no host), nothing
// for one that will do.
std::optional<Error> checkUrl(const QString &who, const QUrl &url);

// baseUrl + path, keeping a path prefix (http://host/prometheus/ + "api/v1/query") and the
// base URL's query (a gateway's ?tenant=…), dropping its fragment.
QUrl join(const QUrl &baseUrl, const QString &path);

// Authorization header values.
QByteArray bearer(const QString &token);
QByteArray basic(const QString &user, const QString &password);

// The failure a retry judges an exchange by: its transport error, or for an answer that is
// not a success an Http error with its status and Retry-After (429, 502, 503 and 504 are
// worth another try; see RetryPolicy). Nothing for a success.
std::optional<Error> retryReason(const Result<HttpAnswer> &result);

} // namespace Http
