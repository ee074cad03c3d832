// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QString>
#include <optional>

// What a credential plugin prints: client.authentication.k8s.io ExecCredential, with a token
// or a client certificate and key, and when it expires.
struct ExecCredential
{
    QString token;
    QByteArray clientCertificatePem;
    QByteArray clientKeyPem;
    std::optional<qint64> expiresAtMs; // status.expirationTimestamp; none: good until refused

    // Parses the plugin's standard output; `command` names it in messages. The message never
    // holds the output (it is a secret).
    static Result<ExecCredential> parse(const QByteArray &output, const QString &command);
    // Whether it should be asked for again at `nowMs`: a minute before it expires, as kubectl.
    bool isStale(qint64 nowMs) const;
};
