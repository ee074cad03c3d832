// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

// The admin token of --admin-token-file. An empty token means "no authentication".
class BearerToken
{
public:
    BearerToken() = default;
    explicit BearerToken(QByteArray token);

    // Reads the first line of `path`, surrounding white space removed. False (with a message
    // for the operator in `error`) when the file cannot be read or holds no token.
    static bool load(const QString &path, BearerToken *token, QString *error);

    bool isEnabled() const { return !m_token.isEmpty(); }

    // Whether an Authorization header value carries this token. Always true when disabled.
    bool accepts(const QByteArray &authorizationHeader) const;

    // Compares in time that depends only on the lengths, never on where the first different
    // byte is, so the answer time does not leak the token byte by byte.
    static bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

private:
    QByteArray m_token;
};
