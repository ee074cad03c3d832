// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/formuladescription.h"

#include <QStringList>

namespace FormulaDescription {

namespace {

// How the legend calls the series with this id: its legend when it is plain text, else the
// id (a template such as "{{pod}}" names no single series).
QString nameOfId(const QString &id, const DashboardDefinition &dashboard)
{
    for (const PanelDefinition &panel : dashboard.panels) {
        for (const SeriesDefinition &series : panel.series) {
            if (series.id != id)
                continue;
            if (!series.legend.isEmpty() && !series.legend.contains(QStringLiteral("{{")))
                return series.legend;
            return id;
        }
    }
    return id;
}

} // namespace

QString describe(const SeriesDefinition &series, const DashboardDefinition &dashboard)
{
    if (series.derive.isEmpty())
        return {};
    // Written with the minus sign a reader expects rather than the ASCII one typed in files.
    QString formula = series.derive;
    formula.replace(QStringLiteral(" - "), QStringLiteral(" \u2212 "));
    const QString name = series.legend.isEmpty() ? QStringLiteral("derived") : series.legend;
    QStringList inputs;
    for (auto it = series.deriveInputs.begin(); it != series.deriveInputs.end(); ++it) {
        const QString meaning = nameOfId(it.value(), dashboard);
        if (meaning != it.key())
            inputs << QStringLiteral("%1: %2").arg(it.key(), meaning);
    }
    QString text = QStringLiteral("%1 = %2").arg(name, formula);
    if (!inputs.isEmpty())
        text += QLatin1Char('\n') + inputs.join(QStringLiteral(" \u00b7 "));
    return text;
}

} // namespace FormulaDescription
