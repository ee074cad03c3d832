// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/phasestatistics.h"

#include "base/format.h"
#include "base/markdown.h"
#include "store/seriesstatistics.h"

#include <QLocale>
#include <QObject>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace {

QString plainNumber(const std::optional<double> &value)
{
    // Six significant digits: what a spreadsheet needs, without float noise.
    return value ? QLocale::c().toString(*value, 'g', 6) : QString();
}

} // namespace

QString PhaseStatisticsTable::checkTitle(const Check &check)
{
    return QStringLiteral("%1 %2").arg(check.name, check.condition.describe(check.unit));
}

QString PhaseStatisticsTable::statisticName(Statistic statistic)
{
    switch (statistic) {
    case Statistic::Mean:
        return QStringLiteral("mean");
    case Statistic::Min:
        return QStringLiteral("min");
    case Statistic::Max:
        return QStringLiteral("max");
    case Statistic::Last:
        return QStringLiteral("last");
    case Statistic::P95:
        return QStringLiteral("p95");
    }
    return {};
}

QString PhaseStatisticsTable::toTabSeparated() const
{
    // Tabs inside a title would shift the columns.
    const auto cell = [](QString text) { return text.replace(QLatin1Char('\t'), QLatin1Char(' ')); };
    QStringList header{QStringLiteral("series"), QStringLiteral("statistic")};
    for (const Phase &phase : columns)
        header << cell(phase.title);
    QStringList lines{header.join(QLatin1Char('\t'))};
    for (const Row &row : rows) {
        QStringList fields{cell(row.series), statisticName(row.statistic)};
        for (const std::optional<double> &value : row.values)
            fields << plainNumber(value);
        lines << fields.join(QLatin1Char('\t'));
    }
    for (const CheckRow &row : checks) {
        QStringList fields{cell(checkTitle(row.check)), QStringLiteral("check")};
        for (const CheckVerdict &verdict : row.verdicts)
            fields << cell(verdict.describe(row.check));
        lines << fields.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString PhaseStatisticsTable::toMarkdown() const
{
    QStringList header{QStringLiteral("series"), QStringLiteral("statistic")};
    for (const Phase &phase : columns)
        header << Markdown::cell(phase.title);
    QStringList lines{QStringLiteral("| %1 |").arg(header.join(QStringLiteral(" | ")))};
    QStringList rule{QStringLiteral("---"), QStringLiteral("---")};
    for (std::size_t i = 0; i < columns.size(); ++i)
        rule << QStringLiteral("---:");
    lines << QStringLiteral("| %1 |").arg(rule.join(QStringLiteral(" | ")));
    for (const Row &row : rows) {
        QStringList fields{Markdown::cell(row.series), statisticName(row.statistic)};
        for (const std::optional<double> &value : row.values)
            fields << (value ? Markdown::cell(Format::value(*value, row.unit)) : QStringLiteral("–"));
        lines << QStringLiteral("| %1 |").arg(fields.join(QStringLiteral(" | ")));
    }
    for (const CheckRow &row : checks) {
        QStringList fields{Markdown::cell(checkTitle(row.check)), QStringLiteral("check")};
        for (const CheckVerdict &verdict : row.verdicts)
            fields << Markdown::cell(verdict.describe(row.check));
        lines << QStringLiteral("| %1 |").arg(fields.join(QStringLiteral(" | ")));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

namespace PhaseStatistics {

std::optional<double> p95(std::span<const qint64> timestampsMs, std::span<const double> values, const TimeRange &range)
{
    std::vector<double> finite;
    SeriesStatistics::collectFinite(timestampsMs, values, range, finite);
    return SeriesStatistics::quantile(finite, 0.95);
}

PhaseStatisticsTable compute(const std::vector<PhaseSeries> &series, const TimeRange &visible,
                             const std::vector<Annotation> &annotations, bool withP95,
                             const std::vector<PhaseCheck> &checks)
{
    using Statistic = PhaseStatisticsTable::Statistic;
    PhaseStatisticsTable table;
    table.columns = Phases::of(visible, annotations);
    std::vector<Statistic> statistics{Statistic::Mean, Statistic::Min, Statistic::Max, Statistic::Last};
    if (withP95)
        statistics.push_back(Statistic::P95);
    for (const PhaseSeries &s : series) {
        std::vector<SeriesStatistics> perPhase;
        for (const Phase &phase : table.columns)
            perPhase.push_back(SeriesStatistics::compute(s.timestampsMs, s.values, phase.range));
        for (Statistic statistic : statistics) {
            PhaseStatisticsTable::Row row{s.name, s.unit, statistic, {}};
            for (std::size_t c = 0; c < table.columns.size(); ++c) {
                const SeriesStatistics &stats = perPhase[c];
                std::optional<double> value;
                if (stats.count > 0) {
                    switch (statistic) {
                    case Statistic::Mean:
                        value = stats.mean;
                        break;
                    case Statistic::Min:
                        value = stats.min;
                        break;
                    case Statistic::Max:
                        value = stats.max;
                        break;
                    case Statistic::Last:
                        value = stats.last;
                        break;
                    case Statistic::P95:
                        value = p95(s.timestampsMs, s.values, table.columns[c].range);
                        break;
                    }
                }
                row.values.push_back(value);
            }
            table.rows.push_back(std::move(row));
        }
    }
    for (const PhaseCheck &check : checks)
        table.checks.push_back({check.check, CheckJudgement::perPhase(check.check, check.series, table.columns)});
    return table;
}

} // namespace PhaseStatistics
