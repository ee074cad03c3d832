// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

// What Chaoscope remembers between runs, in one place (QSettings: on Linux
// ~/.config/Chaoscope/Chaoscope.conf). Keys are private to this class, so a renamed key
// cannot leave a reader and a writer disagreeing.
class AppSettings
{
public:
    static constexpr int kRecentLimit = 8;

    // The Prometheus URL and dashboard of the last live run: a later start without
    // --prometheus / --dashboard opens the same again.
    static QString lastPrometheusUrl();
    static QString lastDashboard();
    static void rememberLiveRun(const QString &prometheusUrl, const QString &dashboard);

    // Most recent first, without duplicates, at most kRecentLimit; files that no longer
    // exist are left out when read.
    static QStringList recentSessions();
    static void addRecentSession(const QString &path);
    static QStringList recentDashboards(); // files only: built-in names are always offered
    // Where a built-in dashboard's copy is saved: <app data>/dashboards.
    static QString dashboardsFolder();
    static void addRecentDashboard(const QString &path);

    // The main window's geometry and its docks' and toolbars' layout (QMainWindow's
    // saveGeometry/saveState); empty when none was saved.
    static QByteArray windowGeometry();
    static QByteArray windowState();
    static void saveWindow(const QByteArray &geometry, const QByteArray &state);
    static void forgetWindow();

    // The colour theme the user chose: "system", "light" or "dark" (empty: never chosen).
    static QString theme();
    static void setTheme(const QString &name);

    // Who writes the posts Chaoscope drafts, and their usual tags: remembered from the last
    // Export post…; the authors default to the user's login name.
    static QStringList postAuthors();
    static QStringList postTags();
    static void setPostWords(const QStringList &authors, const QStringList &tags);

    // The queries typed in Explore against one Prometheus (by its URL, without credentials),
    // newest first, each once, at most kHistoryLimit.
    static constexpr int kHistoryLimit = 50;
    static QStringList queryHistory(const QString &prometheusUrl);
    static void addQuery(const QString &prometheusUrl, const QString &query);

private:
    static QStringList recent(const char *key);
    static void addRecent(const char *key, const QString &path);
};
