// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/comparedrun.h"
#include "report/runtable.h"

#include <QHash>
#include <QImage>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QRadioButton;
class QTableWidget;
struct ExportFigure;

// File ▸ Compare runs…: 2 to 8 runs on one time scale, aligned on an event ("rate", "in-flight
// limit"), overlaid (a colour per run) or side by side (a column per run, the same scales),
// and their run table: one row per run, a column per series and statistic over each run's
// steady state. The runs come from the app (recordings, windows of this run, a variable's
// values), which owns them; this window shows them, and exports the picture and the table.
class ComparisonWindow : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonWindow(QWidget *parent = nullptr);

    // The runs as given: each from its start, its steady state the whole run. A run renamed
    // here keeps its new name when it comes again (the app re-sends the runs as data arrives).
    void setRuns(std::vector<ComparedRun> runs);
    // The runs as the fields say: titled, aligned, with their steady states; or why not.
    Result<std::vector<ComparedRun>> arrangedRuns() const;
    // The picture and the table as they are shown now.
    const QImage &preview() const { return m_preview; }
    const std::optional<RunTable> &table() const { return m_table; }
    QString status() const;

    void setAlignText(const QString &text);
    void setSteady(const QString &text);
    void setColumns(const QString &text);
    void setOverlay(bool overlay);
    void setOverlaid(const QString &names);

    // Writes the picture (PNG at 2×, or SVG) or the table (.md, .csv) by the file's suffix.
    Result<QString> writePicture(const QString &path) const;
    Result<QString> writeTable(const QString &path) const;

signals:
    // The app adds runs to the window: recordings chosen in a file dialog, the view shown in
    // the main window, or the values of a dashboard variable.
    void addRecordingsRequested();
    void addViewRequested();
    void addVariableRequested();
    void removeRequested(int index); // of the runs as given
    void updated();                  // preview and table redrawn

private:
    void schedule();
    void refresh();
    ExportFigure figure(const std::vector<ComparedRun> &runs) const;
    void exportPicture();
    void saveTable();

    std::vector<ComparedRun> m_given;
    QHash<QString, QString> m_renamed; // a run's given title → the one typed here
    QListWidget *m_runs;
    QPushButton *m_remove;
    QLineEdit *m_align;
    QLineEdit *m_steady;
    QLineEdit *m_columns;
    QLineEdit *m_overlaid;
    QRadioButton *m_overlay;
    QRadioButton *m_sideBySide;
    QListWidget *m_panels;
    QLabel *m_previewLabel;
    QTableWidget *m_tableView;
    QLabel *m_status;
    QTimer m_delay;
    QImage m_preview;
    std::optional<RunTable> m_table;
};
