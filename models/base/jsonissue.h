// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// One problem found while reading a JSON file of Chaoscope's (a dashboard, a scenario): where
// (a JSON path such as "panels[2].series[0].query") and why ("missing", "must be a string", ...).
struct JsonIssue
{
    QString path;
    QString message;
    QString toString() const { return path.isEmpty() ? message : path + QStringLiteral(": ") + message; }
};
