// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenauthenticator.h"

#include "bearertoken.h"

#include <QFile>

namespace {

// One CSV line with optional double quotes around a field.
QStringList csvFields(const QString &line)
{
    QStringList fields;
    QString current;
    bool quoted = false;
    for (const QChar c : line) {
        if (c == QLatin1Char('"'))
            quoted = !quoted;
        else if (c == QLatin1Char(',') && !quoted) {
            fields << current.trimmed();
            current.clear();
        } else
            current += c;
    }
    fields << current.trimmed();
    return fields;
}

bool isTokenText(const QByteArray &token)
{
    for (const char c : token)
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            return false;
    return !token.isEmpty();
}

} // namespace

std::optional<TokenAuthenticator> TokenAuthenticator::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the token file %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    std::optional<TokenAuthenticator> authenticator = parse(file.read(64LL * 1024), error);
    if (!authenticator)
        *error = QStringLiteral("the token file %1: %2").arg(path, *error);
    return authenticator;
}

std::optional<TokenAuthenticator> TokenAuthenticator::parse(const QByteArray &text, QString *error)
{
    TokenAuthenticator authenticator;
    int number = 0;
    for (const QByteArray &rawLine : text.split('\n')) {
        ++number;
        const QByteArray line = rawLine.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QStringList fields = csvFields(QString::fromUtf8(line));
        Entry entry;
        entry.token = fields.at(0).toUtf8();
        if (!isTokenText(entry.token)) {
            *error = QStringLiteral("line %1: the token is empty or holds white space or "
                                    "non-ASCII characters")
                         .arg(number);
            return std::nullopt;
        }
        if (fields.size() == 1) {
            entry.user.name = QStringLiteral("admin");
        } else {
            entry.user.name = fields.at(1);
            if (entry.user.name.isEmpty()) {
                *error = QStringLiteral("line %1: a user name is required after the token").arg(number);
                return std::nullopt;
            }
            if (fields.size() > 3)
                for (const QString &group : fields.mid(3).join(QLatin1Char(',')).split(QLatin1Char(',')))
                    if (!group.trimmed().isEmpty())
                        entry.user.groups << group.trimmed();
        }
        authenticator.m_entries << entry;
    }
    if (authenticator.m_entries.isEmpty()) {
        *error = QStringLiteral("it holds no token");
        return std::nullopt;
    }
    return authenticator;
}

std::optional<TokenAuthenticator::User> TokenAuthenticator::authenticate(const QByteArray &authorizationHeader) const
{
    if (!isEnabled())
        return User{QStringLiteral("system:anonymous"), {}};
    const QByteArray header = authorizationHeader.trimmed();
    static const QByteArray scheme = "bearer ";
    if (header.size() <= scheme.size() || header.left(scheme.size()).toLower() != scheme)
        return std::nullopt;
    const QByteArray token = header.mid(scheme.size()).trimmed();
    std::optional<User> found;
    // Every entry is compared, so the time does not tell which one (or none) matched.
    for (const Entry &entry : m_entries)
        if (BearerToken::constantTimeEquals(token, entry.token) && !found)
            found = entry.user;
    return found;
}
