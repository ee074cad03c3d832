// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// Bearer tokens from --token-file, in the kube-apiserver's --token-auth-file format: one
// `token,user,uid,"group1,group2"` per line; or a single token on the first line (user
// "admin"). A user in the group "view" may only read; everyone else may also scale, patch
// and update workloads and delete pods. Tokens are compared in constant time and never
// logged.
class TokenAuthenticator
{
public:
    struct User
    {
        QString name;
        QStringList groups;
        bool canWrite() const { return !groups.contains(QStringLiteral("view")); }
    };

    // No file: every request is the anonymous admin (the cluster listens on loopback only).
    TokenAuthenticator() = default;
    static std::optional<TokenAuthenticator> load(const QString &path, QString *error);
    static std::optional<TokenAuthenticator> parse(const QByteArray &text, QString *error);

    bool isEnabled() const { return !m_entries.isEmpty(); }
    // The user of an Authorization header; empty when it names no known token.
    std::optional<User> authenticate(const QByteArray &authorizationHeader) const;

private:
    struct Entry
    {
        QByteArray token;
        User user;
    };
    QList<Entry> m_entries;
};
