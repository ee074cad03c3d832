// SPDX-License-Identifier: GPL-3.0-or-later
#include "bearertoken.h"

#include <QFile>

BearerToken::BearerToken(QByteArray token) : m_token(std::move(token)) {}

bool BearerToken::load(const QString &path, BearerToken *token, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the admin token file %1: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray value = file.readLine(4096).trimmed();
    if (value.isEmpty()) {
        *error = QStringLiteral("the admin token file %1 holds no token").arg(path);
        return false;
    }
    for (const char c : value) {
        // A token must fit into an HTTP header as it is.
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
            *error = QStringLiteral("the admin token in %1 contains white space or non-ASCII "
                                    "characters")
                         .arg(path);
            return false;
        }
    }
    *token = BearerToken(value);
    return true;
}

bool BearerToken::accepts(const QByteArray &authorizationHeader) const
{
    if (!isEnabled())
        return true;
    const QByteArray header = authorizationHeader.trimmed();
    static const QByteArray scheme = "bearer ";
    if (header.size() < scheme.size() || header.left(scheme.size()).toLower() != scheme)
        return false;
    return constantTimeEquals(header.mid(scheme.size()).trimmed(), m_token);
}

bool BearerToken::constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    const qsizetype length = std::max(a.size(), b.size());
    unsigned char difference = a.size() == b.size() ? 0 : 1;
    for (qsizetype i = 0; i < length; ++i) {
        const auto x = static_cast<unsigned char>(i < a.size() ? a.at(i) : 0);
        const auto y = static_cast<unsigned char>(i < b.size() ? b.at(i) : 0);
        difference |= static_cast<unsigned char>(x ^ y);
    }
    return difference == 0;
}
