// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "annotationmodel.h"
#include "dashboardpoller.h"
#include "controlpanel.h"
#include "dashboardview.h"
#include "scenariopanel.h"
#include "prometheusclient.h"
#include "samplestore.h"
#include "timewindow.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QInputDialog>
#include <QDateTime>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace {

struct Choice
{
    const char *label;
    qint64 ms;
};
constexpr Choice kWindows[] = {{"5 min", 5 * 60'000},   {"15 min", 15 * 60'000}, {"1 h", 3'600'000},
                               {"6 h", 6 * 3'600'000}, {"12 h", 12 * 3'600'000}, {"24 h", 24 * 3'600'000}};
constexpr Choice kRefreshes[] = {{"1 s", 1000}, {"2 s", 2000}, {"5 s", 5000}, {"10 s", 10'000}, {"30 s", 30'000}};

} // namespace

MainWindow::MainWindow(PrometheusClient *client, SampleStore *store, TimeWindow *window,
                       DashboardPoller *poller, AnnotationModel *annotations, QWidget *parent)
    : QMainWindow(parent), m_client(client), m_store(store), m_window(window), m_poller(poller),
      m_annotations(annotations),
      m_view(new DashboardView(poller, store, window)), m_issues(new QLabel),
      m_sourceState(new QLabel), m_sampleCount(new QLabel), m_admin(new QLabel)
{
    setWindowTitle(QStringLiteral("Chaoscope"));
    m_issues->setWordWrap(true);
    m_issues->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_issues->setStyleSheet(QStringLiteral(
        "background: #FFF4E0; color: #6B3E00; border: 1px solid #E6B866; border-radius: 4px; padding: 6px;"));
    m_issues->hide();

    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_view);
    auto *central = new QWidget;
    central->setObjectName(QStringLiteral("central"));
    central->setStyleSheet(QStringLiteral("#central { background: #F2F4F7; }"));
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 8, 8, 0);
    layout->addWidget(m_issues);
    layout->addWidget(scroll, 1);
    setCentralWidget(central);

    m_view->setAnnotationModel(m_annotations);
    buildToolBar();
    statusBar()->addWidget(m_sourceState, 1);
    statusBar()->addPermanentWidget(m_admin);
    statusBar()->addPermanentWidget(m_sampleCount);
    updateSourceState(true, QString());
    m_sourceState->setText(tr("Prometheus %1 · connecting…").arg(m_client->connection().baseUrl.toDisplayString()));
    connect(m_client, &PrometheusClient::reachabilityChanged, this, &MainWindow::updateSourceState);
    auto *sampleTimer = new QTimer(this);
    connect(sampleTimer, &QTimer::timeout, this, &MainWindow::updateSampleCount);
    sampleTimer->start(1000);
}

void MainWindow::buildToolBar()
{
    QToolBar *bar = addToolBar(tr("View"));
    bar->setMovable(false);
    m_title = new QLabel;
    m_title->setStyleSheet(QStringLiteral("font-weight: bold; padding: 0 12px 0 4px;"));
    bar->addWidget(m_title);

    bar->addWidget(new QLabel(tr("Window ")));
    m_windowPicker = new QComboBox;
    for (const Choice &choice : kWindows)
        m_windowPicker->addItem(tr(choice.label), QVariant::fromValue(choice.ms));
    bar->addWidget(m_windowPicker);
    connect(m_windowPicker, &QComboBox::activated, this, [this](int index) {
        m_window->setWindowMs(m_windowPicker->itemData(index).toLongLong());
    });

    bar->addWidget(new QLabel(tr("  Refresh ")));
    m_refreshPicker = new QComboBox;
    for (const Choice &choice : kRefreshes)
        m_refreshPicker->addItem(tr(choice.label), QVariant::fromValue(choice.ms));
    bar->addWidget(m_refreshPicker);
    connect(m_refreshPicker, &QComboBox::activated, this, [this](int index) {
        m_poller->setRefreshMs(int(m_refreshPicker->itemData(index).toLongLong()));
    });
    bar->addSeparator();

    m_pauseAction = bar->addAction(tr("Pause"));
    m_pauseAction->setShortcut(Qt::Key_Space);
    m_pauseAction->setToolTip(tr("Stop following now (Space). Data keeps being fetched."));
    connect(m_pauseAction, &QAction::triggered, this, [this] { m_window->setLive(!m_window->isLive()); });
    QAction *live = bar->addAction(tr("Live"));
    live->setShortcut(Qt::Key_Home);
    live->setToolTip(tr("Back to the live window (Home, or double-click a chart). Drag on a chart to zoom."));
    connect(live, &QAction::triggered, this, [this] { m_window->setLive(true); });
    bar->addSeparator();
    QAction *mark = bar->addAction(tr("Mark now"));
    mark->setShortcut(Qt::Key_M);
    mark->setToolTip(tr("Put a note on every timeline at this moment (M)."));
    connect(mark, &QAction::triggered, this, &MainWindow::markNow);
    connect(m_window, &TimeWindow::liveChanged, this, [this](bool isLive) {
        m_pauseAction->setText(isLive ? tr("Pause") : tr("Resume"));
    });
}

void MainWindow::markNow()
{
    // The time is taken when the key is pressed, not when the text is finished.
    const qint64 now = m_window->now();
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Mark now"),
                                               tr("Note at %1:").arg(QDateTime::fromMSecsSinceEpoch(now).toString(QStringLiteral("HH:mm:ss"))),
                                               QLineEdit::Normal, QString(), &ok);
    if (!ok || text.trimmed().isEmpty())
        return;
    Annotation annotation;
    annotation.timeMs = now;
    annotation.text = text.trimmed();
    annotation.source = Annotation::Source::Manual;
    m_annotations->add(annotation);
}

void MainWindow::syncWindowPicker()
{
    const qint64 windowMs = m_window->windowMs();
    int best = 0;
    for (int i = 0; i < m_windowPicker->count(); ++i) {
        if (std::abs(m_windowPicker->itemData(i).toLongLong() - windowMs)
            < std::abs(m_windowPicker->itemData(best).toLongLong() - windowMs))
            best = i;
    }
    m_windowPicker->setCurrentIndex(best);
    int refresh = 0;
    for (int i = 0; i < m_refreshPicker->count(); ++i) {
        if (std::abs(m_refreshPicker->itemData(i).toLongLong() - m_poller->refreshMs())
            < std::abs(m_refreshPicker->itemData(refresh).toLongLong() - m_poller->refreshMs()))
            refresh = i;
    }
    m_refreshPicker->setCurrentIndex(refresh);
}

void MainWindow::showDashboard(const QList<DashboardIssue> &issues)
{
    const QString title = m_poller->dashboard().title.isEmpty() ? tr("Untitled dashboard")
                                                                : m_poller->dashboard().title;
    m_title->setText(title);
    setWindowTitle(tr("%1 — Chaoscope").arg(title));
    QStringList lines;
    for (const DashboardIssue &issue : issues)
        lines << issue.toString().toHtmlEscaped();
    if (!lines.isEmpty()) {
        m_issues->setText(tr("<b>The dashboard file has %n problem(s); the rest is shown.</b><br>", nullptr, int(lines.size()))
                          + lines.join(QStringLiteral("<br>")));
    }
    m_issues->setVisible(!lines.isEmpty());
    m_view->rebuild();
    syncWindowPicker();
}

void MainWindow::showScenario(ScenarioRunner *runner)
{
    auto *dock = new QDockWidget(tr("Scenario"), this);
    dock->setObjectName(QStringLiteral("scenarioDock"));
    dock->setWidget(new ScenarioPanel(runner));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, dock);
}

void MainWindow::setLoadTester(LoadTesterController *controller)
{
    auto *panel = new ControlPanel(controller);
    m_controlDock = new QDockWidget(tr("Load tester"), this);
    m_controlDock->setObjectName(QStringLiteral("controlDock"));
    m_controlDock->setWidget(panel);
    m_controlDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, m_controlDock);
    resizeDocks({m_controlDock}, {340}, Qt::Horizontal);
    m_admin->setText(tr("%1 · %n replica(s)", nullptr, controller->replicaCount()).arg(controller->capabilities().kind));
}

void MainWindow::updateSourceState(bool reachable, const QString &message)
{
    const QString url = m_client->connection().baseUrl.toDisplayString();
    if (reachable) {
        m_sourceState->setText(QStringLiteral("<span style='color:#009E73'>●</span> ") + tr("Prometheus %1 · up").arg(url));
    } else {
        m_sourceState->setText(QStringLiteral("<span style='color:#B00020'>●</span> ")
                               + tr("Prometheus %1 · <b>down</b>: %2").arg(url, message.toHtmlEscaped()));
    }
}

void MainWindow::updateSampleCount()
{
    m_sampleCount->setText(tr("%1 samples").arg(QLocale().toString(m_store->sampleCount())));
}
