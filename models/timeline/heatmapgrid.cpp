// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/heatmapgrid.h"

#include "base/format.h"
#include "store/samplestore.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace {

constexpr double kNoSample = std::numeric_limits<double>::quiet_NaN();

qint64 floorToMultiple(qint64 value, qint64 step)
{
    const qint64 quotient = value / step;
    return (value % step != 0 && value < 0 ? quotient - 1 : quotient) * step;
}

// Each column's mean of one series, NaN where it has no finite sample.
std::vector<double> columnMeans(const SampleStore::Series &series, const HeatmapGrid &grid)
{
    std::vector<double> sums(std::size_t(grid.columns), 0.0);
    std::vector<int> counts(std::size_t(grid.columns), 0);
    const auto &timestamps = series.timestampsMs();
    const auto &values = series.values();
    const qint64 end = grid.columnStartMs(grid.columns);
    auto it = std::lower_bound(timestamps.begin(), timestamps.end(), grid.firstColumnMs);
    for (; it != timestamps.end() && *it < end; ++it) {
        const double value = values[std::size_t(it - timestamps.begin())];
        if (!std::isfinite(value))
            continue;
        const auto column = std::size_t((*it - grid.firstColumnMs) / grid.columnMs);
        sums[column] += value;
        ++counts[column];
    }
    for (std::size_t c = 0; c < sums.size(); ++c)
        sums[c] = counts[c] > 0 ? sums[c] / counts[c] : kNoSample;
    return sums;
}

} // namespace

bool HeatmapGrid::hasOpenBucket() const
{
    return !upperBounds.empty() && std::isinf(upperBounds.back());
}

int HeatmapGrid::filledCells() const
{
    return int(std::count_if(cells.begin(), cells.end(), [](double cell) { return cell > 0; }));
}

std::optional<int> HeatmapGrid::columnAt(qint64 timeMs) const
{
    if (columns <= 0 || timeMs < firstColumnMs || timeMs >= columnStartMs(columns))
        return std::nullopt;
    return int((timeMs - firstColumnMs) / columnMs);
}

QString HeatmapGrid::rowName(int row, const QString &unit) const
{
    if (row < 0 || row >= rows())
        return {};
    const double bound = upperBounds[std::size_t(row)];
    if (row == 0)
        return std::isinf(bound) ? QStringLiteral("all") : QStringLiteral("≤ %1").arg(Format::value(bound, unit));
    const QString below = Format::value(upperBounds[std::size_t(row) - 1], unit);
    if (std::isinf(bound))
        return QStringLiteral("> %1").arg(below);
    return QStringLiteral("%1 – %2").arg(below, Format::value(bound, unit));
}

QString HeatmapGrid::summary(const QString &unit) const
{
    const int finite = rows() - (hasOpenBucket() ? 1 : 0);
    if (finite <= 0)
        return {};
    const QString largest = Format::value(upperBounds[std::size_t(finite) - 1], unit);
    QString text = QStringLiteral("%1 up to %2")
                       .arg(Format::counted(finite, QStringLiteral("bucket"), QStringLiteral("buckets")), largest);
    if (hasOpenBucket() && total > 0)
        text += QStringLiteral(" · above %1: %2 %").arg(largest, QString::number(openTotal / total * 100, 'f', 1));
    return text;
}

namespace Heatmap {

std::optional<double> parseBound(const QString &le)
{
    const QString text = le.trimmed();
    if (text.compare(QLatin1String("+Inf"), Qt::CaseInsensitive) == 0 ||
        text.compare(QLatin1String("Inf"), Qt::CaseInsensitive) == 0)
        return std::numeric_limits<double>::infinity();
    bool ok = false;
    const double bound = text.toDouble(&ok);
    if (!ok || !std::isfinite(bound))
        return std::nullopt;
    return bound;
}

qint64 columnMsFor(qint64 stepMs, qint64 pixelColumnMs)
{
    const qint64 step = stepMs > 0 ? stepMs : 1000;
    const qint64 wanted = std::max(step, kMinColumnPx * std::max<qint64>(1, pixelColumnMs));
    return (wanted + step - 1) / step * step;
}

HeatmapGrid compute(const SampleStore &store, const std::vector<QString> &keys, const TimeRange &range, qint64 columnMs)
{
    HeatmapGrid grid;
    grid.columnMs = std::max<qint64>(1, columnMs);
    grid.firstColumnMs = floorToMultiple(range.startMs, grid.columnMs);
    grid.columns = range.endMs > grid.firstColumnMs
                       ? int((range.endMs - grid.firstColumnMs + grid.columnMs - 1) / grid.columnMs)
                       : 0;

    // The cumulative count of each bound in each column: the series of one bound added up.
    std::map<double, std::vector<double>> cumulative;
    {
        const QReadLocker locked = store.readLock();
        for (const QString &key : keys) {
            const SampleStore::Series *series = store.series(key);
            if (!series)
                continue;
            const std::optional<double> bound = parseBound(series->labels().value(QStringLiteral("le")));
            if (!bound)
                continue;
            std::vector<double> &sums = cumulative[*bound];
            if (sums.empty())
                sums.assign(std::size_t(grid.columns), kNoSample);
            const std::vector<double> means = columnMeans(*series, grid);
            for (std::size_t c = 0; c < means.size(); ++c) {
                if (!std::isnan(means[c]))
                    sums[c] = (std::isnan(sums[c]) ? 0.0 : sums[c]) + means[c];
            }
        }
    }

    for (const auto &entry : cumulative)
        grid.upperBounds.push_back(entry.first);
    const std::size_t rows = grid.upperBounds.size();
    grid.cells.assign(rows * std::size_t(grid.columns), kNoSample);
    std::size_t row = 0;
    const std::vector<double> *below = nullptr;
    for (const auto &[bound, sums] : cumulative) {
        const bool open = std::isinf(bound);
        for (std::size_t c = 0; c < sums.size(); ++c) {
            const double under = below ? (*below)[c] : 0.0;
            if (std::isnan(sums[c]) || std::isnan(under))
                continue;
            // A counter reset or scrapes of different instants can make a bound's rate dip
            // under the one below it for a moment: the bucket then held nothing.
            const double own = std::max(0.0, sums[c] - under);
            grid.cells[c * rows + row] = own;
            grid.maxCell = std::max(grid.maxCell, own);
            grid.total += own;
            if (open)
                grid.openTotal += own;
        }
        below = &sums;
        ++row;
    }
    return grid;
}

std::vector<double> rowEdges(const std::vector<double> &upperBounds, bool logarithmic)
{
    const std::size_t rows = upperBounds.size();
    const bool open = rows > 0 && std::isinf(upperBounds.back());
    const std::size_t finite = rows - (open ? 1 : 0);
    std::vector<double> edges(rows + 1, 0.0);
    const bool placeable =
        finite > 0 && (!logarithmic || std::all_of(upperBounds.begin(), upperBounds.begin() + std::ptrdiff_t(finite),
                                                   [](double bound) { return bound > 0; }));
    if (!placeable) {
        for (std::size_t i = 0; i <= rows; ++i)
            edges[i] = rows > 0 ? double(i) / double(rows) : 0.0;
        return edges;
    }
    auto position = [logarithmic](double bound) { return logarithmic ? std::log10(bound) : bound; };
    for (std::size_t i = 0; i < finite; ++i)
        edges[i + 1] = position(upperBounds[i]);
    const double firstHeight = finite >= 2 ? edges[2] - edges[1] : 1.0;
    edges[0] = !logarithmic && upperBounds[0] > 0 ? 0.0 : edges[1] - firstHeight;
    if (open)
        edges[rows] = edges[finite] + (edges[finite] - edges[0]) / double(finite);
    const double low = edges.front();
    const double span = edges.back() - low;
    for (double &edge : edges)
        edge = span > 0 ? (edge - low) / span : 0.0;
    return edges;
}

} // namespace Heatmap
