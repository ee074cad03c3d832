// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDockWidget>
#include <QStringList>

class DashboardView;
class MetadataCatalog;
class QLabel;
class QMenu;
class QToolButton;
class QueryBar;

// View ▸ Explore (Ctrl+K): a PromQL query bar with completion from the Prometheus in use, the
// query's answer drawn live in a preview panel on the dashboard's time axis (its crosshair and
// its marks), Prometheus' error under the bar with the place it names, the queries typed
// before, and "Add to panel" to put the query into a panel of the dashboard or a new one.
// It shows and forwards: the app runs the preview and changes the dashboard.
class ExploreDock : public QDockWidget
{
    Q_OBJECT
public:
    ExploreDock(MetadataCatalog *catalog, DashboardView *preview, QWidget *parent = nullptr);

    QueryBar *queryBar() const { return m_query; }
    // The dashboard's panels, for "Add to panel".
    void setPanels(const QStringList &titles);
    // Queries typed before against this Prometheus, newest first.
    void setHistory(const QStringList &queries);
    // What Prometheus said of the query; empty: nothing wrong.
    void showError(const QString &message);
    QString errorText() const;
    // Opens the dock with the query bar focused.
    void focusQuery();

signals:
    void runRequested(const QString &query);
    void addRequested(const QString &query, int panel); // -1: a new panel

private:
    void fillAddMenu();

    QueryBar *m_query;
    QLabel *m_error;
    QToolButton *m_history;
    QMenu *m_historyMenu;
    QToolButton *m_add;
    QMenu *m_addMenu;
    QStringList m_panels;
};
