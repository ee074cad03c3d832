// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class AnnotationEditor;
class AnnotationModel;
class QMainWindow;

// File ▸ Import annotations… and Export annotations…: a JSON or CSV file read or written off
// the UI thread, merged through the editor (one undo step, duplicates skipped), and said in the
// status bar (problems also in a message box).
class AnnotationFiles : public QObject
{
    Q_OBJECT
public:
    // Adds its entries to the window's File menu.
    AnnotationFiles(QMainWindow *window, AnnotationModel *annotations, AnnotationEditor *editor);

    // Without the file dialog.
    void importFrom(const QString &path);
    void exportTo(const QString &path);

signals:
    // An import or export finished: `message` is what the status bar says.
    void done(bool ok, const QString &message);

private:
    void say(const QString &title, const QString &message, const QStringList &problems = {});

    QMainWindow *m_window;
    AnnotationModel *m_annotations;
    AnnotationEditor *m_editor;
};
