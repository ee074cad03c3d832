// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QString>

// Names a series for the legend from a Grafana-style template: "{{pod}} sent/s".
// Unknown labels expand to nothing; an empty template gives the label set
// ({job="x", instance="y"}, without __name__ unless it is the only label).
namespace LegendFormatter {
QString format(const QString &legendTemplate, const QMap<QString, QString> &labels);
}
