// SPDX-License-Identifier: GPL-3.0-or-later
// A panel added from Explore is named from the whole query and gets the unit its metric's
// name says: "rate of starter_requests_received_total{outcome="timeout"}" in ops/s, not a
// bare metric name on a unitless axis.
#include "explore/querynaming.h"

#include <gtest/gtest.h>

namespace {

struct Case
{
    const char *query;
    const char *title;
    const char *unit;
};

class QueryNamingTest : public ::testing::TestWithParam<Case>
{
};

} // namespace

TEST_P(QueryNamingTest, TitleAndUnitComeFromTheWholeQuery)
{
    const QString query = QString::fromUtf8(GetParam().query);
    EXPECT_EQ(QueryNaming::title(query).toStdString(), GetParam().title);
    EXPECT_EQ(QueryNaming::unit(query).toStdString(), GetParam().unit);
}

INSTANTIATE_TEST_SUITE_P(
    Queries, QueryNamingTest,
    ::testing::Values(
        Case{R"(sum(rate(starter_requests_received_total{outcome="timeout"}[10s])))",
             R"(rate of starter_requests_received_total{outcome="timeout"})", "ops/s"},
        Case{"histogram_quantile(0.99, sum by (le) (rate(http_client_request_seconds_bucket[30s])))",
             "p99 of http_client_request_seconds", "s"},
        Case{"histogram_quantile(0.5, sum by (le, pod) (rate(http_client_request_seconds_bucket[30s])))",
             "p50 of http_client_request_seconds by pod", "s"},
        Case{"sum by (pod) (rate(engine_requests_total[1m]))", "rate of engine_requests_total by pod", "ops/s"},
        Case{"max(engine_queue_length)", "max of engine_queue_length", ""},
        Case{"http_client_pool_pending", "http_client_pool_pending", ""},
        Case{"rate(process_cpu_seconds_total[1m])", "rate of process_cpu_seconds_total", ""},
        Case{"sum(rate(node_network_receive_bytes_total[1m]))", "rate of node_network_receive_bytes_total", "bytes/s"},
        Case{"go_memstats_heap_inuse_bytes", "go_memstats_heap_inuse_bytes", "bytes"},
        Case{"increase(starter_requests_sent_total[5m])", "increase of starter_requests_sent_total", ""},
        Case{"count(up)", "count of up", ""}, Case{"1 + 1", "1 + 1", ""}));
