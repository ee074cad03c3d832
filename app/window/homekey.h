// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

// Home returns to the live window wherever the focus is. A text field takes Home for itself
// (the cursor to the start of the line), so there the first Home does that and a second one,
// with the cursor already at the start, goes live: a user who typed a query in Explore or a
// rate in the Load tester dock and presses Home to follow "now" again is not left behind.
// Installed on the application; it only lets the window's shortcut see the key.
class HomeKeyFilter : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};
