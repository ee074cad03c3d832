// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/homekey.h"

#include <QAbstractSpinBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace {

// Whether Home would do nothing in this text field: its cursor already at the start, and
// nothing selected that Home would deselect.
bool homeDoesNothingIn(QObject *widget)
{
    if (auto *spin = qobject_cast<QAbstractSpinBox *>(widget))
        widget = spin->findChild<QLineEdit *>();
    if (auto *line = qobject_cast<QLineEdit *>(widget))
        return line->cursorPosition() == 0 && !line->hasSelectedText();
    if (auto *plain = qobject_cast<QPlainTextEdit *>(widget))
        return plain->textCursor().atBlockStart() && !plain->textCursor().hasSelection();
    if (auto *rich = qobject_cast<QTextEdit *>(widget))
        return rich->textCursor().atBlockStart() && !rich->textCursor().hasSelection();
    return false;
}

} // namespace

bool HomeKeyFilter::eventFilter(QObject *watched, QEvent *event)
{
    // A widget that wants a key a shortcut also has accepts its ShortcutOverride; left
    // unaccepted here, the window's Home shortcut runs instead.
    if (event->type() == QEvent::ShortcutOverride) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Home && key->modifiers() == Qt::NoModifier && homeDoesNothingIn(watched)) {
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}
