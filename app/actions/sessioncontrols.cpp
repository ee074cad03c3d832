// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/sessioncontrols.h"

#include "actions/filemenu.h"
#include "base/format.h"
#include "session/sessionrecorder.h"
#include "session/sessionsaver.h"
#include "settings/appsettings.h"
#include "theme/uitheme.h"
#include "timeline/timewindow.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

namespace {

QString sessionsFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions");
}

const QString kFilter = QStringLiteral("Chaoscope sessions (*.chaoscope);;All files (*)");

} // namespace

SessionControls::SessionControls(QMainWindow *window, TimeWindow *timeWindow, SessionRecorder *recorder,
                                 SessionSaver *saver)
    : QObject(window), m_window(window), m_timeWindow(timeWindow), m_recorder(recorder), m_saver(saver),
      m_label(new QLabel)
{
    m_label->setObjectName(QStringLiteral("sessionLabel"));
    m_label->setTextFormat(Qt::RichText);
    window->statusBar()->addPermanentWidget(m_label);
    buildMenu();
    connect(recorder, &SessionRecorder::stateChanged, this, &SessionControls::updateLabel);
    connect(saver, &SessionSaver::finished, this, [this](bool ok, const QString &message) {
        m_window->statusBar()->showMessage(message, 15'000);
        if (!ok)
            QMessageBox::warning(m_window, tr("Save session"), message);
    });
    // The size grows while the run is recorded; once a second is what the status bar needs.
    auto *timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, &SessionControls::updateLabel);
    timer->start(1000);
    updateLabel();
}

void SessionControls::buildMenu()
{
    QMenu *file = sharedFileMenu(m_window);
    QAction *first = file->actions().value(0);
    QAction *open = new QAction(tr("&Open session…"), file);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Show a recorded session offline, in a window of its own."));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"), sessionsFolder(), kFilter);
        if (path.isEmpty())
            return;
        // Its own process: the live run here keeps polling and recording undisturbed.
        if (!QProcess::startDetached(QCoreApplication::applicationFilePath(), {QStringLiteral("--session"), path}))
            QMessageBox::warning(m_window, tr("Open session"), tr("Could not start Chaoscope to show %1.").arg(path));
    });
    // Recent sessions, read when the menu opens (a file deleted meanwhile is not offered).
    auto *recent = new QMenu(tr("Open &recent session"), file);
    recent->setObjectName(QStringLiteral("recentSessionsMenu"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        recent->clear();
        const QStringList paths = AppSettings::recentSessions();
        if (paths.isEmpty())
            recent->addAction(tr("(none yet)"))->setEnabled(false);
        for (const QString &path : paths) {
            QAction *entry = recent->addAction(QFileInfo(path).fileName());
            entry->setToolTip(path);
            connect(entry, &QAction::triggered, this, [this, path] {
                if (!QProcess::startDetached(QCoreApplication::applicationFilePath(),
                                             {QStringLiteral("--session"), path}))
                    QMessageBox::warning(m_window, tr("Open session"),
                                         tr("Could not start Chaoscope to show %1.").arg(path));
            });
        }
    });
    QAction *save = new QAction(tr("&Save session as…"), file);
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    save->setToolTip(tr("Write a compacted copy of the whole session, with the annotations as they are now."));
    connect(save, &QAction::triggered, this, [this] { saveAs(false); });
    QAction *trimmed = new QAction(tr("Save &visible range as…"), file);
    trimmed->setToolTip(tr("Write a copy holding only the time range on screen, e.g. to share."));
    connect(trimmed, &QAction::triggered, this, [this] { saveAs(true); });
    file->insertActions(first, {open, recent->menuAction(), save, trimmed});
    if (first)
        file->insertSeparator(first);
}

void SessionControls::saveAs(bool visibleRangeOnly)
{
    if (!m_saver->canSave()) {
        QMessageBox::information(m_window, tr("Save session"),
                                 tr("This run is not recorded, so there is no session to save."));
        return;
    }
    const QFileInfo source(m_saver->sourcePath());
    const QString suggestion = source.dir().filePath(
        source.completeBaseName() + (visibleRangeOnly ? QStringLiteral("-range") : QStringLiteral("-copy")) +
        QStringLiteral(".chaoscope"));
    QString path = QFileDialog::getSaveFileName(
        m_window, visibleRangeOnly ? tr("Save visible range as") : tr("Save session as"), suggestion, kFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".chaoscope");
    m_window->statusBar()->showMessage(tr("Saving %1…").arg(QFileInfo(path).fileName()));
    m_saver->save(path, visibleRangeOnly ? std::optional<TimeRange>(m_timeWindow->range()) : std::nullopt);
}

void SessionControls::setOffline(const QString &path, const QString &problems)
{
    m_offlinePath = path;
    m_offlineProblems = problems;
    updateLabel();
}

void SessionControls::setNotRecording(const QString &reason)
{
    m_notRecording = reason;
    updateLabel();
}

void SessionControls::updateLabel()
{
    const QString error = m_recorder->errorMessage();
    if (!error.isEmpty()) {
        m_label->setText(QStringLiteral("<span style='color:%1'><b>%2</b></span>")
                             .arg(UiTheme::css(UiTheme::instance()->colors().error),
                                  m_recorder->isPaused() ? tr("Recording paused") : tr("Not saved")));
        m_label->setToolTip(error);
        return;
    }
    if (!m_offlinePath.isEmpty()) {
        const QFileInfo info(m_offlinePath);
        m_label->setText(tr("Recording %1 · %2").arg(info.fileName().toHtmlEscaped(), Format::bytes(info.size())));
        QString tip = info.absoluteFilePath();
        if (!m_offlineProblems.isEmpty())
            tip += QLatin1Char('\n') + m_offlineProblems;
        if (m_recorder->isActive())
            tip += QLatin1Char('\n') + tr("Annotation edits are appended to it.");
        m_label->setToolTip(tip);
        return;
    }
    if (m_recorder->isActive()) {
        const QFileInfo info(m_recorder->path());
        // Words, not a red dot: a red dot beside the source's state read as an error light.
        m_label->setText(
            tr("Recording to %1 · %2").arg(info.fileName().toHtmlEscaped(), Format::bytes(m_recorder->fileSize())));
        m_label->setToolTip(tr("Recording the run to %1").arg(info.absoluteFilePath()));
        return;
    }
    m_label->setText(tr("Not recording"));
    m_label->setToolTip(m_notRecording);
}
