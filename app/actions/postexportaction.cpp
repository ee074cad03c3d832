// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/postexportaction.h"

#include "actions/filemenu.h"
#include "annotations/annotationmodel.h"
#include "base/filenames.h"
#include "export/postdialog.h"
#include "fetching/dashboardpoller.h"
#include "settings/appsettings.h"
#include "store/samplestore.h"
#include "store/storecopy.h"

#include <QAction>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QMainWindow>
#include <QStandardPaths>
#include <QStatusBar>

PostExportAction::PostExportAction(QMainWindow *window, const SampleStore *store, const AnnotationModel *annotations,
                                   const DashboardPoller *poller, RunInfoSource info)
    : QObject(window), m_window(window), m_store(store), m_annotations(annotations), m_poller(poller),
      m_info(std::move(info))
{
    QAction *action = sharedFileMenu(window)->addAction(tr("Export &post…"));
    setFileGroup(action, FileGroup::Export);
    action->setObjectName(QStringLiteral("exportPostAction"));
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    action->setToolTip(tr("Draft the Chaos Day post from this run: index.md with its phases, numbers and pictures."));
    connect(action, &QAction::triggered, this, &PostExportAction::open);
}

void PostExportAction::open()
{
    const RunInfo info = m_info();
    PostRun run;
    run.snapshot = m_poller->snapshot();
    run.range = info.range;
    run.source = info.source;
    run.scenario = info.scenario;
    run.verdict = info.verdict;
    run.scope = AnnotationScope(run.snapshot.dashboard);
    for (const Annotation &annotation : m_annotations->annotations())
        if (!annotation.suggested)
            run.annotations.push_back(annotation);
    // The pictures are drawn on a worker thread: from a copy of the run's samples, so that the
    // poller goes on filling the live store meanwhile.
    QStringList keys;
    for (const std::vector<SeriesBinding> &panel : run.snapshot.series)
        for (const SeriesBinding &binding : panel)
            keys << binding.key;
    const std::shared_ptr<SampleStore> samples = StoreCopy::of(*m_store, keys, run.range);
    run.store = samples.get();

    PostSettings settings;
    settings.authors = AppSettings::postAuthors();
    settings.tags = AppSettings::postTags();
    settings.version = QStringLiteral("Chaoscope %1").arg(QCoreApplication::applicationVersion());
    const QString dashboard = FileNames::slug(run.snapshot.dashboard.title);
    const QString base = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString folder =
        QDir(base.isEmpty() ? QDir::homePath() : base)
            .filePath(QStringLiteral("%1-%2").arg(
                QDateTime::fromMSecsSinceEpoch(run.range.startMs).toString(QStringLiteral("yyyy-MM-dd")),
                dashboard.isEmpty() ? QStringLiteral("chaos-day") : dashboard));
    auto *dialog = new PostDialog(std::move(run), samples, settings, folder, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PostDialog::written, this, [this, dialog](bool ok, const QString &message, const QString &) {
        m_window->statusBar()->showMessage(message, 15'000);
        if (ok) {
            const PostSettings used = dialog->settings();
            AppSettings::setPostWords(used.authors, used.tags);
        }
    });
    dialog->show();
}
