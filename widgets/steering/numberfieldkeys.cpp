// SPDX-License-Identifier: GPL-3.0-or-later
#include "steering/numberfieldkeys.h"

#include <QAbstractSpinBox>
#include <QKeyEvent>

void NumberFieldKeys::install(QAbstractSpinBox *field)
{
    field->installEventFilter(new NumberFieldKeys(field));
}

bool NumberFieldKeys::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return QObject::eventFilter(watched, event);
    const auto *key = static_cast<QKeyEvent *>(event);
    const Qt::KeyboardModifiers modifiers = key->modifiers() & ~Qt::KeypadModifier;
    bool fieldNeedsIt = true;
    if (modifiers & Qt::ControlModifier) {
        // The field's own: copy, cut, paste, undo, redo, select all.
        switch (key->key()) {
        case Qt::Key_A:
        case Qt::Key_C:
        case Qt::Key_V:
        case Qt::Key_X:
        case Qt::Key_Y:
        case Qt::Key_Z:
        case Qt::Key_Left:
        case Qt::Key_Right:
        case Qt::Key_Backspace:
        case Qt::Key_Delete:
            break;
        default:
            fieldNeedsIt = false;
        }
    } else if (!key->text().isEmpty()) {
        // Digits, the decimal separators and a sign are a number's; a letter or a space is not.
        const QChar c = key->text().front();
        fieldNeedsIt = c.isDigit() || c == QLatin1Char('.') || c == QLatin1Char(',') || c == QLatin1Char('-') ||
                       c == QLatin1Char('+') || !c.isPrint();
    }
    if (fieldNeedsIt)
        return QObject::eventFilter(watched, event);
    event->ignore(); // not claimed: the shortcut map gives it to the window's shortcut
    return true;
}
