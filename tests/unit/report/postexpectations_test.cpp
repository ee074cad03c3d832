// SPDX-License-Identifier: GPL-3.0-or-later
// What a post's Result says of the dashboard's checks: over a run of several phases, each
// phase's verdict, so that the overload's failure is not read as the fix's.
#include "report/postexpectations.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

Annotation action(int second, const QString &text)
{
    Annotation a;
    a.timeMs = kStart + second * 1000LL;
    a.text = text;
    a.source = Annotation::Source::Action;
    return a;
}

} // namespace

// Seed 000 as recorded: timeouts from the overload at +60 s, a limit at +120 s, and the
// timeouts already queued draining for 15 s after it.
TEST(PostExpectations, AChecksResultNamesThePhaseThatFailedAndSaysTheFixHeldAfterSettling)
{
    DashboardSnapshot snapshot;
    PanelDefinition panel;
    panel.title = QStringLiteral("Timeouts");
    SeriesDefinition timeouts;
    timeouts.id = QStringLiteral("timeouts");
    timeouts.query = QStringLiteral("sum(rate(timeouts_total[10s]))");
    panel.series.push_back(timeouts);
    snapshot.dashboard.panels.push_back(panel);
    Check check;
    check.name = QStringLiteral("no timeouts");
    check.series = QStringLiteral("timeouts");
    check.condition = *CheckCondition::parse(QStringLiteral("<= 0"));
    check.forMs = 10'000;
    check.settleMs = 15'000;
    snapshot.dashboard.checks.push_back(check);
    const QString key = SeriesKey::ofQuery(0, 0, {}, QStringLiteral("{}"));
    snapshot.add({0, 0, key, QStringLiteral("timeouts")});

    std::vector<qint64> times;
    std::vector<double> values;
    for (int s = 0; s <= 180; ++s) {
        times.push_back(kStart + s * 1000LL);
        values.push_back(s >= 70 && s < 135 ? 200.0 : 0.0);
    }
    SampleStore store;
    store.merge(key, {}, times, values);
    const std::vector<Annotation> marks{action(60, QStringLiteral("rate 150 → 400 /s")),
                                        action(120, QStringLiteral("in-flight limit unlimited → 20"))};

    const std::vector<PostDraft::Expectation> expectations =
        PostExpectations::fromChecks(snapshot, store, {kStart, kStart + 180'000}, marks);
    ASSERT_EQ(expectations.size(), 1u);
    const PostDraft::Expectation &result = expectations.front();
    ASSERT_TRUE(result.passed.has_value());
    EXPECT_FALSE(*result.passed) << "the run as a whole broke the check";
    const QString outcome = result.outcome;
    EXPECT_TRUE(outcome.contains(QStringLiteral("phase 2 (rate 150 → 400 /s): FAILED at"))) << outcome.toStdString();
    EXPECT_TRUE(
        outcome.contains(QStringLiteral("phase 3 (in-flight limit unlimited → 20): held after 15 s (settling 15 s)")))
        << outcome.toStdString();
    EXPECT_TRUE(outcome.contains(QStringLiteral("phase 1 (before rate 150 → 400 /s): held"))) << outcome.toStdString();
}
