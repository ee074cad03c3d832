// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/panelcsv.h"

#include "store/samplestore.h"

#include <QDateTime>
#include <QLocale>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace PanelCsv {

QString number(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    // Shortest round-trip form, never localised: a reader gets back the stored double.
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString quoted(const QString &field)
{
    const bool needsQuotes = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
                             field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r'));
    if (!needsQuotes)
        return field;
    QString escaped = field;
    escaped.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QString timestamp(qint64 utcMs)
{
    return QDateTime::fromMSecsSinceEpoch(utcMs, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString write(const SampleStore &store, const std::vector<Column> &columns, const TimeRange &range)
{
    static const QString kEol = QStringLiteral("\r\n");
    QString out;
    out += QStringLiteral("time");
    for (const Column &column : columns)
        out += QLatin1Char(',') + quoted(column.header);
    out += kEol;

    // Row per timestamp on the union of all series; each row holds one cell per column.
    std::map<qint64, std::vector<std::optional<double>>> rows;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const SampleStore::Series *series = store.series(columns[c].key);
        if (!series)
            continue;
        const auto [first, last] = series->indexRange(range);
        const auto times = series->timestampsMs();
        const auto values = series->values();
        for (std::size_t i = first; i < last; ++i) {
            auto &cells = rows[times[i]];
            cells.resize(columns.size());
            cells[c] = values[i];
        }
    }
    for (const auto &[time, cells] : rows) {
        out += timestamp(time);
        for (std::size_t c = 0; c < columns.size(); ++c) {
            out += QLatin1Char(',');
            if (c < cells.size() && cells[c])
                out += number(*cells[c]);
        }
        out += kEol;
    }
    return out;
}

} // namespace PanelCsv
