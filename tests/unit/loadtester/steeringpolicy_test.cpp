// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/steeringpolicy.h"

#include <gtest/gtest.h>

using SteeringPolicy::Step;

TEST(SteeringPolicy, StepButtons)
{
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(300, Step::PlusTenPercent, false), 330);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(300, Step::MinusTenPercent, false), 270);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(300, Step::Double, false), 600);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(300, Step::Half, false), 150);
    // A rate lands on a whole number, away from where it was ...
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(165, Step::PlusTenPercent, false), 182);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(165, Step::MinusTenPercent, false), 148);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(363, Step::Half, false), 181);
    // ... except a small one, which keeps a tenth.
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(2, Step::PlusTenPercent, false), 2.2);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(5, Step::Half, false), 2.5);
    // Whole numbers always move: +10 % of 5 is 5.5, so 6.
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(5, Step::PlusTenPercent, true), 6);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(5, Step::MinusTenPercent, true), 4);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(0, Step::Double, true), 1);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(1, Step::Half, true), 0);
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(50, Step::PlusTenPercent, true), 55); // users, VUs
    EXPECT_DOUBLE_EQ(SteeringPolicy::stepped(30, Step::MinusTenPercent, true), 27);
}

TEST(SteeringPolicy, LimitStepsNeverReachUnlimited)
{
    EXPECT_EQ(SteeringPolicy::steppedLimit(40, Step::MinusTenPercent), 36);
    EXPECT_EQ(SteeringPolicy::steppedLimit(40, Step::Half), 20);
    EXPECT_EQ(SteeringPolicy::steppedLimit(40, Step::PlusTenPercent), 44);
    EXPECT_EQ(SteeringPolicy::steppedLimit(40, Step::Double), 80);
    // Exactly a tenth, where binary floating point is a hair above (50 × 1.1 = 55.000…07).
    for (int limit = 10; limit <= 1000; limit += 10) {
        EXPECT_EQ(SteeringPolicy::steppedLimit(limit, Step::PlusTenPercent), limit + limit / 10) << limit;
        EXPECT_EQ(SteeringPolicy::steppedLimit(limit, Step::MinusTenPercent), limit - limit / 10) << limit;
    }
    // 0 would mean "no limit": a step down stops at 1.
    EXPECT_EQ(SteeringPolicy::steppedLimit(1, Step::Half), 1);
    EXPECT_EQ(SteeringPolicy::steppedLimit(1, Step::MinusTenPercent), 1);
    EXPECT_EQ(SteeringPolicy::steppedLimit(1, Step::PlusTenPercent), 2);
    // From "unlimited" there is no step: the user types a number.
    EXPECT_FALSE(SteeringPolicy::steppedLimit(0, Step::Half).has_value());
    EXPECT_FALSE(SteeringPolicy::steppedLimit(0, Step::Double).has_value());
}

TEST(SteeringPolicy, BigChangesAskFirstAndSayWhichChange)
{
    const QString rate = QStringLiteral("rate");
    const QString perSecond = QStringLiteral(" /s");
    EXPECT_FALSE(SteeringPolicy::confirmationReason(rate, 300, 500).has_value());
    EXPECT_TRUE(SteeringPolicy::confirmationReason(rate, 300, 601).has_value());
    EXPECT_TRUE(SteeringPolicy::confirmationReason(rate, 300, 149).has_value());
    EXPECT_TRUE(SteeringPolicy::confirmationReason(rate, 300, 0).has_value());
    EXPECT_FALSE(SteeringPolicy::confirmationReason(rate, 0, 300).has_value()); // starting is what 0 waits for
    // In-flight limits: 0 means unlimited.
    const QString limit = QStringLiteral("in-flight limit");
    EXPECT_TRUE(SteeringPolicy::confirmationReason(limit, 5000, 0, true).has_value());
    EXPECT_FALSE(SteeringPolicy::confirmationReason(limit, 0, 100, true).has_value());
    EXPECT_TRUE(SteeringPolicy::confirmationReason(limit, 100, 1000, true).has_value());

    // The question names the change it asks about: the value, from, to, its unit and why.
    EXPECT_EQ(SteeringPolicy::confirmationReason(rate, 150, 400, false, perSecond).value_or(QString()),
              QStringLiteral("rate 150 /s → 400 /s: more than twice the rate in force."));
    EXPECT_EQ(SteeringPolicy::confirmationReason(rate, 400, 150, false, perSecond).value_or(QString()),
              QStringLiteral("rate 400 /s → 150 /s: less than half the rate in force."));
    EXPECT_EQ(SteeringPolicy::confirmationReason(rate, 150, 0, false, perSecond).value_or(QString()),
              QStringLiteral("rate 150 /s → 0 /s: this stops the load."));
    EXPECT_EQ(SteeringPolicy::confirmationReason(limit, 20, 0, true).value_or(QString()),
              QStringLiteral("in-flight limit 20 → unlimited: this removes the limit, and the load tester may "
                             "queue without bound."));
}
