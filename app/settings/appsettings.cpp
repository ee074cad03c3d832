// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings/appsettings.h"

#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace {

constexpr char kLastPrometheus[] = "live/prometheus";
constexpr char kLastDashboard[] = "live/dashboard";
constexpr char kRecentSessions[] = "recent/sessions";
constexpr char kRecentDashboards[] = "recent/dashboards";
constexpr char kGeometry[] = "window/geometry";
constexpr char kState[] = "window/state";
constexpr char kTheme[] = "view/theme";
constexpr char kPostAuthors[] = "post/authors";
constexpr char kPostTags[] = "post/tags";
constexpr char kQueryHistory[] = "explore/history/";

} // namespace

QString AppSettings::lastPrometheusUrl()
{
    return QSettings().value(kLastPrometheus).toString();
}

QString AppSettings::lastDashboard()
{
    return QSettings().value(kLastDashboard).toString();
}

void AppSettings::rememberLiveRun(const QString &prometheusUrl, const QString &dashboard)
{
    QSettings settings;
    settings.setValue(kLastPrometheus, prometheusUrl);
    const QFileInfo file(dashboard);
    settings.setValue(kLastDashboard, file.isFile() ? file.absoluteFilePath() : dashboard);
    if (QFileInfo(dashboard).isFile())
        addRecentDashboard(dashboard);
}

QStringList AppSettings::recentSessions()
{
    return recent(kRecentSessions);
}

void AppSettings::addRecentSession(const QString &path)
{
    addRecent(kRecentSessions, path);
}

QStringList AppSettings::recentDashboards()
{
    return recent(kRecentDashboards);
}

QString AppSettings::dashboardsFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/dashboards");
}

void AppSettings::addRecentDashboard(const QString &path)
{
    addRecent(kRecentDashboards, path);
}

QByteArray AppSettings::windowGeometry()
{
    return QSettings().value(kGeometry).toByteArray();
}

QByteArray AppSettings::windowState()
{
    return QSettings().value(kState).toByteArray();
}

void AppSettings::saveWindow(const QByteArray &geometry, const QByteArray &state)
{
    QSettings settings;
    settings.setValue(kGeometry, geometry);
    settings.setValue(kState, state);
}

void AppSettings::forgetWindow()
{
    QSettings settings;
    settings.remove(kGeometry);
    settings.remove(kState);
}

QStringList AppSettings::recent(const char *key)
{
    QStringList existing;
    for (const QString &path : QSettings().value(key).toStringList())
        if (QFileInfo::exists(path))
            existing << path;
    return existing;
}

void AppSettings::addRecent(const char *key, const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QSettings settings;
    QStringList list = settings.value(key).toStringList();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kRecentLimit)
        list.removeLast();
    settings.setValue(key, list);
}

QString AppSettings::theme()
{
    return QSettings().value(kTheme).toString();
}

void AppSettings::setTheme(const QString &name)
{
    QSettings().setValue(kTheme, name);
}

QStringList AppSettings::postAuthors()
{
    QStringList remembered = QSettings().value(kPostAuthors).toStringList();
    if (!remembered.isEmpty())
        return remembered;
    const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME"));
    return user.isEmpty() ? QStringList() : QStringList{user};
}

QStringList AppSettings::queryHistory(const QString &prometheusUrl)
{
    // The URL is a key's last part: slashes and colons would make groups of it.
    return QSettings()
        .value(QLatin1String(kQueryHistory) +
               QString::fromLatin1(prometheusUrl.toUtf8().toBase64(QByteArray::Base64UrlEncoding)))
        .toStringList();
}

void AppSettings::addQuery(const QString &prometheusUrl, const QString &query)
{
    const QString key = QLatin1String(kQueryHistory) +
                        QString::fromLatin1(prometheusUrl.toUtf8().toBase64(QByteArray::Base64UrlEncoding));
    QSettings settings;
    QStringList history = settings.value(key).toStringList();
    history.removeAll(query);
    history.prepend(query);
    while (history.size() > kHistoryLimit)
        history.removeLast();
    settings.setValue(key, history);
}

QStringList AppSettings::postTags()
{
    return QSettings().value(kPostTags).toStringList();
}

void AppSettings::setPostWords(const QStringList &authors, const QStringList &tags)
{
    QSettings settings;
    settings.setValue(kPostAuthors, authors);
    settings.setValue(kPostTags, tags);
}
