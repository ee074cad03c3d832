// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/annotationfiles.h"

#include "actions/filemenu.h"
#include "annotating/annotationeditor.h"
#include "annotations/annotationio.h"
#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "base/whenfinished.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

AnnotationFiles::AnnotationFiles(QMainWindow *window, AnnotationModel *annotations, AnnotationEditor *editor)
    : QObject(window), m_window(window), m_annotations(annotations), m_editor(editor)
{
    QMenu *file = window->menuBar()->findChild<QMenu *>(QStringLiteral("fileMenu"), Qt::FindDirectChildrenOnly);
    Q_ASSERT(file);
    QAction *import = file->addAction(tr("&Import annotations…"));
    setFileGroup(import, FileGroup::Import);
    import->setToolTip(tr("Add annotations from a JSON or CSV file; those already here are skipped."));
    connect(import, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Import annotations"), QString(),
                                                          tr("Annotations (*.json *.csv);;All files (*)"));
        if (!path.isEmpty())
            importFrom(path);
    });
    QAction *exportAction = file->addAction(tr("&Export annotations…"));
    setFileGroup(exportAction, FileGroup::Export);
    connect(exportAction, &QAction::triggered, this, [this] {
        const QString json = tr("JSON (*.json)");
        QString filter = json;
        QString path =
            QFileDialog::getSaveFileName(m_window, tr("Export annotations"), QStringLiteral("annotations.json"),
                                         json + QStringLiteral(";;") + tr("CSV (*.csv)"), &filter);
        if (path.isEmpty())
            return;
        if (!AnnotationIo::formatOf(path))
            path += filter == json ? QStringLiteral(".json") : QStringLiteral(".csv");
        exportTo(path);
    });
}

void AnnotationFiles::say(const QString &title, const QString &message, const QStringList &problems)
{
    m_window->statusBar()->showMessage(message, 15'000);
    auto *box = new QMessageBox(QMessageBox::Warning, title, problems.isEmpty() ? message : message + QLatin1Char('.'),
                                QMessageBox::Ok, m_window);
    if (!problems.isEmpty()) {
        box->setInformativeText(problems.mid(0, 5).join(QLatin1Char('\n')) +
                                (problems.size() > 5 ? QStringLiteral("\n…") : QString()));
        box->setDetailedText(problems.join(QLatin1Char('\n')));
    }
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void AnnotationFiles::importFrom(const QString &path)
{
    whenFinished(
        QtConcurrent::run([path] { return AnnotationIo::readFile(path); }), this,
        [this, path](const Result<AnnotationIo::Parsed> &parsed) {
            if (!parsed) {
                say(tr("Import annotations"), parsed.error().message);
                emit done(false, parsed.error().message);
                return;
            }
            const AnnotationIo::Merge merge = AnnotationIo::merge(m_annotations->annotations(), parsed->annotations);
            const QString name = QFileInfo(path).fileName();
            const int added = m_editor->addAll(
                merge.added,
                tr("Import %1 from %2")
                    .arg(Format::counted(qint64(merge.added.size()), tr("annotation"), tr("annotations")), name));
            QString message =
                tr("Imported %1 from %2").arg(Format::counted(added, tr("annotation"), tr("annotations")), name);
            if (merge.duplicates > 0)
                message += tr("; %n already here, skipped", nullptr, merge.duplicates);
            if (!parsed->problems.isEmpty())
                message += tr("; %n row(s) with problems, skipped", nullptr, int(parsed->problems.size()));
            if (parsed->problems.isEmpty())
                m_window->statusBar()->showMessage(message, 15'000);
            else
                say(tr("Import annotations"), message, parsed->problems);
            emit done(true, message);
        });
}

void AnnotationFiles::exportTo(const QString &path)
{
    // A copy for the worker: the model may change while the file is written.
    whenFinished(QtConcurrent::run([path, annotations = m_annotations->annotations()] {
                     return AnnotationIo::writeFile(path, annotations);
                 }),
                 this, [this, count = int(m_annotations->rowCount())](const Result<QString> &written) {
                     const QString message =
                         written ? tr("Exported %n annotation(s) to %1", nullptr, count).arg(written.value())
                                 : written.error().message;
                     if (written)
                         m_window->statusBar()->showMessage(message, 15'000);
                     else
                         say(tr("Export annotations"), message);
                     emit done(written.ok(), message);
                 });
}
