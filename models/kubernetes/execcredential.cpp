// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/execcredential.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace {

constexpr qint64 kRenewBeforeMs = 60'000;

Error wrong(const QString &command, const QString &what)
{
    return Error::make(Error::Kind::Parse,
                       QStringLiteral("the credential plugin %1 printed %2, not an ExecCredential").arg(command, what));
}

} // namespace

Result<ExecCredential> ExecCredential::parse(const QByteArray &output, const QString &command)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(output, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return wrong(command, QStringLiteral("something that is not JSON"));
    const QJsonObject root = document.object();
    if (root.value(QLatin1String("kind")).toString() != QLatin1String("ExecCredential"))
        return wrong(command, QStringLiteral("JSON of kind \"%1\"").arg(root.value(QLatin1String("kind")).toString()));
    const QJsonObject status = root.value(QLatin1String("status")).toObject();
    ExecCredential credential;
    credential.token = status.value(QLatin1String("token")).toString();
    credential.clientCertificatePem = status.value(QLatin1String("clientCertificateData")).toString().toUtf8();
    credential.clientKeyPem = status.value(QLatin1String("clientKeyData")).toString().toUtf8();
    if (credential.token.isEmpty() && (credential.clientCertificatePem.isEmpty() || credential.clientKeyPem.isEmpty()))
        return wrong(command,
                     QStringLiteral("an ExecCredential with neither a token nor a client certificate and key"));
    const QString expiry = status.value(QLatin1String("expirationTimestamp")).toString();
    if (!expiry.isEmpty()) {
        const QDateTime at = QDateTime::fromString(expiry, Qt::ISODateWithMs);
        if (!at.isValid())
            return wrong(command, QStringLiteral("an expirationTimestamp \"%1\" that is not RFC 3339").arg(expiry));
        credential.expiresAtMs = at.toMSecsSinceEpoch();
    }
    return credential;
}

bool ExecCredential::isStale(qint64 nowMs) const
{
    return expiresAtMs && nowMs >= *expiresAtMs - kRenewBeforeMs;
}
