// SPDX-License-Identifier: GPL-3.0-or-later
// What the status bar says of Prometheus: reachable is not up while every query fails.
#include "fetching/sourcehealth.h"

#include <gtest/gtest.h>

namespace {

using namespace Qt::StringLiterals;
using State = SourceHealth::State;

PanelStatus panel(PanelStatus::State state, const QString &message = {})
{
    PanelStatus status;
    status.state = state;
    status.message = message;
    return status;
}

} // namespace

TEST(SourceHealth, UpOnlyWhileSomePanelIsAnswered)
{
    using P = PanelStatus::State;
    EXPECT_EQ(SourceHealth::judge(std::nullopt, {}, {panel(P::Loading)}).state, State::Waiting);
    EXPECT_EQ(SourceHealth::judge(true, {}, {panel(P::Loading), panel(P::Loading)}).state, State::Waiting)
        << "an answer from the server is not yet an answer to the panels";
    EXPECT_EQ(SourceHealth::judge(true, {}, {panel(P::QueryError, u"bad_data: parse error"_s), panel(P::Ok)}).state,
              State::Up);
    EXPECT_EQ(SourceHealth::judge(true, {}, {panel(P::NoData)}).state, State::Up) << "empty is an answer";

    // Every panel that asked got an error: not up, and the first error says why.
    const SourceHealth failing =
        SourceHealth::judge(true, {},
                            {panel(P::Loading), panel(P::QueryError, u"404 Not Found: /prom/api/v1/query_range"_s),
                             panel(P::QueryError, u"bad_data: parse error"_s)});
    EXPECT_EQ(failing.state, State::EveryQueryFails);
    EXPECT_EQ(failing.failingPanels, 2);
    EXPECT_EQ(failing.detail, u"404 Not Found: /prom/api/v1/query_range"_s);

    const SourceHealth down = SourceHealth::judge(false, u"connection refused"_s, {panel(P::Ok)});
    EXPECT_EQ(down.state, State::Down) << "the transport's word wins over an older answer";
    EXPECT_EQ(down.detail, u"connection refused"_s);
    EXPECT_EQ(SourceHealth::judge(true, {}, {panel(P::SourceDown, u"timed out"_s)}).state, State::Down);
}
