// SPDX-License-Identifier: GPL-3.0-or-later
#include "headlessrunner.h"

#include "dashboardpoller.h"
#include "dashboardview.h"
#include "panelwidget.h"
#include "timelinechart.h"
#include "prometheusclient.h"
#include "screenshot.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QPixmap>
#include <QTimer>
#include <QWidget>

#include <cstdio>

HeadlessRunner::HeadlessRunner(QWidget *window, DashboardPoller *poller, PrometheusClient *client,
                               QString screenshotPath, qint64 afterMs, QObject *parent)
    : QObject(parent), m_window(window), m_poller(poller), m_path(std::move(screenshotPath)),
      m_afterMs(afterMs)
{
    connect(client, &PrometheusClient::reachabilityChanged, this, [this](bool reachable, const QString &message) {
        if (!reachable)
            m_lastSourceError = message;
    });
}

void HeadlessRunner::start()
{
    QTimer::singleShot(std::chrono::milliseconds(m_afterMs), this, &HeadlessRunner::settle);
}

void HeadlessRunner::settle()
{
    if (!m_view) {
        finish();
        return;
    }
    m_poller->stop();
    // Shot once no chart has drawn anything new for a little while (at most a few seconds).
    constexpr int kQuietMs = 250;
    m_quiet = new QTimer(this);
    m_quiet->setSingleShot(true);
    m_quiet->setInterval(kQuietMs);
    connect(m_quiet, &QTimer::timeout, this, &HeadlessRunner::finish);
    for (PanelWidget *panel : m_view->panels())
        connect(panel->chart(), &TimelineChart::rendered, m_quiet, qOverload<>(&QTimer::start));
    m_quiet->start();
    QTimer::singleShot(3000, this, &HeadlessRunner::finish);
}

void HeadlessRunner::setLayoutPath(const QString &path, DashboardView *view)
{
    m_layoutPath = path;
    m_view = view;
}

bool HeadlessRunner::writeLayout() const
{
    QJsonArray panels;
    for (PanelWidget *panel : m_view->panels()) {
        TimelineChart *chart = panel->chart();
        const QRectF plot = chart->plotRect();
        const QPoint topLeft = chart->mapTo(m_window, plot.topLeft().toPoint());
        panels.append(QJsonObject{{QStringLiteral("x"), topLeft.x()},
                                  {QStringLiteral("y"), topLeft.y()},
                                  {QStringLiteral("width"), int(plot.width())},
                                  {QStringLiteral("height"), int(plot.height())},
                                  {QStringLiteral("points"), chart->drawnPointCount()}});
    }
    const QJsonObject root{{QStringLiteral("devicePixelRatio"), m_window->devicePixelRatioF()},
                           {QStringLiteral("panels"), panels}};
    QSaveFile file(m_layoutPath);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(root).toJson());
    return file.commit();
}

void HeadlessRunner::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    int exitCode = 0;
    const Result<QString> saved = saveScreenshot(m_window, m_path);
    if (!saved) {
        std::fprintf(stderr, "chaoscope: %s\n", qPrintable(saved.error().message));
        exitCode = 3;
    } else {
        std::printf("screenshot: %s\n", qPrintable(saved.value()));
    }
    if (!m_layoutPath.isEmpty() && m_view && !writeLayout()) {
        std::fprintf(stderr, "chaoscope: cannot write the layout to %s\n", qPrintable(m_layoutPath));
        exitCode = 3;
    }
    const DashboardPoller::Stats stats = m_poller->stats();
    if (stats.succeeded == 0 && !m_offline) {
        if (stats.failed == 0) {
            std::fprintf(stderr, "chaoscope: no query was answered within %lld s\n", m_afterMs / 1000);
        } else if (stats.sourceDown == stats.failed) {
            std::fprintf(stderr, "chaoscope: Prometheus stayed unreachable: %s\n", qPrintable(m_lastSourceError));
        } else {
            std::fprintf(stderr, "chaoscope: every query failed (%d failures)\n", stats.failed);
        }
        exitCode = exitCode ? exitCode : 2;
    }
    std::fflush(stdout);
    QCoreApplication::exit(exitCode);
}
