// SPDX-License-Identifier: GPL-3.0-or-later
// Any bytes a server may send as a query answer: the parser gives series or an error,
// never a crash. The first byte picks the HTTP status the answer came with, so that the
// error-page paths are explored too.
#include "prometheus/prometheusresponseparser.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    static constexpr int kStatuses[] = {200, 0, 400, 422, 503, 502, 404, 206};
    const int status = kStatuses[data[0] % (sizeof kStatuses / sizeof kStatuses[0])];
    const QByteArray body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    PrometheusResponseParser::Limits limits;
    limits.maxSeries = 50; // the cap's path is explored by small inputs too
    const auto result = PrometheusResponseParser::parse(body, status, limits);
    if (result.ok()) {
        // What the poller does with an answer next: key its series and merge chunks.
        for (const PromSeries &series : result->series)
            (void)series.labelKey();
        std::vector<PromQueryResult> chunks{result.value(), result.value()};
        (void)mergeRangeChunks(std::move(chunks), limits.maxSeries);
    }
    return 0;
}
