// SPDX-License-Identifier: GPL-3.0-or-later
// Durations as dashboards, scenarios and the command line write them: Prometheus' grammar.
#include "base/durationgrammar.h"

#include <gtest/gtest.h>

TEST(DurationGrammar, ParseDuration)
{
    struct Case
    {
        const char *text;
        qint64 ms;
    };
    const Case cases[] = {
        {"15s", 15'000},
        {"5m", 300'000},
        {"1h", 3'600'000},
        {"1h30m", 5'400'000},
        {"2d", 172'800'000},
        {"1w", 604'800'000},
        {"1y", 31'536'000'000},
        {"500ms", 500},
        {"1m30s500ms", 90'500},
        {"0s", 0},
        {"30", 30'000},
        {"1.5", 1500},
        {" 10s ", 10'000},
        {"", -1},
        {"s", -1},
        {"5x", -1},
        {"-5s", -1},
        {"1.5m", -1},
        {"5 m", -1},
        {"30m1h", -1}, // largest unit first, as Prometheus requires
        {"1h1h", -1},
        {"5S", -1},
        {"99999999999999999999y", -1}, // overflow
    };
    for (const Case &c : cases)
        EXPECT_EQ(DurationGrammar::parseMs(QString::fromUtf8(c.text)), c.ms) << '"' << c.text << '"';
}
