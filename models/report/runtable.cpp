// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/runtable.h"

#include "base/format.h"
#include "base/markdown.h"
#include "dashboard/seriesreference.h"
#include "store/panelcsv.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "store/seriesstatistics.h"

#include <cmath>

namespace {

// The unit of the axis a series definition is drawn on.
QString unitOf(const PanelDefinition &panel, const SeriesDefinition &series)
{
    return series.axis == AxisSide::Right ? panel.rightUnit : panel.unit;
}

// The keys a panel draws for one of its series definitions.
QStringList keysOf(const DashboardSnapshot &snapshot, int panel, int index)
{
    const SeriesDefinition &definition = snapshot.dashboard.panels[std::size_t(panel)].series[std::size_t(index)];
    const QString reference = SeriesReference::of(panel, index, definition);
    QStringList keys;
    for (const SeriesBinding &binding : snapshot.seriesOf(panel)) {
        if (binding.query == index && SeriesKey::matches(reference, binding.key))
            keys << binding.key;
    }
    return keys;
}

std::optional<double> statisticOf(RunTable::Statistic statistic, const SampleStore &store, const QStringList &keys,
                                  const TimeRange &range)
{
    std::vector<double> values;
    double lastSum = 0;
    int lastCount = 0;
    for (const QString &key : keys) {
        const SampleStore::Series *series = store.series(key);
        if (!series)
            continue;
        SeriesStatistics::collectFinite(series->timestampsMs(), series->values(), range, values);
        if (statistic == RunTable::Statistic::Last) {
            const SeriesStatistics stats = SeriesStatistics::compute(series->timestampsMs(), series->values(), range);
            if (stats.last) {
                lastSum += *stats.last;
                ++lastCount;
            }
        }
    }
    if (values.empty())
        return std::nullopt;
    switch (statistic) {
    case RunTable::Statistic::Mean: {
        double sum = 0;
        for (double v : values)
            sum += v;
        return sum / double(values.size());
    }
    case RunTable::Statistic::P50:
        return SeriesStatistics::quantile(values, 0.5);
    case RunTable::Statistic::P99:
        return SeriesStatistics::quantile(values, 0.99);
    case RunTable::Statistic::Max:
        return *std::max_element(values.begin(), values.end());
    case RunTable::Statistic::Last:
        return lastCount > 0 ? std::optional<double>(lastSum / lastCount) : std::nullopt;
    }
    return std::nullopt;
}

} // namespace

QString RunTable::Column::title() const
{
    return QStringLiteral("%1 · %2").arg(series, statisticName(statistic));
}

QString RunTable::statisticName(Statistic statistic)
{
    switch (statistic) {
    case Statistic::Mean:
        return QStringLiteral("mean");
    case Statistic::P50:
        return QStringLiteral("p50");
    case Statistic::P99:
        return QStringLiteral("p99");
    case Statistic::Max:
        return QStringLiteral("max");
    case Statistic::Last:
        return QStringLiteral("last");
    }
    return {};
}

std::optional<RunTable::Statistic> RunTable::statisticNamed(const QString &name)
{
    for (Statistic statistic : {Statistic::Mean, Statistic::P50, Statistic::P99, Statistic::Max, Statistic::Last}) {
        if (statisticName(statistic).compare(name.trimmed(), Qt::CaseInsensitive) == 0)
            return statistic;
    }
    return std::nullopt;
}

Result<std::vector<RunTable::Request>> RunTable::parseRequests(const QString &text)
{
    std::vector<Request> requests;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString trimmed = part.trimmed();
        if (trimmed.isEmpty())
            continue;
        Request request{trimmed, Statistic::Mean};
        // The statistic after the last ':'; "Pool: leased" without one names a panel's series.
        const qsizetype colon = trimmed.lastIndexOf(QLatin1Char(':'));
        if (colon >= 0) {
            if (const std::optional<Statistic> statistic = statisticNamed(trimmed.mid(colon + 1)))
                request = {trimmed.left(colon).trimmed(), *statistic};
        }
        if (request.series.isEmpty())
            return Error::make(Error::Kind::Invalid, QStringLiteral("\"%1\" names no series").arg(trimmed));
        requests.push_back(request);
    }
    if (requests.empty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("name at least one series, e.g. completed:mean,p99:max"));
    return requests;
}

std::vector<RunTable::Request> RunTable::defaultRequests(const DashboardDefinition &dashboard)
{
    std::vector<Request> requests;
    for (const PanelDefinition &panel : dashboard.panels) {
        for (const SeriesDefinition &series : panel.series) {
            if (!series.id.isEmpty())
                requests.push_back({series.id, Statistic::Mean});
        }
    }
    if (!requests.empty())
        return requests;
    for (const PanelDefinition &panel : dashboard.panels) {
        if (panel.kind == PanelKind::Lines && !panel.series.empty() && !panel.title.isEmpty())
            requests.push_back({panel.title, Statistic::Mean});
    }
    return requests;
}

RunTable::Resolved RunTable::resolve(const DashboardSnapshot &snapshot, const QString &series)
{
    const DashboardDefinition &dashboard = snapshot.dashboard;
    const QString name = series.trimmed();
    // A series id: every series of that definition.
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        const PanelDefinition &panel = dashboard.panels[std::size_t(p)];
        for (int s = 0; s < int(panel.series.size()); ++s) {
            if (panel.series[std::size_t(s)].id == name)
                return {keysOf(snapshot, p, s), unitOf(panel, panel.series[std::size_t(s)])};
        }
    }
    // A legend, in the first panel that draws it; "Panel: legend" in that panel.
    const auto byLegend = [&](int p, const QString &legend) -> Resolved {
        const PanelDefinition &panel = dashboard.panels[std::size_t(p)];
        Resolved resolved;
        for (const SeriesBinding &binding : snapshot.seriesOf(p)) {
            if (binding.legend.compare(legend, Qt::CaseInsensitive) != 0 || binding.query < 0 ||
                binding.query >= int(panel.series.size()))
                continue;
            resolved.keys << binding.key;
            resolved.unit = unitOf(panel, panel.series[std::size_t(binding.query)]);
        }
        return resolved;
    };
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        if (Resolved found = byLegend(p, name); !found.keys.isEmpty())
            return found;
    }
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        const QString &title = dashboard.panels[std::size_t(p)].title;
        if (!title.isEmpty() && name.startsWith(title + QLatin1Char(':'), Qt::CaseInsensitive)) {
            if (Resolved found = byLegend(p, name.mid(title.size() + 1).trimmed()); !found.keys.isEmpty())
                return found;
        }
    }
    // A panel's title: its first series.
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        const PanelDefinition &panel = dashboard.panels[std::size_t(p)];
        if (!panel.series.empty() && panel.title.compare(name, Qt::CaseInsensitive) == 0)
            return {keysOf(snapshot, p, 0), unitOf(panel, panel.series.front())};
    }
    return {};
}

QString RunTable::nameable(const DashboardSnapshot &snapshot)
{
    QStringList ids;
    QStringList legends;
    QStringList titles;
    for (int p = 0; p < int(snapshot.dashboard.panels.size()); ++p) {
        const PanelDefinition &panel = snapshot.dashboard.panels[std::size_t(p)];
        for (const SeriesDefinition &series : panel.series) {
            if (!series.id.isEmpty())
                ids << series.id;
        }
        for (const SeriesBinding &binding : snapshot.seriesOf(p)) {
            if (!binding.legend.isEmpty() && !legends.contains(binding.legend))
                legends << binding.legend;
        }
        if (!panel.title.isEmpty())
            titles << QStringLiteral("\"%1\"").arg(panel.title);
    }
    QStringList parts;
    if (!ids.isEmpty())
        parts << QStringLiteral("series ids: %1").arg(ids.join(QStringLiteral(", ")));
    if (!legends.isEmpty())
        parts << QStringLiteral("legends: %1").arg(legends.join(QStringLiteral(", ")));
    if (!titles.isEmpty())
        parts << QStringLiteral("panels: %1").arg(titles.join(QStringLiteral(", ")));
    return parts.isEmpty() ? QStringLiteral("nothing: the dashboard has no series") : parts.join(QStringLiteral("; "));
}

Result<RunTable> RunTable::compute(const std::vector<ComparedRun> &runs, const std::vector<Request> &requests)
{
    RunTable table;
    for (const ComparedRun &run : runs)
        table.runs << run.title;
    table.cells.assign(runs.size(), {});
    for (const Request &request : requests) {
        Column column{request.series, request.statistic, {}};
        bool named = false;
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const ComparedRun &run = runs[r];
            const Resolved resolved = resolve(run.snapshot, request.series);
            std::optional<double> value;
            if (!resolved.keys.isEmpty()) {
                if (!named)
                    column.unit = resolved.unit;
                named = true;
                if (run.store)
                    value = statisticOf(request.statistic, *run.store, resolved.keys, run.steady);
            }
            table.cells[r].push_back(value);
        }
        if (!named) {
            const QString what = runs.empty() ? QString() : nameable(runs.front().snapshot);
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("\"%1\" names no series of the dashboard (after a ':' comes a statistic: "
                                              "mean, p50, p99, max or last); it has %2")
                                   .arg(request.series, what));
        }
        table.columns.push_back(column);
    }
    return table;
}

QString RunTable::toMarkdown() const
{
    QStringList header{QStringLiteral("run")};
    std::vector<bool> right{false};
    for (const Column &column : columns) {
        header << column.title();
        right.push_back(true);
    }
    std::vector<QStringList> rows;
    for (qsizetype r = 0; r < runs.size(); ++r) {
        QStringList row{runs[r]};
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const std::optional<double> &value = cells[std::size_t(r)][c];
            row << (value ? Format::value(*value, columns[c].unit) : QStringLiteral("–"));
        }
        rows.push_back(row);
    }
    return Markdown::table(header, rows, right);
}

QString RunTable::toCsv() const
{
    QStringList header{QStringLiteral("run")};
    for (const Column &column : columns)
        header << PanelCsv::quoted(column.unit.isEmpty() ? column.title()
                                                         : QStringLiteral("%1 (%2)").arg(column.title(), column.unit));
    QStringList lines{header.join(QLatin1Char(','))};
    for (qsizetype r = 0; r < runs.size(); ++r) {
        QStringList fields{PanelCsv::quoted(runs[r])};
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const std::optional<double> &value = cells[std::size_t(r)][c];
            fields << (value ? PanelCsv::number(*value) : QString());
        }
        lines << fields.join(QLatin1Char(','));
    }
    return lines.join(QStringLiteral("\r\n")) + QStringLiteral("\r\n");
}
