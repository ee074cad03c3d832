// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLineEdit>
#include <QPointer>

// The one-line text box for a new annotation: it floats over a widget at a point (the mouse
// position on a chart, or the top of the dashboard for "mark now"), takes focus, and ends in
// exactly one of accepted(text) on Enter (non-empty text) or cancelled() on Esc or focus loss.
// It deletes itself afterwards, so callers connect and forget.
class AnnotationPrompt : public QLineEdit
{
    Q_OBJECT
public:
    // `over` is the widget it floats over (it becomes the parent); `at` is in its coordinates.
    static AnnotationPrompt *open(QWidget *over, const QPoint &at, const QString &placeholder);
    ~AnnotationPrompt() override;
    // While a note is being typed, nothing else pops up over it (a chart's tooltips wait).
    static bool isAnyOpen() { return s_open > 0; }

signals:
    void accepted(const QString &text);
    void cancelled();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    explicit AnnotationPrompt(QWidget *parent);
    // Enter and Esc give the focus back to where it was, so the next M works; after a click
    // elsewhere the focus is already where the user wants it.
    void finish(bool accept, bool giveFocusBack);

    static inline int s_open = 0;
    bool m_finished = false;
    QPointer<QWidget> m_focusBefore;
};
