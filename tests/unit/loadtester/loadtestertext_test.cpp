// SPDX-License-Identifier: GPL-3.0-or-later
// The one line Chaoscope leaves on quitting with a load tester attached.
#include "loadtester/loadtestertext.h"

#include <gtest/gtest.h>

namespace {

LoadTesterCapabilities starter()
{
    LoadTesterCapabilities caps;
    caps.kind = QStringLiteral("Chaoscope starter");
    caps.rateLabel = QStringLiteral("rate");
    caps.rateUnit = QStringLiteral("/s");
    return caps;
}

LoadTesterStatus status(double rate, std::optional<int> limit, bool paused = false)
{
    LoadTesterStatus s;
    s.rate = rate;
    s.inflightLimit = limit;
    s.paused = paused;
    return s;
}

} // namespace

TEST(LoadTesterText, WhatTheLoadTesterIsLeftDoing)
{
    EXPECT_EQ(LoadTesterText::leftInState(starter(), {status(400, 20)}),
              QStringLiteral("Chaoscope starter left running: rate 400 /s, in-flight limit 20"));
    EXPECT_EQ(LoadTesterText::leftInState(starter(), {status(181.5, 0, true)}),
              QStringLiteral("Chaoscope starter left paused: rate 181.5 /s, in-flight limit unlimited"));
    EXPECT_EQ(LoadTesterText::leftInState(starter(), {status(100, 10), status(100, 10), status(100, 10)}),
              QStringLiteral("Chaoscope starter left running on 3 replicas: rate 100 /s each, in-flight limit 10"));
    LoadTesterCapabilities locust;
    locust.kind = QStringLiteral("Locust");
    locust.rateLabel = QStringLiteral("users");
    EXPECT_EQ(LoadTesterText::leftInState(locust, {status(50, std::nullopt)}),
              QStringLiteral("Locust left running: users 50"));
    EXPECT_TRUE(LoadTesterText::leftInState(starter(), {}).isEmpty());
}
