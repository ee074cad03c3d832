// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar's word on Prometheus, against a server that answers: "up" only while some
// panel's queries are answered. A server that refuses every query once read "up" while every
// panel showed an error.
#include "annotations/annotationmodel.h"
#include "faultserver.h"
#include "fetching/dashboardpoller.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"
#include "window/mainwindow.h"

#include <QLabel>
#include <QTest>
#include <gtest/gtest.h>
#include <memory>

namespace {

DashboardDefinition onePanel(const QString &query)
{
    SeriesDefinition series;
    series.query = query;
    PanelDefinition panel;
    panel.title = QStringLiteral("throughput");
    panel.series.push_back(series);
    DashboardDefinition dashboard;
    dashboard.panels = {panel, panel};
    return dashboard;
}

struct Window
{
    explicit Window(const QUrl &url)
    {
        PrometheusConnection connection;
        connection.baseUrl = url;
        client = std::make_unique<PrometheusClient>(connection);
        poller = std::make_unique<DashboardPoller>(client.get(), &store, &window);
        poller->setDashboard(onePanel(QStringLiteral("rate(m[1m])")));
        mainWindow = std::make_unique<MainWindow>(client.get(), &store, &window, poller.get(), &annotations);
        state = mainWindow->findChild<QLabel *>(QStringLiteral("sourceStateLabel"));
        poller->setRefreshMs(500);
        poller->start();
    }
    QString text() const { return state ? state->text() : QString(); }

    SampleStore store;
    TimeWindow window;
    AnnotationModel annotations;
    std::unique_ptr<PrometheusClient> client;
    std::unique_ptr<DashboardPoller> poller;
    std::unique_ptr<MainWindow> mainWindow;
    QLabel *state = nullptr;
};

} // namespace

TEST(SourceState, AServerThatRefusesEveryQueryIsNotUp)
{
    FaultServer server;
    server.script("", FaultServer::prometheusError("bad_data", "1:6: parse error: unexpected character"));
    Window window(server.url());
    ASSERT_NE(window.state, nullptr);
    QStringList seen;
    const bool said = QTest::qWaitFor(
        [&] {
            if (seen.isEmpty() || seen.last() != window.text())
                seen.append(window.text());
            return window.text().contains(QStringLiteral("every query fails"));
        },
        20000);
    ASSERT_TRUE(said) << window.text().toStdString();
    EXPECT_TRUE(window.text().contains(QStringLiteral("2 panels"))) << window.text().toStdString();
    EXPECT_TRUE(window.text().contains(QStringLiteral("parse error"))) << window.text().toStdString();
    for (const QString &text : std::as_const(seen))
        EXPECT_FALSE(text.contains(QStringLiteral("· up"))) << "said up on the way: " << text.toStdString();

    // The same server answering: up.
    server.script("", FaultServer::json(R"({"status":"success","data":{"resultType":"matrix","result":[]}})"));
    EXPECT_TRUE(QTest::qWaitFor([&] { return window.text().contains(QStringLiteral("· up")); }, 20000))
        << window.text().toStdString();
}
