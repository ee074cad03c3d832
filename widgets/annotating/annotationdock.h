// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDockWidget>
#include <vector>

class AnnotationEditor;
class AnnotationFilter;
class QAction;
class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class TimeWindow;

// The list of every annotation: filter by words, #tag and source; edit text, tags, time and
// region end in place (F2 or a click on a selected cell); delete (Del or the button); accept
// or dismiss a detector's suggestion (buttons shown while one is selected, or the row's
// context menu); add one
// at a chosen time, as a point or a region; double-click shows it on the timelines. Every
// change goes through the AnnotationEditor, so Ctrl+Z undoes it wherever it was made.
class AnnotationDock : public QDockWidget
{
    Q_OBJECT
public:
    AnnotationDock(AnnotationEditor *editor, TimeWindow *window, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    AnnotationEditor *editor() const { return m_editor; }
    AnnotationFilter *filter() const { return m_filter; }
    // The last refused edit or add, in words ("Time: … is not a time"); empty after a success.
    QString errorText() const;

    // Opens the add form with the time set to now.
    void startAdding();
    // Shows the annotation on the timelines (what a double-click does).
    void showOnTimeline(quint64 id);

private:
    QWidget *buildAddForm();
    void saveAdded();
    void cancelAdding();
    void deleteSelected();
    void acceptSelected();
    void dismissSelected();
    std::vector<quint64> selectedIds() const;
    void updateButtons();
    void updateCount();
    void showError(const QString &message);

    AnnotationEditor *m_editor;
    TimeWindow *m_window;
    AnnotationFilter *m_filter;
    QTableView *m_table;
    QLineEdit *m_search;
    QComboBox *m_sourcePicker;
    QPushButton *m_addButton;
    QPushButton *m_deleteButton;
    QPushButton *m_acceptButton;
    QPushButton *m_dismissButton;
    QAction *m_acceptAction = nullptr;
    QAction *m_dismissAction = nullptr;
    QAction *m_copyAction = nullptr;
    QLabel *m_count;
    QLabel *m_error;
    QFrame *m_addForm = nullptr;
    QDateTimeEdit *m_addTime = nullptr;
    QCheckBox *m_addIsRegion = nullptr;
    QDateTimeEdit *m_addEnd = nullptr;
    QLineEdit *m_addText = nullptr;
    QLineEdit *m_addTags = nullptr;
};
