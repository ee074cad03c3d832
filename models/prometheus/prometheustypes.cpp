// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/prometheustypes.h"

#include <QHash>
#include <utility>

namespace {

// Label values are arbitrary text; escaping keeps two different label sets from ever
// producing the same key (e.g. a value containing `", b="`).
QString escapedLabelValue(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (c == u'\\')
            out += QLatin1String("\\\\");
        else if (c == u'"')
            out += QLatin1String("\\\"");
        else if (c == u'\n')
            out += QLatin1String("\\n");
        else
            out += c;
    }
    return out;
}

} // namespace

QString PromSeries::labelKey() const
{
    QString key = QStringLiteral("{");
    bool first = true;
    // QMap iterates in key order, which makes the text canonical.
    for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
        if (!first)
            key += QLatin1String(", ");
        first = false;
        key += it.key();
        key += QLatin1String("=\"");
        key += escapedLabelValue(it.value());
        key += u'"';
    }
    key += u'}';
    return key;
}

QString seriesCapWarning(int maxSeries)
{
    return QStringLiteral("The query returned more than %1 series; only the first %1 are kept. "
                          "Narrow it down (e.g. by a label) to see the others.")
        .arg(maxSeries);
}

PromQueryResult mergeRangeChunks(std::vector<PromQueryResult> chunks, int maxSeries)
{
    PromQueryResult merged;
    if (chunks.empty())
        return merged;
    merged.type = chunks.front().type;

    QHash<QString, size_t> indexByKey;
    for (PromQueryResult &chunk : chunks) {
        for (const QString &warning : std::as_const(chunk.warnings)) {
            if (!merged.warnings.contains(warning))
                merged.warnings.append(warning);
        }
        merged.truncated = merged.truncated || chunk.truncated;
        for (PromSeries &series : chunk.series) {
            const QString key = series.labelKey();
            const auto found = indexByKey.constFind(key);
            if (found == indexByKey.cend()) {
                if (maxSeries > 0 && merged.series.size() >= static_cast<size_t>(maxSeries)) {
                    merged.truncated = true;
                    continue;
                }
                indexByKey.insert(key, merged.series.size());
                merged.series.push_back(std::move(series));
                continue;
            }
            PromSeries &target = merged.series[found.value()];
            const size_t count = series.timestampsMs.size();
            for (size_t i = 0; i < count; ++i) {
                const qint64 t = series.timestampsMs[i];
                if (!target.timestampsMs.empty() && t <= target.timestampsMs.back())
                    continue;
                target.timestampsMs.push_back(t);
                target.values.push_back(series.values[i]);
            }
        }
    }
    if (merged.truncated && maxSeries > 0) {
        const QString warning = seriesCapWarning(maxSeries);
        if (!merged.warnings.contains(warning))
            merged.warnings.append(warning);
    }
    return merged;
}
