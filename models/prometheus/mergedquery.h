// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "prometheus/prometheustypes.h"

#include <QString>
#include <QStringList>
#include <vector>

// Several PromQL queries asked as one request. The server evaluates them in one pass and
// pays what it costs per request (HTTP, parsing, preparing, encoding the answer) once: for a
// refresh of a dashboard's newest seconds that cost is most of what the server spends.
//
// Each query's series are tagged with a label holding the query's position (label_replace)
// and the tagged results are joined with `or`; the tags keep every series apart, so `or`
// keeps them all. split() gives each query its own result back, the tag removed, with the
// labels the query alone would have had.
//
// A query that does not give an instant vector (a scalar such as `1`, a string) cannot be
// tagged: the server refuses the whole request, and the caller asks such queries alone.
namespace MergedQuery {

// The label that carries a series' query position in a merged answer.
inline QString tagLabel()
{
    return QStringLiteral("chaoscope_query");
}

// One PromQL expression for all of `queries`, in their order.
QString combine(const QStringList &queries);

// The answer to combine(queries) as one result per query, in the same order. A series whose
// tag is missing or out of range is dropped; warnings go to every query's result.
std::vector<PromQueryResult> split(const PromQueryResult &merged, int queryCount);

} // namespace MergedQuery
