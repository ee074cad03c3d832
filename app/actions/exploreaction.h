// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "explore/metadatacatalog.h"
#include "fetching/dashboardpoller.h"
#include "store/samplestore.h"

#include <QObject>
#include <QString>

class AnnotationModel;
class DashboardEditing;
class DashboardView;
class ExploreDock;
class PrometheusClient;
class QMainWindow;
class TimeWindow;

// View ▸ Explore (Ctrl+K): the query bar's catalog of names, the preview of the query typed
// (a panel of its own, polled into a store of its own on the dashboard's time window, so that
// trying a query never touches the dashboard's samples), the history of queries per
// Prometheus, and "Add to panel" through the dashboard's undoable editing.
class ExploreAction : public QObject
{
    Q_OBJECT
public:
    // `dashboard` is the window's view: the preview shares its crosshair, and a panel added
    // from here is scrolled into view in it.
    ExploreAction(QMainWindow *window, PrometheusClient *client, TimeWindow *timeWindow, DashboardView *dashboard,
                  AnnotationModel *annotations, DashboardEditing *editing, bool offline);
    ~ExploreAction() override;

    // The dashboard shown: its panels for "Add to panel", its variables for the queries and
    // for completion after '$'.
    void setDashboard(const DashboardDefinition &dashboard);
    // Draws the query in the preview and keeps it in the history.
    void run(const QString &query);

    ExploreDock *dock() const { return m_dock; }
    const SampleStore &previewStore() const { return m_previewStore; }
    MetadataCatalog *catalog() { return &m_catalog; }

private:
    QMainWindow *m_window;
    PrometheusClient *m_client;
    DashboardView *m_dashboardView; // the window's
    DashboardEditing *m_editing;
    bool m_offline;
    DashboardDefinition m_dashboard;
    SampleStore m_previewStore;
    DashboardPoller m_previewPoller; // client, previewStore, the time window
    MetadataCatalog m_catalog;       // client
    DashboardView *m_preview;        // the dock's
    ExploreDock *m_dock;             // the window's
};
