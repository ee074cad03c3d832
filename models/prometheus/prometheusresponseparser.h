// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "base/timerange.h"
#include "prometheus/prometheustypes.h"

#include <QByteArray>

// Turns the body of a Prometheus HTTP API answer (/api/v1/query, /api/v1/query_range) into
// series. Pure and thread-safe: it runs on a worker thread (QtConcurrent), never on the UI.
namespace PrometheusResponseParser {

struct Limits
{
    int maxSeries = 2000; // beyond this the result is truncated and a warning is added; <= 0: no cap
};

// httpStatus is the HTTP status of the answer (Prometheus sends JSON errors with 400/422/503).
// Errors: Query for "status":"error" (message "Prometheus rejected the query: <error>
// (<errorType>)", detail = errorType); Http for a non-2xx answer that is not a Prometheus
// answer (detail = the page's title or first words); Parse for anything else that does not
// have the documented shape, saying what was wrong and where.
Result<PromQueryResult> parse(const QByteArray &body, int httpStatus, const Limits &limits = {});

// What a range query may answer: a matrix whose samples lie within the range asked (a step's
// slack on each side: servers align the range to the step). Another type is an error, never
// samples at the answer's own time; samples outside the range are dropped with a warning, so
// that one wrong timestamp (1970, say) can neither draw nor stretch what a panel asks next.
Result<PromQueryResult> checkRangeAnswer(PromQueryResult result, const TimeRange &asked, qint64 stepMs);

// Parses a sample value as Prometheus writes it ("1.5", "NaN", "+Inf", "-Inf").
bool parseSampleValue(const QString &text, double *out);

} // namespace PrometheusResponseParser
