// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QString>

class QWidget;

// Renders a widget (the main window) to a PNG; creates the folder. Returns the absolute path.
Result<QString> saveScreenshot(QWidget *widget, const QString &path);
