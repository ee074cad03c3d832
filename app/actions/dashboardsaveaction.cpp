// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/dashboardsaveaction.h"

#include "actions/dashboardediting.h"
#include "actions/filemenu.h"
#include "base/whenfinished.h"
#include "dashboard/dashboardwriter.h"
#include "dashboard/loader/dashboardloader.h"
#include "settings/appsettings.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QSaveFile>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

namespace {

Result<QString> writeFile(const QString &path, const QByteArray &json)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create the folder %1").arg(info.absolutePath()));
    QSaveFile file(info.absoluteFilePath());
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit())
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot write %1: %2").arg(info.absoluteFilePath(), file.errorString()));
    return info.absoluteFilePath();
}

} // namespace

DashboardSaveAction::DashboardSaveAction(QMainWindow *window, DashboardEditing *editing,
                                         std::function<DashboardDefinition()> current, const QString &path)
    : QObject(window), m_window(window), m_editing(editing), m_current(std::move(current))
{
    // A built-in name is not a file (whatever the working folder holds of that name, as the
    // loader reads it): saving it makes a copy in the user's dashboards folder.
    if (DashboardLoader::isBuiltinName(path))
        m_builtinName = path;
    else
        m_path = path;
    QMenu *file = sharedFileMenu(window);
    QAction *save = file->addAction(tr("&Save dashboard"));
    save->setObjectName(QStringLiteral("saveDashboardAction"));
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
    save->setToolTip(tr("Write the dashboard as it is now, with what was added and changed, to its file"));
    connect(save, &QAction::triggered, this, [this] { this->save(); });
    QAction *saveAs = file->addAction(tr("Save dashboard &as…"));
    saveAs->setObjectName(QStringLiteral("saveDashboardAsAction"));
    saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(saveAs, &QAction::triggered, this, [this] { this->saveAs(); });
    connect(m_editing, &DashboardEditing::modifiedChanged, window, &QWidget::setWindowModified);
}

bool DashboardSaveAction::save()
{
    if (!m_builtinName.isEmpty()) {
        saveTo(copyPathFor(m_builtinName));
        return true;
    }
    if (m_path.isEmpty())
        return saveAs();
    saveTo(m_path);
    return true;
}

QString DashboardSaveAction::copyPathFor(const QString &builtinName)
{
    // A copy never overwrites an earlier one: "testbed.json", "testbed 2.json", …
    const QDir folder(AppSettings::dashboardsFolder());
    QString path = folder.filePath(builtinName + QStringLiteral(".json"));
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = folder.filePath(QStringLiteral("%1 %2.json").arg(builtinName).arg(n));
    return path;
}

bool DashboardSaveAction::saveAs()
{
    const QString suggested = !m_path.isEmpty() ? m_path
                              : !m_builtinName.isEmpty()
                                  ? copyPathFor(m_builtinName)
                                  : QDir(AppSettings::dashboardsFolder()).filePath(QStringLiteral("dashboard.json"));
    QDir().mkpath(QFileInfo(suggested).absolutePath()); // the dialog opens in it
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save dashboard as"), suggested,
                                                tr("Dashboards (*.json);;All files (*)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        path += QStringLiteral(".json");
    saveTo(path);
    return true;
}

void DashboardSaveAction::saveTo(const QString &path)
{
    const DashboardDefinition dashboard = m_current();
    const QByteArray json = DashboardWriter::toJson(dashboard);
    m_window->statusBar()->showMessage(tr("Saving the dashboard to %1…").arg(QFileInfo(path).fileName()));
    whenFinished(
        QtConcurrent::run([path, json] { return writeFile(path, json); }), this,
        [this, dashboard](const Result<QString> &written) {
            if (!written) {
                m_window->statusBar()->showMessage(written.error().message, 15'000);
                QMessageBox::warning(m_window, tr("Save dashboard"), written.error().message);
                emit saved(false, written.error().message);
                return;
            }
            const QString copyOf = m_builtinName;
            m_path = written.value();
            m_builtinName.clear();
            m_editing->markSaved(dashboard);
            AppSettings::addRecentDashboard(m_path);
            const QString message =
                copyOf.isEmpty()
                    ? tr("Dashboard saved to %1").arg(m_path)
                    : tr("Dashboard saved to %1 (a copy: the built-in \"%2\" stays as it is)").arg(m_path, copyOf);
            m_window->statusBar()->showMessage(message, 10'000);
            emit saved(true, message);
        });
}

bool DashboardSaveAction::mayClose()
{
    if (!m_editing->isModified())
        return true;
    const QMessageBox::StandardButton answer = QMessageBox::question(
        m_window, tr("Unsaved changes"),
        tr("The dashboard has changes that are not saved (panels or queries added or changed here). Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Discard)
        return true;
    // Saved off the UI thread as any save; the window closes once it is written (and stays,
    // saying why, when it could not be).
    auto *once = new QObject(this);
    connect(this, &DashboardSaveAction::saved, once, [this, once](bool ok) {
        once->deleteLater();
        if (ok)
            m_window->close();
    });
    if (!save())
        delete once; // Save as… was cancelled: nothing will answer
    return false;
}
