// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

// The status bar's "Loading history" piece: how far the history of a long window has come
// (the words beside a bar, never printed over it), a Cancel button, and, when the source stops
// answering while history is still missing, that it is stalled and why, instead of a bar
// that just stops moving. Hidden when nothing is loading.
class HistoryProgress : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryProgress(QWidget *parent = nullptr);

    void setProgress(int done, int total);
    // The source's state as the status light has it: while it is down, loading is stalled.
    void setSourceReachable(bool reachable);

    QString text() const;
    bool isStalled() const { return m_loading && !m_reachable; }

signals:
    void cancelRequested();

private:
    void update();

    QLabel *m_text;
    QProgressBar *m_bar;
    QToolButton *m_cancel;
    int m_done = 0;
    int m_total = 0;
    bool m_loading = false;
    bool m_reachable = true;
};
