// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QList>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>
#include <QSslKey>
#include <QString>
#include <optional>
#include <utility>

class QNetworkRequest;

// How HTTPS peers are checked, for Prometheus and the load tester's admin endpoint alike.
// Verification is on unless the user turned it off on purpose (--insecure); --ca-file adds
// the certificates of a private CA to the system's.
struct TlsSettings
{
    QList<QSslCertificate> caCertificates; // trusted besides the system's
    bool verifyPeer = true;                // false only with --insecure
    // Who we are, for a server that asks (a kubeconfig's client-certificate); none: nobody.
    // Optional, not two null members: a QSslKey made before the application exists (options
    // are parsed before it for --import-grafana) starts Qt's TLS backend too early.
    std::optional<std::pair<QSslCertificate, QSslKey>> clientIdentity;

    // Sets the request's TLS configuration: the system's CAs plus ours, verification on or off.
    void applyTo(QNetworkRequest &request) const;

    // The certificates of a PEM file; an error a user can act on when the file cannot be read
    // or holds no certificate.
    static Result<QList<QSslCertificate>> readCaFile(const QString &path);

    // A client certificate and its key from PEM (an RSA or an EC key); an error saying which
    // part does not parse, without its contents.
    static Result<std::pair<QSslCertificate, QSslKey>>
    readClientIdentity(const QByteArray &certificatePem, const QByteArray &keyPem, const QString &origin);

    // "The certificate is self-signed, and untrusted; the host name did not match …": what
    // QNetworkReply::sslErrors reported, for a message naming the problem.
    static QString describe(const QList<QSslError> &errors);
};
