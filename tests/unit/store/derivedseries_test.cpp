// SPDX-License-Identifier: GPL-3.0-or-later
// Derived series: the formulas the seeds computed by hand ("2,900 pending / 180 completed/s
// ≈ 16 s queue wait"), parsed with clear errors and evaluated only where every input has a
// sample, with a zero denominator as a gap.
#include "store/derivedexpression.h"
#include "store/derivedseries.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace {

std::optional<double> eval(const QString &text, const std::vector<std::optional<double>> &values)
{
    const auto expression = DerivedExpression::parse(text);
    EXPECT_TRUE(expression.ok()) << (expression ? std::string() : expression.error().message.toStdString());
    if (!expression)
        return std::nullopt;
    return expression->evaluate([&](int i) { return values.at(std::size_t(i)); });
}

TEST(DerivedExpression, LittlesLawFromSeed002)
{
    const auto wait = eval(QStringLiteral("pending / completed"), {2900.0, 180.0});
    ASSERT_TRUE(wait);
    EXPECT_NEAR(*wait, 16.1, 0.05);
}

TEST(DerivedExpression, PrecedenceParenthesesUnaryMinusAndFunctions)
{
    EXPECT_EQ(eval(QStringLiteral("a + b * 2"), {1.0, 3.0}), 7.0);
    EXPECT_EQ(eval(QStringLiteral("(a + b) * 2"), {1.0, 3.0}), 8.0);
    EXPECT_EQ(eval(QStringLiteral("a - b - 1"), {10.0, 3.0}), 6.0) << "left-associative";
    EXPECT_EQ(eval(QStringLiteral("-a + 1e3"), {1.0}), 999.0);
    EXPECT_EQ(eval(QStringLiteral("max(sent - accepted, 0)"), {435.0, 85.0}), 350.0);
    EXPECT_EQ(eval(QStringLiteral("min(a, b) / 2"), {8.0, 6.0}), 3.0);
    EXPECT_EQ(eval(QStringLiteral("a * a / a"), {4.0}), 4.0) << "a name used twice is one input";
}

TEST(DerivedExpression, InputsAreListedInOrderOfFirstUse)
{
    const auto expression = DerivedExpression::parse(QStringLiteral("backlog / rate + backlog * 0"));
    ASSERT_TRUE(expression.ok());
    EXPECT_EQ(expression->inputs(), (QStringList{QStringLiteral("backlog"), QStringLiteral("rate")}));
    EXPECT_EQ(expression->text(), QStringLiteral("backlog / rate + backlog * 0"));
}

TEST(DerivedExpression, ZeroDenominatorAndMissingInputsAreGapsNotInfinity)
{
    EXPECT_EQ(eval(QStringLiteral("pending / rate"), {10.0, 0.0}), std::nullopt);
    EXPECT_EQ(eval(QStringLiteral("pending / rate"), {10.0, std::nullopt}), std::nullopt);
    EXPECT_EQ(eval(QStringLiteral("pending + 1"), {std::numeric_limits<double>::quiet_NaN()}), std::nullopt);
    EXPECT_EQ(eval(QStringLiteral("a * 1e300 * 1e300"), {1.0}), std::nullopt) << "overflow is a gap too";
}

TEST(DerivedExpression, ErrorsSayWhereAndWhat)
{
    const auto message = [](const QString &text) {
        const auto parsed = DerivedExpression::parse(text);
        return parsed ? QString() : parsed.error().message;
    };
    EXPECT_EQ(message(QString()), QStringLiteral("the formula is empty"));
    EXPECT_EQ(message(QStringLiteral("a * ")),
              QStringLiteral("at column 5: expected a name, a number or '(' at the end"));
    EXPECT_EQ(message(QStringLiteral("(a + b")), QStringLiteral("at column 7: expected ')'"));
    EXPECT_EQ(message(QStringLiteral("a $ b")), QStringLiteral("at column 3: unexpected '$'"));
    EXPECT_EQ(message(QStringLiteral("max(a)")),
              QStringLiteral("at column 6: max() takes two arguments: expected ','"));
    EXPECT_EQ(message(QStringLiteral("1.2.3")), QStringLiteral("at column 1: \"1.2.3\" is not a number"));
    EXPECT_TRUE(
        message(QString(200, QLatin1Char('(')) + QStringLiteral("a")).contains(QStringLiteral("nested too deeply")));
}

TEST(DerivedSeries, AlignsInputsOnTheAnchorsTimestampsWithinTolerance)
{
    const auto expression = DerivedExpression::parse(QStringLiteral("pending / rate"));
    ASSERT_TRUE(expression.ok());
    const std::vector<qint64> pendingT{1000, 2000, 3000, 4000, 5000};
    const std::vector<double> pendingV{100, 200, 300, 400, 500};
    // rate is scraped a little off the grid, misses 4000 entirely and is 0 at 5000.
    const std::vector<qint64> rateT{1010, 1990, 3100, 5000};
    const std::vector<double> rateV{10, 20, 30, 0};
    const auto out = DerivedSeries::compute(expression.value(), {{pendingT, pendingV}, {rateT, rateV}}, 150);
    EXPECT_EQ(out.timestampsMs, (std::vector<qint64>{1000, 2000, 3000}));
    EXPECT_EQ(out.values, (std::vector<double>{10, 10, 10}));

    const auto tail = DerivedSeries::compute(expression.value(), {{pendingT, pendingV}, {rateT, rateV}}, 150, 2500);
    EXPECT_EQ(tail.timestampsMs, (std::vector<qint64>{3000})) << "only the asked range is computed";
}

TEST(DerivedSeries, NearestPicksTheCloserNeighbourAndRespectsTolerance)
{
    const std::vector<qint64> t{1000, 2000, 3000};
    EXPECT_EQ(DerivedSeries::nearestWithin(t, 1400, 500), 0);
    EXPECT_EQ(DerivedSeries::nearestWithin(t, 1600, 500), 1);
    EXPECT_EQ(DerivedSeries::nearestWithin(t, 1500, 500), 0) << "a tie goes to the earlier sample";
    EXPECT_EQ(DerivedSeries::nearestWithin(t, 3600, 500), -1);
    EXPECT_EQ(DerivedSeries::nearestWithin({}, 3600, 500), -1);
}

TEST(DerivedSeries, EveryBuiltinParsesAndHasMetricsMdMeaning)
{
    for (const DerivedSeries::Builtin &b : DerivedSeries::builtins()) {
        const auto expression = DerivedExpression::parse(QString::fromUtf8(b.formula));
        EXPECT_TRUE(expression.ok()) << b.name;
        EXPECT_GE(expression->inputs().size(), 2) << b.name;
    }
    ASSERT_NE(DerivedSeries::builtin(QStringLiteral("littles_law")), nullptr);
    EXPECT_EQ(QString::fromUtf8(DerivedSeries::builtin(QStringLiteral("littles_law"))->formula),
              QStringLiteral("pending / rate"));
    EXPECT_EQ(DerivedSeries::builtin(QStringLiteral("nope")), nullptr);
}

} // namespace

#include "dashboard/loader/dashboardloader.h"
#include "fetching/derivedseriesupdater.h"
#include "store/samplestore.h"

namespace {

const QByteArray kQueueDashboard = R"json({"panels": [
    {"title": "Engine", "series": [
        {"id": "pending", "query": "sum(engine_queue_length)"},
        {"id": "completed", "query": "sum(rate(engine_process_instances_completed_total[10s]))"}]},
    {"title": "Wait", "unit": "s", "series": [
        {"derive": "littles_law", "inputs": {"pending": "pending", "rate": "completed"}},
        {"derive": "max(pending - 1000, 0)", "legend": "over 1000"}]}]})json";

TEST(DerivedSeriesDashboard, BuiltinAndFormulaSeriesAreReadWithTheirInputs)
{
    const auto loaded = DashboardLoader::fromJson(kQueueDashboard);
    ASSERT_TRUE(loaded.issues.isEmpty()) << loaded.issues.first().toString().toStdString();
    const auto &wait = loaded.dashboard.panels[1].series;
    ASSERT_EQ(wait.size(), 2u);
    EXPECT_EQ(wait[0].derive, QStringLiteral("pending / rate"));
    EXPECT_EQ(wait[0].legend, QStringLiteral("queue wait (Little's law)"));
    EXPECT_EQ(wait[0].deriveInputs.value(QStringLiteral("rate")), QStringLiteral("completed"));
    EXPECT_EQ(wait[1].deriveInputs.value(QStringLiteral("pending")), QStringLiteral("pending"));
}

TEST(DerivedSeriesDashboard, MistakesNameThePlaceAndDropOnlyThatSeries)
{
    const auto loaded = DashboardLoader::fromJson(R"json({"panels": [{"title": "p", "series": [
        {"id": "a", "query": "up"},
        {"derive": "a / "},
        {"derive": "a / b"},
        {"derive": "a * 2", "inputs": {"x": "a"}},
        {"id": "9x", "query": "up"}]}]})json");
    QStringList issues;
    for (const DashboardIssue &issue : loaded.issues)
        issues.append(issue.toString());
    EXPECT_TRUE(issues.contains(QStringLiteral(
        "panels[0].series[1].derive: at column 4: expected a name, a number or '(' at the end (in \"a /\")")))
        << issues.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(issues.contains(
        QStringLiteral("panels[0].series[2].inputs: no series has the id b (ids: a); the derived series is left out")))
        << issues.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(issues.contains(
        QStringLiteral("panels[0].series[3].inputs.x: the formula \"a * 2\" has no input of that name")))
        << issues.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(issues.contains(QStringLiteral(
        "panels[0].series[4].id: \"9x\" is not a name (letters, digits and _, not starting with a digit)")))
        << issues.join(QLatin1Char('\n')).toStdString();
    ASSERT_EQ(loaded.dashboard.panels[0].series.size(), 3u) << "the query series and the good formula stay";
    EXPECT_EQ(loaded.dashboard.panels[0].series[1].derive, QStringLiteral("a * 2"));
}

TEST(DerivedSeriesUpdater, ComputesFromTheStoreAsSamplesArriveAndOnlyTheNewTail)
{
    const auto loaded = DashboardLoader::fromJson(kQueueDashboard);
    SampleStore store;
    DerivedSeriesUpdater updater(&store);
    updater.setDashboard(loaded.dashboard);
    const QString waitKey = DerivedSeriesUpdater::storeKey(1, 0);
    const QString overKey = DerivedSeriesUpdater::storeKey(1, 1);

    const std::vector<qint64> t{10'000, 11'000, 12'000};
    store.merge(QStringLiteral("p0/q0/{}"), {}, t, std::vector<double>{2900, 1800, 900});
    EXPECT_FALSE(store.contains(waitKey)) << "not drawn until every input has samples";
    ASSERT_TRUE(store.contains(overKey));
    EXPECT_EQ(std::vector<double>(store.series(overKey)->values().begin(), store.series(overKey)->values().end()),
              (std::vector<double>{1900, 800, 0}));

    store.merge(QStringLiteral("p0/q1/{}"), {}, t, std::vector<double>{180, 0, 90});
    ASSERT_TRUE(store.contains(waitKey));
    const auto *wait = store.series(waitKey);
    EXPECT_EQ(std::vector<qint64>(wait->timestampsMs().begin(), wait->timestampsMs().end()),
              (std::vector<qint64>{10'000, 12'000}))
        << "completed = 0 at 11 s is a gap";
    EXPECT_NEAR(wait->values()[0], 16.11, 0.01);
    EXPECT_NEAR(wait->values()[1], 10.0, 1e-9);

    // A live tick: one new sample of each input adds one derived sample.
    store.merge(QStringLiteral("p0/q0/{}"), {}, std::vector<qint64>{13'000}, std::vector<double>{1000});
    store.merge(QStringLiteral("p0/q1/{}"), {}, std::vector<qint64>{13'000}, std::vector<double>{100});
    wait = store.series(waitKey);
    ASSERT_EQ(wait->size(), 3u);
    EXPECT_EQ(wait->timestampsMs().back(), 13'000);
    EXPECT_NEAR(wait->values().back(), 10.0, 1e-9);
}

} // namespace
