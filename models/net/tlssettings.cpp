// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/tlssettings.h"

#include <QFile>
#include <QNetworkRequest>
#include <QSslSocket>

void TlsSettings::applyTo(QNetworkRequest &request) const
{
    if (caCertificates.isEmpty() && verifyPeer && !clientIdentity)
        return; // the default configuration: the system's CAs, verification on
    QSslConfiguration configuration = request.sslConfiguration();
    if (clientIdentity) {
        configuration.setLocalCertificate(clientIdentity->first);
        configuration.setPrivateKey(clientIdentity->second);
    }
    if (!caCertificates.isEmpty())
        configuration.addCaCertificates(caCertificates);
    if (!verifyPeer)
        configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    request.setSslConfiguration(configuration);
}

Result<std::pair<QSslCertificate, QSslKey>>
TlsSettings::readClientIdentity(const QByteArray &certificatePem, const QByteArray &keyPem, const QString &origin)
{
    const QSslCertificate certificate(certificatePem, QSsl::Pem);
    if (certificate.isNull())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("the client certificate of %1 is not a PEM certificate").arg(origin));
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec}) {
        const QSslKey key(keyPem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return std::make_pair(certificate, key);
    }
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("the client key of %1 is not a PEM RSA or EC private key").arg(origin));
}

Result<QList<QSslCertificate>> TlsSettings::readCaFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot read the CA file %1: %2").arg(path, file.errorString()));
    // A CA file is small; anything large is not one.
    const QByteArray pem = file.read(4LL * 1024 * 1024);
    const QList<QSslCertificate> certificates = QSslCertificate::fromData(pem, QSsl::Pem);
    if (certificates.isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("the CA file %1 holds no PEM certificate (\"-----BEGIN "
                                                                "CERTIFICATE-----\")")
                                                     .arg(path));
    for (const QSslCertificate &certificate : certificates) {
        if (certificate.isNull())
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("the CA file %1 holds a certificate that does not parse").arg(path));
    }
    return certificates;
}

QString TlsSettings::describe(const QList<QSslError> &errors)
{
    QStringList parts;
    for (const QSslError &error : errors) {
        const QString text = error.errorString();
        if (!parts.contains(text))
            parts << text;
    }
    return parts.join(QStringLiteral("; "));
}
