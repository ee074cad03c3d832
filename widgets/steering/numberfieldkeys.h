// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QAbstractSpinBox;

// Lets the window's shortcuts through a number field. A spin box, like any line edit, claims
// every printable key and many Ctrl keys for itself, so M (mark now), Space (pause),
// Ctrl+E (export) did nothing while the cursor was in the Rate field — where it stays after
// Apply. A number field has no use for letters or a space, nor for Ctrl keys other than the
// clipboard's, undo's and select-all: those go to the window.
class NumberFieldKeys : public QObject
{
    Q_OBJECT
public:
    // Filters `field`'s keys; a child of it.
    static void install(QAbstractSpinBox *field);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    using QObject::QObject;
};
