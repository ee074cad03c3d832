// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/mainwindow.h"

#include "actions/filemenu.h"
#include "annotating/annotationdock.h"
#include "annotating/annotationeditor.h"
#include "annotating/annotationprompt.h"
#include "annotating/annotationquerybar.h"
#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "dialogs/phasestatisticsdialog.h"
#include "dialogs/shortcutsdialog.h"
#include "export/exportdialog.h"
#include "fetching/dashboardpoller.h"
#include "fetching/sourcehealth.h"
#include "fetching/variablevaluesloader.h"
#include "loadtester/loadtestercontroller.h"
#include "panels/dashboardview.h"
#include "panels/historyprogress.h"
#include "panels/panelwidget.h"
#include "panels/variablebar.h"
#include "prometheus/prometheusclient.h"
#include "settings/appsettings.h"
#include "steering/controlpanel.h"
#include "store/samplestore.h"
#include "theme/uitheme.h"
#include "timeline/timewindow.h"
#include "window/annotationfiles.h"
#include "window/homekey.h"
#include "window/thememenu.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDockWidget>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace {

struct Choice
{
    const char *label;
    qint64 ms;
};
constexpr Choice kWindows[] = {{"5 min", 5LL * 60'000},   {"15 min", 15LL * 60'000}, {"30 min", 30LL * 60'000},
                               {"1 h", 3'600'000},        {"2 h", 2LL * 3'600'000},  {"3 h", 3LL * 3'600'000},
                               {"6 h", 6LL * 3'600'000},  {"8 h", 8LL * 3'600'000},  {"12 h", 12LL * 3'600'000},
                               {"24 h", 24LL * 3'600'000}};

// "45 min", "1 h 30 min": a window the dashboard or --window chose outside the list.
QString windowLabel(qint64 ms)
{
    return Format::duration(ms);
}
constexpr Choice kRefreshes[] = {{"1 s", 1000}, {"2 s", 2000}, {"5 s", 5000}, {"10 s", 10'000}, {"30 s", 30'000}};

} // namespace

MainWindow::MainWindow(PrometheusClient *client, SampleStore *store, TimeWindow *window, DashboardPoller *poller,
                       AnnotationModel *annotations, QWidget *parent)
    : QMainWindow(parent), m_client(client), m_store(store), m_window(window), m_poller(poller),
      m_annotations(annotations), m_editor(new AnnotationEditor(annotations, this)),
      m_annotationDock(new AnnotationDock(m_editor, window, this)), m_view(new DashboardView(poller, store, window)),
      m_issues(new QLabel), m_sourceState(new QLabel), m_sampleCount(new QLabel), m_admin(new QLabel)
{
    setWindowTitle(QStringLiteral("Chaoscope"));
    m_issues->setWordWrap(true);
    m_issues->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_issues->hide();

    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_view);
    auto *central = new QWidget;
    central->setObjectName(QStringLiteral("central"));
    m_central = central;
    applyTheme();
    connect(UiTheme::instance(), &UiTheme::changed, this, &MainWindow::applyTheme);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 8, 8, 0);
    layout->addWidget(m_issues);
    layout->addWidget(scroll, 1);
    setCentralWidget(central);
    addInsecureTlsBanner();
    // The dashboard has the focus at start, not the first text field (the annotation filter):
    // a single-key shortcut such as M (mark now) must work before anything is clicked.
    scroll->setFocusPolicy(Qt::StrongFocus);
    scroll->setFocus(Qt::OtherFocusReason);

    m_view->setAnnotationModel(m_annotations);
    // Edits on the charts (Ctrl+click, dragging a marker) share the dock's undo stack.
    m_view->setAnnotationEditor(m_editor);
    addDockWidget(Qt::RightDockWidgetArea, m_annotationDock);
    resizeDocks({m_annotationDock}, {480}, Qt::Horizontal);
    buildMenus();
    buildToolBar();
    m_sourceState->setObjectName(QStringLiteral("sourceStateLabel"));
    statusBar()->addWidget(m_sourceState, 1);
    // Loading history (opening an 8 h window, zooming out into time not fetched yet) shows
    // how far it got; the picture is usable meanwhile, the bar says the detail is coming.
    // Nothing long without a way out: the detail of a long window on a slow Prometheus can
    // take minutes, and the coarse picture is often all that is needed.
    auto *history = new HistoryProgress;
    statusBar()->addPermanentWidget(history);
    connect(history, &HistoryProgress::cancelRequested, m_poller, &DashboardPoller::cancelHistory);
    connect(m_poller, &DashboardPoller::backfillProgress, history, &HistoryProgress::setProgress);
    connect(m_client, &PrometheusClient::reachabilityChanged, history,
            [history](bool reachable) { history->setSourceReachable(reachable); });
    statusBar()->addPermanentWidget(m_admin);
    statusBar()->addPermanentWidget(m_sampleCount);
    showSourceHealth();
    connect(m_client, &PrometheusClient::reachabilityChanged, this, &MainWindow::updateSourceState);
    connect(m_poller, &DashboardPoller::panelStatusChanged, this, &MainWindow::showSourceHealth);
    auto *sampleTimer = new QTimer(this);
    connect(sampleTimer, &QTimer::timeout, this, &MainWindow::updateSampleCount);
    sampleTimer->start(1000);
}

void MainWindow::buildToolBar()
{
    QToolBar *bar = addToolBar(tr("View"));
    bar->setObjectName(QStringLiteral("viewToolBar")); // saveState() needs names
    bar->setMovable(false);
    m_title = new QLabel;
    m_title->setStyleSheet(QStringLiteral("font-weight: bold; padding: 0 12px 0 4px;"));
    bar->addWidget(m_title);

    bar->addWidget(new QLabel(tr("Window ")));
    m_windowPicker = new QComboBox;
    m_windowPicker->setObjectName(QStringLiteral("windowPicker"));
    for (const Choice &choice : kWindows)
        m_windowPicker->addItem(tr(choice.label), QVariant::fromValue(choice.ms));
    bar->addWidget(m_windowPicker);
    connect(m_windowPicker, &QComboBox::activated, this,
            [this](int index) { m_window->setWindowMs(m_windowPicker->itemData(index).toLongLong()); });

    bar->addWidget(new QLabel(tr("  Refresh ")));
    m_refreshPicker = new QComboBox;
    for (const Choice &choice : kRefreshes)
        m_refreshPicker->addItem(tr(choice.label), QVariant::fromValue(choice.ms));
    bar->addWidget(m_refreshPicker);
    connect(m_refreshPicker, &QComboBox::activated, this,
            [this](int index) { m_poller->setRefreshMs(int(m_refreshPicker->itemData(index).toLongLong())); });
    bar->addSeparator();
    buildVariableBar(bar);
    m_queryBar = new AnnotationQueryBar;
    m_queryBar->setObjectName(QStringLiteral("annotationQueryBar"));
    m_queryBarAction = bar->addWidget(m_queryBar);
    m_queryBarAction->setVisible(false);
    connect(m_queryBar, &AnnotationQueryBar::queryToggled, m_view, &DashboardView::setQueryShown);

    m_pauseAction = bar->addAction(tr("Pause"));
    m_pauseAction->setShortcut(Qt::Key_Space);
    m_pauseAction->setToolTip(tr("Stop following now (Space). Data keeps being fetched."));
    connect(m_pauseAction, &QAction::triggered, this, [this] { m_window->setLive(!m_window->isLive()); });
    QAction *live = bar->addAction(tr("Live"));
    live->setShortcut(Qt::Key_Home);
    live->setToolTip(tr("Back to the live window (Home wherever the focus is; in a text field a second Home, or "
                        "double-click a chart). Drag on a chart to zoom."));
    QCoreApplication::instance()->installEventFilter(new HomeKeyFilter(this));
    connect(live, &QAction::triggered, this, [this] { m_window->setLive(true); });
    // Zoom history: every drag, wheel or Shift+drag step can be walked back and forth.
    QAction *back = bar->addAction(tr("◀"));
    back->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    back->setToolTip(tr("Previous zoom (Alt+Left)"));
    back->setEnabled(m_window->canGoBack());
    connect(back, &QAction::triggered, m_window, &TimeWindow::back);
    connect(m_window, &TimeWindow::canGoBackChanged, back, &QAction::setEnabled);
    QAction *forward = bar->addAction(tr("▶"));
    forward->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
    forward->setToolTip(tr("Next zoom (Alt+Right)"));
    forward->setEnabled(m_window->canGoForward());
    connect(forward, &QAction::triggered, m_window, &TimeWindow::forward);
    connect(m_window, &TimeWindow::canGoForwardChanged, forward, &QAction::setEnabled);
    bar->addSeparator();
    QAction *mark = bar->addAction(tr("Mark now"));
    mark->setShortcut(Qt::Key_M);
    mark->setToolTip(tr("Put a note on every timeline at this moment (M)."));
    connect(mark, &QAction::triggered, this, &MainWindow::markNow);
    // Short fixed labels in the toolbar (the menu says what would be undone, the tooltip
    // too), so the toolbar does not change width with every edit. The shortcuts live on the
    // menu actions only: one action per key.
    QUndoStack *stack = m_editor->undoStack();
    QAction *undo = bar->addAction(tr("Undo"), stack, &QUndoStack::undo);
    QAction *redo = bar->addAction(tr("Redo"), stack, &QUndoStack::redo);
    const auto sync = [stack, undo, redo] {
        undo->setEnabled(stack->canUndo());
        redo->setEnabled(stack->canRedo());
        undo->setToolTip(stack->canUndo() ? tr("Undo %1 (Ctrl+Z)").arg(stack->undoText()) : tr("Nothing to undo"));
        redo->setToolTip(stack->canRedo() ? tr("Redo %1 (Ctrl+Shift+Z)").arg(stack->redoText())
                                          : tr("Nothing to redo"));
    };
    connect(stack, &QUndoStack::indexChanged, this, sync);
    connect(stack, &QUndoStack::cleanChanged, this, sync);
    sync();
    connect(m_window, &TimeWindow::liveChanged, this,
            [this](bool isLive) { m_pauseAction->setText(isLive ? tr("Pause") : tr("Resume")); });
}

void MainWindow::buildVariableBar(QToolBar *bar)
{
    m_variableBar = new VariableBar;
    m_variableBar->setObjectName(QStringLiteral("variableBar"));
    m_variableAction = bar->addWidget(m_variableBar);
    m_variableAction->setVisible(false);
    m_variableValues = new VariableValuesLoader(m_client, this);
    connect(m_variableValues, &VariableValuesLoader::loaded, m_variableBar, &VariableBar::setChoices);
    connect(m_variableValues, &VariableValuesLoader::failed, m_variableBar, &VariableBar::setError);
    // Pods come and go during a long day: the choices are asked again every minute.
    m_variableRefresh = new QTimer(this);
    m_variableRefresh->setInterval(60'000);
    connect(m_variableRefresh, &QTimer::timeout, this, &MainWindow::loadVariableValues);
    m_variableRefresh->start();
    connect(m_variableBar, &VariableBar::valueChosen, m_poller, &DashboardPoller::setVariable);
    connect(m_poller, &DashboardPoller::variableChanged, m_variableBar, &VariableBar::setValue);
    // The panels whose queries changed draw the new value's series only.
    connect(m_poller, &DashboardPoller::seriesReplaced, m_view,
            [this](const QList<int> &, const DashboardSnapshot &now) { m_view->rebuild(now); });
}

void MainWindow::showVariables()
{
    const std::vector<VariableDefinition> &variables = m_view->shown().dashboard.variableDefinitions;
    m_variableBar->setVariables(variables);
    m_variableAction->setVisible(m_variableBar->hasChoosable());
    // After the caller had its say: a recording shown offline asks Prometheus nothing.
    QTimer::singleShot(0, this, &MainWindow::loadVariableValues);
}

void MainWindow::setVariableRefreshMs(int ms)
{
    m_variableRefresh->setInterval(ms);
}

void MainWindow::loadVariableValues()
{
    if (m_offline)
        return;
    for (const VariableDefinition &variable : m_view->shown().dashboard.variableDefinitions)
        m_variableValues->load(variable);
}

void MainWindow::listInViewMenu(QDockWidget *dock)
{
    dock->setFeatures(dock->features() | QDockWidget::DockWidgetClosable);
    QMenu *view = menuNamed(QStringLiteral("viewMenu"), tr("&View"));
    QAction *toggle = dock->toggleViewAction();
    toggle->setObjectName(dock->objectName() + QStringLiteral("Toggle"));
    // After the last dock listed: the docks stay together above the rest of the menu.
    QAction *before = view->actions().isEmpty() ? nullptr : view->actions().constFirst();
    if (!m_dockToggles.isEmpty()) {
        const QList<QAction *> actions = view->actions();
        const qsizetype last = actions.indexOf(m_dockToggles.constLast());
        before = last + 1 < actions.size() ? actions.at(last + 1) : nullptr;
    }
    view->insertAction(before, toggle);
    m_dockToggles.append(toggle);
}

QMenu *MainWindow::menuNamed(const QString &objectName, const QString &title)
{
    // Menus are shared by whoever fills them: look one up before making it.
    if (auto *menu = menuBar()->findChild<QMenu *>(objectName, Qt::FindDirectChildrenOnly))
        return menu;
    QMenu *menu = menuBar()->addMenu(title);
    menu->setObjectName(objectName);
    return menu;
}

void MainWindow::buildMenus()
{
    QMenu *file = menuNamed(QStringLiteral("fileMenu"), tr("&File"));
    // Quit closes the window (and so the app, recording closed cleanly). Others add to this
    // menu later (sessions, dashboards, Grafana): it is arranged in its groups, Quit last,
    // each time it opens.
    auto *quit = new QAction(tr("&Quit"), this);
    setFileGroup(quit, FileGroup::Quit);
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setShortcutContext(Qt::WindowShortcut);
    addAction(quit); // works while the menu is closed, from any field
    connect(quit, &QAction::triggered, this, &QWidget::close);
    connect(file, &QMenu::aboutToShow, this, [file] { arrangeFileMenu(file); });
    file->addAction(quit);
    // A picture (PNG, SVG) or the samples (CSV) of the current view, for a blog post.
    QAction *exportChart = file->addAction(tr("E&xport…"));
    setFileGroup(exportChart, FileGroup::Export);
    exportChart->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(exportChart, &QAction::triggered, this, [this] {
        ExportFigure figure =
            ExportFigure::fromDashboard(m_view->shown(), m_annotations, m_window->range(), m_view->annotationScope());
        figure.source = m_client->connection().baseUrl.toString();
        figure.version = QStringLiteral("Chaoscope %1").arg(QCoreApplication::applicationVersion());
        ExportDialog dialog(m_store, std::move(figure), nullptr, this);
        dialog.setDashboardName(m_poller->dashboard().title);
        if (dialog.exec() == QDialog::Accepted && !dialog.writtenPath().isEmpty())
            statusBar()->showMessage(tr("Picture written to %1").arg(dialog.writtenPath()), 15'000);
    });
    m_annotationFiles = new AnnotationFiles(this, m_annotations, m_editor); // after Export…, in its group

    // One stack for every annotation edit (dock, charts, mark now). A text field with the
    // focus keeps Ctrl+Z for its own text.
    m_undoAction = m_editor->undoStack()->createUndoAction(this, tr("Undo"));
    m_undoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    m_redoAction = m_editor->undoStack()->createRedoAction(this, tr("Redo"));
    m_redoAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    QMenu *edit = menuNamed(QStringLiteral("editMenu"), tr("&Edit"));
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);

    QMenu *view = menuNamed(QStringLiteral("viewMenu"), tr("&View"));
    listInViewMenu(m_annotationDock);
    QAction *phaseStatistics = view->addAction(tr("&Statistics per phase…"));
    phaseStatistics->setObjectName(QStringLiteral("phaseStatisticsAction"));
    phaseStatistics->setToolTip(
        tr("Last, min, max and mean of each series in each phase (between the things done), to copy."));
    // From the menu on the first panel, from a panel's right-click on that one.
    const auto openPhaseStatistics = [this](int current) {
        std::vector<PhaseStatisticsDialog::PanelSeries> panels;
        const std::vector<PanelDefinition> &definitions = m_view->shown().dashboard.panels;
        const std::vector<PanelWidget *> &shown = m_view->panels();
        for (std::size_t i = 0; i < shown.size() && i < definitions.size(); ++i)
            panels.push_back(
                PhaseStatisticsDialog::panelSeries(definitions[i], shown[i]->chart()->legend(), shown[i]->checks()));
        auto *dialog = new PhaseStatisticsDialog(m_store, m_annotations, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setPanels(std::move(panels), current);
        dialog->setRange(m_window->range());
        dialog->show();
    };
    connect(phaseStatistics, &QAction::triggered, this, [openPhaseStatistics] { openPhaseStatistics(0); });
    connect(m_view, &DashboardView::phaseStatisticsRequested, this, openPhaseStatistics);
    view->addSeparator();
    ThemeMenu::addTo(view);
    QAction *resetLayout = view->addAction(tr("&Reset layout"));
    resetLayout->setToolTip(tr("Put the docks and toolbars back where they were at the first start."));
    connect(resetLayout, &QAction::triggered, this, [this] {
        if (!m_defaultLayout.isEmpty())
            restoreState(m_defaultLayout);
        m_annotationDock->show();
        AppSettings::forgetWindow();
    });

    // Filled by the dashboard's editing (Add panel…, Columns), in its place before Help.
    menuNamed(QStringLiteral("dashboardMenu"), tr("&Dashboard"));

    QMenu *help = menuNamed(QStringLiteral("helpMenu"), tr("&Help"));
    QAction *shortcuts = help->addAction(tr("&Keyboard shortcuts"));
    shortcuts->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Slash), QKeySequence(Qt::Key_F1)});
    shortcuts->setToolTip(tr("Every key and mouse gesture the window answers to."));
    connect(shortcuts, &QAction::triggered, this, &MainWindow::showShortcuts);
}

void MainWindow::applyTheme()
{
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    m_issues->setStyleSheet(
        QStringLiteral("background: %1; color: %2; border: 1px solid %3; border-radius: 4px; padding: 6px;")
            .arg(UiTheme::css(colors.bannerBackground), UiTheme::css(colors.bannerText),
                 UiTheme::css(colors.bannerBorder)));
    m_central->setStyleSheet(QStringLiteral("#central { background: %1; }").arg(UiTheme::css(colors.window)));
}

void MainWindow::showShortcuts()
{
    if (auto *open = findChild<ShortcutsDialog *>()) {
        open->raise();
        open->activateWindow();
        return;
    }
    auto *dialog = new ShortcutsDialog(this, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::restoreLayout()
{
    m_defaultLayout = saveState();
    m_layoutRestored = true;
    const QByteArray geometry = AppSettings::windowGeometry();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = AppSettings::windowState();
    if (!state.isEmpty())
        restoreState(state);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Unsaved changes to the dashboard are asked about first; Cancel keeps the window.
    if (m_closeGuard && !m_closeGuard()) {
        event->ignore();
        return;
    }
    // Headless runs and tests never restored a layout, so they never overwrite the user's.
    if (m_layoutRestored)
        AppSettings::saveWindow(saveGeometry(), saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::markNow()
{
    // The time is taken when the key is pressed, not when the text is finished.
    const qint64 now = m_window->now();
    const QString at = QDateTime::fromMSecsSinceEpoch(now).toString(QStringLiteral("HH:mm:ss"));
    // Over the middle of the status bar: at the top of the dashboard it covered the panels'
    // titles, and anywhere on a panel it covers the data the note is about.
    const QRect bar = statusBar()->geometry();
    AnnotationPrompt *prompt = AnnotationPrompt::open(this, QPoint((width() - 420) / 2, bar.center().y() - 12),
                                                      tr("Note at %1 · Enter saves, Esc cancels").arg(at));
    connect(prompt, &AnnotationPrompt::accepted, this,
            [this, now](const QString &text) { m_editor->add(Annotation::note(now, std::nullopt, text)); });
}

void MainWindow::syncWindowPicker()
{
    // The picker names the window shown, also one outside its list (a dashboard's "45m",
    // --window 90m): such a value gets an entry of its own, in order.
    const qint64 windowMs = m_window->windowMs();
    int index = m_windowPicker->findData(QVariant::fromValue(windowMs));
    if (index < 0) {
        index = 0;
        while (index < m_windowPicker->count() && m_windowPicker->itemData(index).toLongLong() < windowMs)
            ++index;
        m_windowPicker->insertItem(index, windowLabel(windowMs), QVariant::fromValue(windowMs));
    }
    m_windowPicker->setCurrentIndex(index);
    int refresh = 0;
    for (int i = 0; i < m_refreshPicker->count(); ++i) {
        const qint64 shownMs = m_view->shown().refreshMs;
        if (std::abs(m_refreshPicker->itemData(i).toLongLong() - shownMs) <
            std::abs(m_refreshPicker->itemData(refresh).toLongLong() - shownMs))
            refresh = i;
    }
    m_refreshPicker->setCurrentIndex(refresh);
}

void MainWindow::showDashboard(const QList<DashboardIssue> &issues)
{
    // One picture of the dashboard for the grid and the window; the poller's signals keep it.
    m_view->rebuild(m_poller->snapshot());
    const QString &shownTitle = m_view->shown().dashboard.title;
    const QString title = shownTitle.isEmpty() ? tr("Untitled dashboard") : shownTitle;
    m_title->setText(title);
    setWindowTitle(tr("%1[*] — Chaoscope").arg(title)); // [*]: unsaved changes to the dashboard
    QStringList lines;
    for (const DashboardIssue &issue : issues)
        lines << issue.toString().toHtmlEscaped();
    if (!lines.isEmpty()) {
        m_issues->setText(
            tr("<b>The dashboard file has %n problem(s); the rest is shown.</b><br>", nullptr, int(lines.size())) +
            lines.join(QStringLiteral("<br>")));
    }
    m_issues->setVisible(!lines.isEmpty());
    showVariables();
    m_queryBar->setQueries(m_view->shown().dashboard.annotationQueries, m_view->annotationScope());
    m_queryBarAction->setVisible(!m_queryBar->isEmpty());
    syncWindowPicker();
}

void MainWindow::addInsecureTlsBanner()
{
    // Turned off on purpose (--insecure), never silently: the warning stays as long as the
    // window does, above everything the unverified source shows.
    if (m_client->connection().tls.verifyPeer)
        return;
    auto *banner = new QLabel(tr("TLS certificate verification is off (--insecure): anyone on the network path "
                                 "can read the credentials and change what these panels show. Use --ca-file "
                                 "instead for a private CA."));
    banner->setObjectName(QStringLiteral("insecureTlsBanner"));
    banner->setWordWrap(true);
    banner->setStyleSheet(QStringLiteral("background: #FFE08A; color: #7A0000; border: 2px solid #C62828; "
                                         "border-radius: 4px; padding: 6px; font-weight: bold;"));
    if (auto *layout = qobject_cast<QVBoxLayout *>(centralWidget()->layout()))
        layout->insertWidget(0, banner);
}

void MainWindow::showOffline(const QString &sourceText)
{
    disconnect(m_client, &PrometheusClient::reachabilityChanged, this, &MainWindow::updateSourceState);
    m_sourceState->setText(sourceText);
    m_refreshPicker->setEnabled(false);
    m_pauseAction->setEnabled(false);
    // The recording has the values last chosen live; others were never fetched.
    m_offline = true;
    m_variableRefresh->stop();
    m_variableBar->setEnabled(false);
    m_variableBar->setToolTip(tr("The values last chosen while recording"));
}

void MainWindow::setLoadTester(LoadTesterController *controller, LoadTesterWatch *watch)
{
    auto *panel = new ControlPanel(controller);
    m_controlPanel = panel;
    connect(panel, &ControlPanel::ceilingSearchRequested, this, &MainWindow::ceilingSearchRequested);
    if (watch)
        panel->setWatch(watch);
    m_controlDock = new QDockWidget(tr("Load tester"), this);
    m_controlDock->setObjectName(QStringLiteral("controlDock"));
    m_controlDock->setWidget(panel);
    m_controlDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, m_controlDock);
    listInViewMenu(m_controlDock);
    resizeDocks({m_controlDock}, {340}, Qt::Horizontal);
    const auto showReplicas = [this, controller] {
        m_admin->setText(tr("%1 · %2").arg(controller->capabilities().kind,
                                           Format::counted(controller->replicaCount(), tr("replica"), tr("replicas"))));
    };
    showReplicas();
    connect(controller, &LoadTesterController::replicasChanged, this, showReplicas);
}

QDockWidget *MainWindow::hostDock(const QString &title, const QString &objectName, QWidget *content,
                                  QDockWidget *besides)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(content);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    listInViewMenu(dock);
    if (besides)
        tabifyDockWidget(besides, dock);
    return dock;
}

QDockWidget *MainWindow::hostDockBelow(QDockWidget *above, const QString &title, const QString &objectName,
                                       QWidget *content)
{
    QDockWidget *dock = hostDock(title, objectName, content);
    splitDockWidget(above, dock, Qt::Vertical);
    return dock;
}

void MainWindow::updateSourceState(bool reachable, const QString &message)
{
    m_reachable = reachable;
    m_downReason = message;
    showSourceHealth();
}

void MainWindow::showSourceHealth()
{
    if (m_offline)
        return; // a recording: showOffline() said where it comes from
    std::vector<PanelStatus> panels;
    panels.reserve(m_poller->dashboard().panels.size());
    for (int panel = 0; panel < int(m_poller->dashboard().panels.size()); ++panel)
        panels.push_back(m_poller->panelStatus(panel));
    const SourceHealth health = SourceHealth::judge(m_reachable, m_downReason, panels);
    const QString url = m_client->connection().baseUrl.toDisplayString().toHtmlEscaped();
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    const auto dot = [](const QColor &color) {
        return QStringLiteral("<span style='color:%1'>●</span> ").arg(UiTheme::css(color));
    };
    switch (health.state) {
    case SourceHealth::State::Waiting:
        m_sourceState->setText(tr("Prometheus %1 · connecting…").arg(url));
        break;
    case SourceHealth::State::Up:
        m_sourceState->setText(dot(colors.ok) + tr("Prometheus %1 · up").arg(url));
        break;
    case SourceHealth::State::EveryQueryFails:
        m_sourceState->setText(dot(colors.warning) +
                               tr("Prometheus %1 answers, but <b>every query fails</b> (%2): %3")
                                   .arg(url, Format::counted(health.failingPanels, tr("panel"), tr("panels")),
                                        health.detail.toHtmlEscaped()));
        break;
    case SourceHealth::State::Down:
        m_sourceState->setText(dot(colors.error) +
                               tr("Prometheus %1 · <b>down</b>: %2").arg(url, health.detail.toHtmlEscaped()));
        break;
    }
}

void MainWindow::updateSampleCount()
{
    m_sampleCount->setText(tr("%1 samples").arg(Format::count(m_store->sampleCount())));
}
