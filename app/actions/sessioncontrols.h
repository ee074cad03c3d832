// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QMainWindow;
class SessionRecorder;
class SessionSaver;
class TimeWindow;

// The session parts of the main window: File ▸ Open session… (in a window of its own, so the
// live run goes on), Save session as… and Save visible range as… (compacted copies), and the
// status bar's label saying where the run is recorded, how big the file is, and when
// recording is paused by a write error.
class SessionControls : public QObject
{
    Q_OBJECT
public:
    SessionControls(QMainWindow *window, TimeWindow *timeWindow, SessionRecorder *recorder, SessionSaver *saver);

    // A recording shown offline (not a live run recorded to `path`), and what could not be
    // read back from it (the label's tooltip tells).
    void setOffline(const QString &path, const QString &problems = {});
    // Why the live run is not recorded (--no-record, or the file could not be created).
    void setNotRecording(const QString &reason);
    QLabel *statusLabel() const { return m_label; }

private:
    void buildMenu();
    void updateLabel();
    void saveAs(bool visibleRangeOnly);

    QMainWindow *m_window;
    TimeWindow *m_timeWindow;
    SessionRecorder *m_recorder;
    SessionSaver *m_saver;
    QLabel *m_label;
    QString m_offlinePath;
    QString m_offlineProblems;
    QString m_notRecording;
};
