// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless/headlessrunner.h"

#include "chart/timelinechart.h"
#include "fetching/dashboardpoller.h"
#include "headless/screenshot.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "panels/statvalues.h"
#include "prometheus/prometheusclient.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QPixmap>
#include <QSaveFile>
#include <QTimer>
#include <QWidget>
#include <cstdio>

HeadlessRunner::HeadlessRunner(QWidget *window, DashboardPoller *poller, PrometheusClient *client,
                               QString screenshotPath, qint64 afterMs, QObject *parent)
    : QObject(parent), m_window(window), m_poller(poller), m_path(std::move(screenshotPath)), m_afterMs(afterMs)
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
        QJsonObject entry{{QStringLiteral("x"), topLeft.x()},
                          {QStringLiteral("y"), topLeft.y()},
                          {QStringLiteral("width"), int(plot.width())},
                          {QStringLiteral("height"), int(plot.height())},
                          {QStringLiteral("points"), chart->drawnPointCount()}};
        // A stat tile's numbers as it shows them ("320 ops/s", "–"), for whoever checks the shot.
        if (const StatValues *stat = panel->statValues()) {
            QJsonArray values;
            for (const StatValues::Value &value : stat->values())
                values.append(value.text);
            entry.insert(QStringLiteral("stat"), values);
        }
        // A heatmap draws cells, not points: how many are coloured, the bounds on its axis
        // and its summary line.
        if (const HeatmapGrid *grid = chart->heatmap()) {
            entry.insert(
                QStringLiteral("heatmap"),
                QJsonObject{{QStringLiteral("cells"), grid->filledCells()},
                            {QStringLiteral("buckets"), QJsonArray::fromStringList(chart->drawnBucketLabels())},
                            {QStringLiteral("summary"), panel->heatmapSummary()}});
        }
        panels.append(entry);
    }
    const QJsonObject root{{QStringLiteral("devicePixelRatio"), m_window->devicePixelRatioF()},
                           {QStringLiteral("panels"), panels}};
    QSaveFile file(m_layoutPath);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(root).toJson());
    return file.commit();
}

QString HeadlessRunner::firstPanelProblem() const
{
    const int panels = m_view ? int(m_view->panels().size()) : 0;
    for (int panel = 0; panel < panels; ++panel) {
        const QString message = m_poller->panelStatus(panel).message;
        if (!message.isEmpty())
            return QStringLiteral("; panel %1 says: %2").arg(panel + 1).arg(message);
    }
    return {};
}

bool HeadlessRunner::anyPanelDrewData() const
{
    for (PanelWidget *panel : m_view->panels()) {
        TimelineChart *chart = panel->chart();
        if (chart->drawnPointCount() > 0)
            return true;
        if (const HeatmapGrid *grid = chart->heatmap(); grid && grid->filledCells() > 0)
            return true;
        if (const StatValues *stat = panel->statValues()) {
            for (const StatValues::Value &value : stat->values()) {
                if (!value.number.isEmpty())
                    return true;
            }
        }
    }
    return false;
}

QAction *HeadlessRunner::menuAction(const QString &entry) const
{
    // As a menu names it: "E&xport…" is "Export…", "Export..." or "Export".
    const auto plain = [](QString text) {
        text.remove(QLatin1Char('&'));
        if (text.endsWith(QChar(0x2026)))
            text.chop(1);
        else if (text.endsWith(QLatin1String("...")))
            text.chop(3);
        return text.trimmed();
    };
    const QString wanted = plain(entry);
    for (QAction *action : m_window->findChildren<QAction *>()) {
        if (!action->menu() &&
            (action->objectName() == entry || plain(action->text()).compare(wanted, Qt::CaseInsensitive) == 0))
            return action;
    }
    return nullptr;
}

void HeadlessRunner::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_dialogEntry.isEmpty()) {
        shoot(m_window);
        return;
    }
    QAction *action = menuAction(m_dialogEntry);
    if (!action || !action->isEnabled()) {
        std::fprintf(stderr, "chaoscope: --screenshot-dialog: %s \"%s\"\n",
                     action ? "this menu entry is not available now:" : "no menu entry is named",
                     qPrintable(m_dialogEntry));
        QCoreApplication::exit(2);
        return;
    }
    // A dialog run with exec() blocks trigger() below in its own event loop; this timer fires
    // inside that loop, once the dialog has been laid out and has drawn its preview.
    QTimer::singleShot(kDialogSettleMs, this, [this] {
        QWidget *dialog = QApplication::activeModalWidget();
        if (!dialog) {
            // A dialog, or a window of its own (File ▸ Compare runs…); not a menu or a tooltip.
            for (QWidget *widget : QApplication::topLevelWidgets()) {
                const Qt::WindowType type = widget->windowType();
                if (widget != m_window && widget->isVisible() && (type == Qt::Window || type == Qt::Dialog))
                    dialog = widget;
            }
        }
        if (!dialog) {
            std::fprintf(stderr, "chaoscope: --screenshot-dialog: \"%s\" opened no dialog\n",
                         qPrintable(m_dialogEntry));
            QCoreApplication::exit(3);
            return;
        }
        shoot(dialog);
        if (auto *modal = qobject_cast<QDialog *>(dialog))
            modal->reject(); // its own event loop ends too; the app's was told to exit
    });
    action->trigger();
}

void HeadlessRunner::shoot(QWidget *widget)
{
    int exitCode = 0;
    const Result<QString> saved = saveScreenshot(widget, m_path);
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
    const QString firstPanelMessage = firstPanelProblem();
    if (stats.succeeded == 0 && !m_offline) {
        if (stats.failed == 0) {
            std::fprintf(stderr, "chaoscope: no query was answered within %lld s\n", m_afterMs / 1000);
        } else if (stats.sourceDown == stats.failed) {
            std::fprintf(stderr, "chaoscope: Prometheus stayed unreachable: %s\n", qPrintable(m_lastSourceError));
        } else {
            std::fprintf(stderr, "chaoscope: every query failed (%d failures)%s\n", stats.failed,
                         qPrintable(firstPanelMessage));
        }
        exitCode = exitCode ? exitCode : 2;
    } else if (!m_offline && m_view && !anyPanelDrewData()) {
        // Every query answered (with nothing, or with what could not be drawn): say what the
        // panels say rather than succeed with a picture of empty frames.
        std::fprintf(stderr, "chaoscope: no panel drew any data within %lld s%s\n", m_afterMs / 1000,
                     qPrintable(firstPanelMessage));
        exitCode = exitCode ? exitCode : 2;
    }
    std::fflush(stdout);
    QCoreApplication::exit(exitCode);
}
