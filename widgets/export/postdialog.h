// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/postexporter.h"

#include <QDialog>
#include <QString>
#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class SampleStore;

// File ▸ Export post…: a Chaos Day post drafted from the run into a folder: its title,
// authors and tags, the panels of the summary picture, and what the post will hold (its phases
// and pictures) before it is written. Writing draws the pictures off the UI thread, from a copy
// of the run's samples; an index.md the author has edited is kept and the new draft goes
// beside it, which the dialog says.
class PostDialog : public QDialog
{
    Q_OBJECT
public:
    // `samples` holds the run's series (a copy: the pictures are drawn on a worker thread);
    // `run.store` is samples.get().
    PostDialog(PostRun run, std::shared_ptr<const SampleStore> samples, PostSettings settings, const QString &folder,
               QWidget *parent = nullptr);

    QString folder() const;
    // The settings as the fields say.
    PostSettings settings() const;
    // What the post will hold, as the dialog lists it ("Phase 2: rate 150 → 400 /s —
    // phase-2-rate-400.png"), or why it cannot be written.
    QString planText() const;

    // Writes as the fields say; `written` tells how it went.
    void write();

signals:
    void written(bool ok, const QString &message, const QString &indexPath);

private:
    void updatePlan();
    void chooseFolder();

    PostRun m_run;
    std::shared_ptr<const SampleStore> m_samples;
    PostSettings m_base;
    QLineEdit *m_folder;
    QLineEdit *m_title;
    QLineEdit *m_authors;
    QLineEdit *m_tags;
    QListWidget *m_headline;
    QLabel *m_plan;
    QLabel *m_status;
    QPushButton *m_write;
    bool m_writing = false;
};
