// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QList>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>
#include <QString>

class QNetworkRequest;

// How HTTPS peers are checked, for Prometheus and the load tester's admin endpoint alike.
// Verification is on unless the user turned it off on purpose (--insecure); --ca-file adds
// the certificates of a private CA to the system's.
struct TlsSettings
{
    QList<QSslCertificate> caCertificates; // trusted besides the system's
    bool verifyPeer = true;                // false only with --insecure

    // Sets the request's TLS configuration: the system's CAs plus ours, verification on or off.
    void applyTo(QNetworkRequest &request) const;

    // The certificates of a PEM file; an error a user can act on when the file cannot be read
    // or holds no certificate.
    static Result<QList<QSslCertificate>> readCaFile(const QString &path);

    // "The certificate is self-signed, and untrusted; the host name did not match …": what
    // QNetworkReply::sslErrors reported, for a message naming the problem.
    static QString describe(const QList<QSslError> &errors);
};
