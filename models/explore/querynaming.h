// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// What a panel made from a query typed in Explore is called and in what unit its values are,
// read from the query itself: its metric, what is done to it (rate, a quantile, an
// aggregation, a split by labels) and its filters; the unit from the metric's name and type
// as Prometheus' naming conventions give them (`_seconds`, `_bytes`, a counter's `_total`, a
// histogram's `_bucket`). A best effort for a title the user may change: never a cut-off
// expression.
namespace QueryNaming {

// "rate of starter_requests_received_total{outcome="timeout"}", "p99 of
// http_client_request_seconds by pod", "max of engine_queue_length"; the query itself,
// shortened, when it names no metric.
QString title(const QString &query);

// "ops/s" for a rate of a counter, "bytes/s" for one of bytes, "s" for a quantile of a
// `_seconds` histogram or a `_seconds` gauge, "bytes" for a `_bytes` gauge; empty when the
// name says nothing (a ratio, a count, a raw counter).
QString unit(const QString &query);

} // namespace QueryNaming
