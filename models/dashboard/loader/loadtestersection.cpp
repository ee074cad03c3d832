// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loader/loadtestersection.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>

void LoadTesterSection::read(const QJsonValue &value, LoadTesterDefinition &loadTester)
{
    const QString path = QStringLiteral("loadTester");
    if (value.isUndefined())
        return;
    if (!value.isObject()) {
        m_json.issue(path,
                     QStringLiteral(
                         "must be an object such as {\"kind\": \"starter\", \"admin\": [\"http://127.0.0.1:9091\"]}"));
        return;
    }
    const QJsonObject object = value.toObject();
    m_json.checkKeys(object, path, {"kind", "admin", "discover", "tokenFile", "tokenEnv", "spawnRate"});
    if (object.contains(QStringLiteral("token")) || object.contains(QStringLiteral("adminToken")))
        m_json.issue(path, QStringLiteral("a token is never kept in a dashboard file; name a "
                                          "\"tokenFile\" or \"tokenEnv\" instead"));
    if (auto kind = m_json.readString(object, path, QStringLiteral("kind"))) {
        const QString name = kind->toLower();
        if (name == QLatin1String("starter") || name == QLatin1String("locust") || name == QLatin1String("k6"))
            loadTester.kind = name;
        else
            m_json.issue(JsonSection::join(path, QStringLiteral("kind")),
                         QStringLiteral("%1 must be \"starter\", \"locust\" or \"k6\"")
                             .arg(JsonSection::describe(QJsonValue(*kind))));
    }
    const QJsonValue admin = object.value(QStringLiteral("admin"));
    const QString adminPath = JsonSection::join(path, QStringLiteral("admin"));
    const QJsonArray urls = admin.isString() ? QJsonArray{admin} : admin.toArray();
    if (!admin.isUndefined() && !admin.isString() && !admin.isArray())
        m_json.issue(adminPath, QStringLiteral("must be a URL or an array of URLs"));
    for (int i = 0; i < urls.size(); ++i) {
        const QString itemPath = admin.isString() ? adminPath : QStringLiteral("%1[%2]").arg(adminPath).arg(i);
        const QUrl url(urls[i].toString(), QUrl::StrictMode);
        if (!urls[i].isString() || !url.isValid() || url.host().isEmpty() ||
            (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            m_json.issue(itemPath, QStringLiteral("%1 is not an http(s) URL").arg(JsonSection::describe(urls[i])));
        else
            loadTester.adminUrls.append(url.toString());
    }
    const QJsonValue discover = object.value(QStringLiteral("discover"));
    const QString discoverPath = JsonSection::join(path, QStringLiteral("discover"));
    if (discover.isObject()) {
        const QJsonObject d = discover.toObject();
        m_json.checkKeys(d, discoverPath, {"job", "scheme"});
        if (auto job = m_json.readString(d, discoverPath, QStringLiteral("job")))
            loadTester.discoverJob = job->trimmed();
        if (auto scheme = m_json.readString(d, discoverPath, QStringLiteral("scheme"))) {
            if (*scheme == QLatin1String("http") || *scheme == QLatin1String("https"))
                loadTester.discoverScheme = *scheme;
            else
                m_json.issue(JsonSection::join(discoverPath, QStringLiteral("scheme")),
                             QStringLiteral("must be \"http\" or \"https\""));
        }
        if (loadTester.discoverJob.isEmpty())
            m_json.issue(JsonSection::join(discoverPath, QStringLiteral("job")),
                         QStringLiteral("missing: the Prometheus job whose targets are the replicas"));
    } else if (!discover.isUndefined()) {
        m_json.issue(discoverPath, QStringLiteral("must be an object such as {\"job\": \"starter\"}"));
    }
    if (object.contains(QStringLiteral("spawnRate"))) {
        const QString spawnPath = JsonSection::join(path, QStringLiteral("spawnRate"));
        const QJsonValue spawn = object.value(QStringLiteral("spawnRate"));
        if (!spawn.isDouble() || !(spawn.toDouble() > 0) || spawn.toDouble() > 1e6)
            m_json.issue(
                spawnPath,
                QStringLiteral("%1 must be a number of users per second above 0").arg(JsonSection::describe(spawn)));
        else if (loadTester.kind != QLatin1String("locust"))
            m_json.issue(spawnPath, QStringLiteral("is for Locust (\"kind\": \"locust\"): the other load testers start "
                                                   "what they are told at once"));
        else
            loadTester.spawnRate = spawn.toDouble();
    }
    if (auto file = m_json.readString(object, path, QStringLiteral("tokenFile")))
        loadTester.tokenFile = *file;
    if (auto env = m_json.readString(object, path, QStringLiteral("tokenEnv"))) {
        static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        if (envName.match(*env).hasMatch())
            loadTester.tokenEnv = *env;
        else
            m_json.issue(
                JsonSection::join(path, QStringLiteral("tokenEnv")),
                QStringLiteral("%1 is not an environment variable name").arg(JsonSection::describe(QJsonValue(*env))));
    }
}
