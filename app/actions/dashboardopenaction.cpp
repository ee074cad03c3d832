// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/dashboardopenaction.h"

#include "actions/filemenu.h"
#include "dashboard/loader/dashboardloader.h"
#include "settings/appsettings.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace {
const char *const kTitle = QT_TRANSLATE_NOOP("DashboardOpenAction", "Open dashboard");
constexpr int kIssuesShown = 8;
} // namespace

DashboardOpenAction::DashboardOpenAction(QMainWindow *window, const QUrl &prometheusUrl,
                                         const QStringList &connectionArguments)
    : QObject(window), m_window(window), m_launcher{prometheusUrl, connectionArguments}
{
    QMenu *file = sharedFileMenu(window);
    m_menu = new QMenu(tr("Open &dashboard"), file);
    m_menu->setObjectName(QStringLiteral("openDashboardMenu"));
    m_menu->setToolTipsVisible(true);
    // Filled when it opens: a recent file deleted meanwhile is not offered.
    connect(m_menu, &QMenu::aboutToShow, this, &DashboardOpenAction::fillMenu);
    fillMenu();
    QAction *first = file->actions().value(0);
    file->insertMenu(first, m_menu);
}

void DashboardOpenAction::fillMenu()
{
    m_menu->clear();
    const QString hint = tr("Opens in a window of its own, against %1").arg(m_launcher.prometheusUrl.toDisplayString());
    for (const QString &name : DashboardLoader::builtinNames()) {
        QAction *entry = m_menu->addAction(tr("Built-in: %1").arg(name));
        entry->setToolTip(hint);
        connect(entry, &QAction::triggered, this, [this, name] { openFromMenu(name); });
    }
    const QStringList recent = AppSettings::recentDashboards();
    if (!recent.isEmpty())
        m_menu->addSection(tr("Recent"));
    for (const QString &path : recent) {
        QAction *entry = m_menu->addAction(QFileInfo(path).fileName());
        entry->setToolTip(path);
        connect(entry, &QAction::triggered, this, [this, path] { openFromMenu(path); });
    }
    m_menu->addSeparator();
    QAction *other = m_menu->addAction(tr("&Other file…"));
    other->setObjectName(QStringLiteral("openDashboardFileAction"));
    other->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(other, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr(kTitle), QString(),
                                                          tr("Chaoscope dashboards (*.json);;All files (*)"));
        if (!path.isEmpty())
            openFromMenu(path);
    });
}

std::optional<QString> DashboardOpenAction::open(const QString &nameOrPath, bool startWindow)
{
    // Read here first: a broken file is said in this window, where it was chosen. What can
    // be shown despite its issues opens, and the new window lists them where they are.
    const DashboardLoader::LoadResult loaded = DashboardLoader::load(nameOrPath);
    if (!loaded.usable) {
        QStringList lines;
        for (qsizetype i = 0; i < loaded.issues.size() && i < kIssuesShown; ++i)
            lines << loaded.issues[i].toString();
        return tr("%1 cannot be opened: %2").arg(nameOrPath, lines.join(QStringLiteral("; ")));
    }
    if (startWindow && !m_launcher.start(nameOrPath))
        return tr("Could not start Chaoscope to show %1.").arg(nameOrPath);
    m_window->statusBar()->showMessage(tr("Opening “%1” in a new window").arg(loaded.dashboard.title), 10'000);
    emit opened(nameOrPath);
    return std::nullopt;
}

void DashboardOpenAction::openFromMenu(const QString &nameOrPath)
{
    if (const auto problem = open(nameOrPath)) {
        m_window->statusBar()->showMessage(*problem, 15'000);
        QMessageBox::warning(m_window, tr(kTitle), *problem);
    }
}
