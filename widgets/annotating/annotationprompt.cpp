// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotating/annotationprompt.h"

#include "theme/uitheme.h"

#include <QApplication>
#include <QFocusEvent>
#include <QKeyEvent>
#include <algorithm>

AnnotationPrompt::~AnnotationPrompt()
{
    --s_open;
}

AnnotationPrompt::AnnotationPrompt(QWidget *parent) : QLineEdit(parent)
{
    ++s_open;
    setObjectName(QStringLiteral("annotationPrompt"));
    setClearButtonEnabled(false);
    // Floats over charts: a solid background and a frame in the marker colour keep it legible
    // on top of lines and bands.
    setStyleSheet(
        QStringLiteral("QLineEdit { background: %1; color: %2; border: 2px solid #0072B2; border-radius: 4px;"
                       " padding: 3px 6px; }")
            .arg(UiTheme::css(UiTheme::instance()->colors().panel), UiTheme::css(UiTheme::instance()->colors().text)));
}

AnnotationPrompt *AnnotationPrompt::open(QWidget *over, const QPoint &at, const QString &placeholder)
{
    auto *prompt = new AnnotationPrompt(over);
    prompt->setPlaceholderText(placeholder);
    const int width = std::min(420, std::max(160, over->width() - 16));
    prompt->resize(width, prompt->sizeHint().height());
    // Kept inside the widget it floats over, so the whole box is visible near an edge too.
    const int x = std::clamp(at.x(), 0, std::max(0, over->width() - prompt->width()));
    const int y = std::clamp(at.y(), 0, std::max(0, over->height() - prompt->height()));
    prompt->move(x, y);
    prompt->m_focusBefore = QApplication::focusWidget();
    prompt->show();
    prompt->raise();
    prompt->activateWindow();
    prompt->setFocus(Qt::OtherFocusReason);
    return prompt;
}

void AnnotationPrompt::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        event->accept();
        finish(!text().trimmed().isEmpty(), true);
        return;
    case Qt::Key_Escape:
        event->accept();
        finish(false, true);
        return;
    default:
        QLineEdit::keyPressEvent(event);
    }
}

void AnnotationPrompt::focusOutEvent(QFocusEvent *event)
{
    QLineEdit::focusOutEvent(event);
    // A popup (the line edit's own context menu) takes focus only for a moment.
    if (event->reason() != Qt::PopupFocusReason)
        finish(false, false);
}

void AnnotationPrompt::finish(bool accept, bool giveFocusBack)
{
    if (m_finished)
        return;
    m_finished = true;
    // Hidden first, so the focus is back where it was before the signal's receivers run.
    if (giveFocusBack && m_focusBefore)
        m_focusBefore->setFocus(Qt::OtherFocusReason);
    hide();
    if (accept)
        emit accepted(text().trimmed());
    else
        emit cancelled();
    deleteLater();
}
