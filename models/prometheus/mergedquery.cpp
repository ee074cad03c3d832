// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/mergedquery.h"

namespace MergedQuery {

QString combine(const QStringList &queries)
{
    QStringList tagged;
    tagged.reserve(queries.size());
    for (qsizetype i = 0; i < queries.size(); ++i) {
        // An empty regex matches the empty source label of every series, so each one gets
        // the tag. The query goes in as an argument: no precedence of `or` can reach it.
        tagged.append(QStringLiteral("label_replace(%1, \"%2\", \"%3\", \"\", \"\")")
                          .arg(queries[i], tagLabel(), QString::number(i)));
    }
    return tagged.join(QStringLiteral(" or "));
}

std::vector<PromQueryResult> split(const PromQueryResult &merged, int queryCount)
{
    std::vector<PromQueryResult> parts(std::size_t(std::max(queryCount, 0)));
    for (PromQueryResult &part : parts) {
        part.type = merged.type;
        part.warnings = merged.warnings;
        part.truncated = merged.truncated;
    }
    const QString tag = tagLabel();
    for (const PromSeries &series : merged.series) {
        bool ok = false;
        const int index = series.labels.value(tag).toInt(&ok);
        if (!ok || index < 0 || index >= queryCount)
            continue;
        PromSeries untagged = series;
        untagged.labels.remove(tag);
        parts[std::size_t(index)].series.push_back(std::move(untagged));
    }
    return parts;
}

} // namespace MergedQuery
