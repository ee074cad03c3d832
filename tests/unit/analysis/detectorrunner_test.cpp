// SPDX-License-Identifier: GPL-3.0-or-later
// The dashboard's detectors run over the stored series and put what they find on the
// timelines as suggestions: each event once, a dismissed one never again, an accepted one
// kept as an ordinary annotation. And the dashboard file says which detectors run, with
// clear messages for what is wrong in it.
#include "analysis/detectorrunner.h"
#include "annotations/annotationmodel.h"
#include "dashboard/loader/dashboardloader.h"
#include "store/samplestore.h"

#include <QSignalSpy>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <vector>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

struct Recorded
{
    std::vector<qint64> t;
    std::vector<double> v;
};

// Seconds [from, to) at a 1 s step with a small deterministic wobble, like a rate() over scrapes.
Recorded record(int from, int to, const std::function<double(int)> &level)
{
    Recorded r;
    for (int s = from; s < to; ++s) {
        r.t.push_back(kStart + s * 1000LL);
        r.v.push_back(level(s) * (1 + 0.02 * std::sin(s * 1.7)));
    }
    return r;
}

// completed/s near 298, scaled down at 300 s and 900 s (falls to ~113 each time), back at 600 s.
double completedLevel(int s)
{
    if (s < 300 || (s >= 600 && s < 900))
        return 298.0;
    const int since = s < 600 ? s - 300 : s - 900;
    return std::max(113.0, 298.0 - since * 10.0);
}

DashboardDefinition load(const QByteArray &json)
{
    const DashboardLoader::LoadResult result = DashboardLoader::fromJson(json);
    EXPECT_TRUE(result.issues.isEmpty()) << result.issues.value(0).toString().toStdString();
    return result.dashboard;
}

const QByteArray kDropDashboard = R"json({
  "panels": [{"title": "Throughput", "unit": "ops/s",
              "series": [{"id": "completed", "query": "sum(rate(done[1m]))", "legend": "completed/s"}]}],
  "detectors": [{"kind": "throughputDrop", "series": "completed"}]
})json";

std::vector<Annotation> suggestions(const AnnotationModel &model)
{
    std::vector<Annotation> found;
    for (const Annotation &a : model.annotations()) {
        if (a.suggested)
            found.push_back(a);
    }
    return found;
}

class DetectorRunnerTest : public ::testing::Test
{
protected:
    void merge(const QString &key, const Recorded &r, const QMap<QString, QString> &labels = {})
    {
        store.merge(key, labels, r.t, r.v);
    }

    SampleStore store;
    AnnotationModel annotations;
    DetectorRunner runner{&store, &annotations};
};

} // namespace

TEST_F(DetectorRunnerTest, EachDropIsSuggestedOnceAsADimmedDetectorAnnotation)
{
    runner.setDashboard(load(kDropDashboard));
    merge(QStringLiteral("p0/q0/{}"), record(0, 1200, completedLevel));

    EXPECT_EQ(runner.run(), 2);
    const std::vector<Annotation> found = suggestions(annotations);
    ASSERT_EQ(found.size(), 2u);
    for (const Annotation &a : found) {
        EXPECT_EQ(a.source, Annotation::Source::Detector);
        EXPECT_TRUE(a.text.startsWith(QStringLiteral("completed/s fell"))) << a.text.toStdString();
        EXPECT_EQ(a.tags, QStringList{QStringLiteral("throughput-drop")});
    }
    EXPECT_NEAR(double(found[0].timeMs - kStart) / 1000, 309, 2);
    EXPECT_NEAR(double(found[1].timeMs - kStart) / 1000, 909, 2);

    // The next runs find the same events: nothing is added twice.
    EXPECT_EQ(runner.run(), 0);
    EXPECT_EQ(runner.run(), 0);
    EXPECT_EQ(annotations.rowCount(), 2);
}

TEST_F(DetectorRunnerTest, ADismissedSuggestionIsNotSuggestedAgain)
{
    runner.setDashboard(load(kDropDashboard));
    merge(QStringLiteral("p0/q0/{}"), record(0, 1200, completedLevel));
    ASSERT_EQ(runner.run(), 2);
    const Annotation dismissed = suggestions(annotations).front();
    ASSERT_TRUE(annotations.remove(dismissed.id));

    EXPECT_EQ(runner.run(), 0);
    ASSERT_EQ(annotations.rowCount(), 1);
    EXPECT_NE(annotations.annotations().front().timeMs, dismissed.timeMs);
}

TEST_F(DetectorRunnerTest, AnAcceptedSuggestionStaysAnOrdinaryAnnotation)
{
    runner.setDashboard(load(kDropDashboard));
    merge(QStringLiteral("p0/q0/{}"), record(0, 1200, completedLevel));
    ASSERT_EQ(runner.run(), 2);
    Annotation accepted = suggestions(annotations).front();
    accepted.suggested = false;
    ASSERT_TRUE(annotations.update(accepted));

    EXPECT_EQ(runner.run(), 0);
    EXPECT_EQ(annotations.rowCount(), 2);
    const std::optional<Annotation> after = annotations.find(accepted.id);
    ASSERT_TRUE(after);
    EXPECT_FALSE(after->suggested);
    EXPECT_EQ(suggestions(annotations).size(), 1u);
}

TEST_F(DetectorRunnerTest, LiveSamplesAreWatchedWithoutBeingAsked)
{
    runner.setDelayMs(10);
    runner.setDashboard(load(kDropDashboard));
    QSignalSpy ran(&runner, &DetectorRunner::ran);
    merge(QStringLiteral("p0/q0/{}"), record(0, 600, completedLevel)); // the first drop
    ASSERT_TRUE(ran.wait(5000));
    EXPECT_EQ(suggestions(annotations).size(), 1u);

    merge(QStringLiteral("p0/q0/{}"), record(600, 1200, completedLevel)); // the second arrives later
    ASSERT_TRUE(ran.wait(5000));
    EXPECT_EQ(suggestions(annotations).size(), 2u);

    // A series no detector reads does not start a run.
    ran.clear();
    merge(QStringLiteral("p1/q0/{}"), record(0, 10, [](int) { return 1.0; }));
    EXPECT_FALSE(ran.wait(200));
}

TEST_F(DetectorRunnerTest, ADropFoundOnAProvisionalSampleIsNotSuggestedTwiceWhenTheSampleIsRevised)
{
    runner.setDashboard(load(kDropDashboard));
    // The drop is first seen on the newest samples, which the next poll replaces with final
    // values (here 4 % lower), moving the crossing and changing the numbers in the text.
    merge(QStringLiteral("p0/q0/{}"), record(0, 312, completedLevel));
    ASSERT_EQ(runner.run(), 1);
    const Annotation first = suggestions(annotations).front();
    merge(QStringLiteral("p0/q0/{}"),
          record(306, 600, [](int s) { return completedLevel(s) * (s < 312 ? 0.96 : 1.0); }));
    EXPECT_EQ(runner.run(), 0);
    ASSERT_EQ(annotations.rowCount(), 1);
    EXPECT_EQ(annotations.annotations().front().id, first.id);
}

TEST_F(DetectorRunnerTest, SuggestionsAlreadyOnTheTimelineAreNotAddedAgain)
{
    // A recording reopened with its suggestions: the detectors find the same events.
    runner.setDashboard(load(kDropDashboard));
    merge(QStringLiteral("p0/q0/{}"), record(0, 1200, completedLevel));
    ASSERT_EQ(runner.run(), 2);
    const std::vector<Annotation> kept = annotations.annotations();

    AnnotationModel reopened;
    for (const Annotation &a : kept)
        reopened.restore(a);
    DetectorRunner second(&store, &reopened);
    second.setDashboard(load(kDropDashboard));
    EXPECT_EQ(second.run(), 0);
    EXPECT_EQ(reopened.rowCount(), 2);
}

TEST_F(DetectorRunnerTest, EveryScrapeTargetIsWatchedOnItsOwn)
{
    runner.setDashboard(load(R"json({
      "panels": [{"title": "Targets", "series": [{"id": "up", "query": "up{job=\"engine\"}"}]}],
      "detectors": [{"kind": "targetDown", "series": "up"}]
    })json"));
    const Recorded a = record(0, 120, [](int s) { return s >= 30 && s < 60 ? 0.0 : 1.0; });
    Recorded b = record(0, 120, [](int) { return 1.0; });
    b.v[90] = 0; // one failed scrape
    for (double &v : b.v)
        v = std::round(v);
    Recorded upA = a;
    for (double &v : upA.v)
        v = std::round(v);
    merge(QStringLiteral("p0/q0/{instance=\"engine-0\"}"), upA,
          {{QStringLiteral("instance"), QStringLiteral("engine-0")}});
    merge(QStringLiteral("p0/q0/{instance=\"engine-1\"}"), b,
          {{QStringLiteral("instance"), QStringLiteral("engine-1")}});

    EXPECT_EQ(runner.run(), 4);
    QStringList texts;
    for (const Annotation &s : suggestions(annotations))
        texts << s.text;
    EXPECT_EQ(texts, (QStringList{QStringLiteral("engine-0 went down"), QStringLiteral("engine-0 is back up"),
                                  QStringLiteral("engine-1 went down"), QStringLiteral("engine-1 is back up")}));
}

TEST_F(DetectorRunnerTest, AGrowingBacklogIsOneSuggestedRegionThatFollowsTheGrowth)
{
    runner.setDashboard(load(R"json({
      "panels": [{"title": "Exporter", "series": [{"id": "backlog", "query": "backlog"}, {"id": "exported", "query": "rate(exported[1m])"}]}],
      "detectors": [{"kind": "backlogGrowsWhileFlat", "backlog": "backlog", "throughput": "exported", "minutes": 5}]
    })json"));
    // Throughput flat at 200/s; the backlog flat until 300 s, then growing by 10 records a second.
    const auto backlog = [](int s) { return s < 300 ? 1000.0 : 1000.0 + (s - 300) * 10.0; };
    merge(QStringLiteral("p0/q1/{}"), record(0, 1500, [](int) { return 200.0; }));
    merge(QStringLiteral("p0/q0/{}"), record(0, 900, backlog));
    ASSERT_EQ(runner.run(), 1);
    const Annotation first = suggestions(annotations).front();
    ASSERT_TRUE(first.isRegion());

    merge(QStringLiteral("p0/q0/{}"), record(900, 1200, backlog));
    EXPECT_EQ(runner.run(), 0);
    ASSERT_EQ(annotations.rowCount(), 1);
    const Annotation grown = annotations.annotations().front();
    EXPECT_EQ(grown.id, first.id);
    EXPECT_EQ(grown.timeMs, first.timeMs);
    EXPECT_GT(*grown.endMs, *first.endMs);
}

TEST_F(DetectorRunnerTest, ARateAboveItsThresholdNamesTheSeriesAndItsUnit)
{
    runner.setDashboard(load(R"json({
      "panels": [{"title": "Timeouts", "unit": "ops/s",
                  "series": [{"id": "timeouts", "query": "rate(t[1m])", "legend": "599 timeouts"}]}],
      "detectors": [{"kind": "rateAbove", "series": "timeouts", "threshold": 5}]
    })json"));
    merge(QStringLiteral("p0/q0/{}"), record(0, 300, [](int s) { return s >= 100 && s < 200 ? 20.0 : 0.0; }));
    ASSERT_EQ(runner.run(), 1);
    const Annotation found = suggestions(annotations).front();
    EXPECT_NEAR(double(found.timeMs - kStart) / 1000, 100, 1);
    EXPECT_TRUE(found.text.startsWith(QStringLiteral("599 timeouts rose to"))) << found.text.toStdString();
    EXPECT_TRUE(found.text.contains(QStringLiteral("(above 5/s)"))) << found.text.toStdString();
}

TEST(DetectorDefinitions, OmittedThresholdsHaveTheirDefaultsAndGivenOnesAreRead)
{
    const DashboardLoader::LoadResult result = DashboardLoader::fromJson(R"json({
      "panels": [{"title": "T", "series": [{"id": "a", "query": "a"}, {"id": "b", "query": "b"}]}],
      "detectors": [{"kind": "throughputDrop", "series": "a"},
                    {"kind": "ThroughputDrop", "series": "a", "dropPercent": 50, "withinSeconds": 30, "floor": 10},
                    {"kind": "backlogGrowsWhileFlat", "backlog": "a", "throughput": "b", "minutes": 2.5, "flatPercent": 10},
                    {"kind": "rateAbove", "series": "b", "threshold": 0.5},
                    {"kind": "targetDown", "series": "b"}]
    })json");
    ASSERT_TRUE(result.issues.isEmpty()) << result.issues.value(0).toString().toStdString();
    const auto &d = result.dashboard.detectors;
    ASSERT_EQ(d.size(), 5u);
    EXPECT_EQ(d[0].thresholds.dropPercent, 30);
    EXPECT_EQ(d[0].thresholds.dropWithinMs, 60'000);
    EXPECT_EQ(d[1].thresholds.dropPercent, 50);
    EXPECT_EQ(d[1].thresholds.dropWithinMs, 30'000);
    EXPECT_EQ(d[1].thresholds.dropFloor, 10);
    EXPECT_EQ(d[2].kind, DetectorDefinition::Kind::BacklogGrowsWhileFlat);
    EXPECT_EQ(d[2].backlog, QStringLiteral("a"));
    EXPECT_EQ(d[2].throughput, QStringLiteral("b"));
    EXPECT_EQ(d[2].thresholds.backlogGrowthMs, 150'000);
    EXPECT_EQ(d[2].thresholds.flatPercent, 10);
    EXPECT_EQ(d[3].thresholds.rateAbove, 0.5);
    EXPECT_EQ(d[4].kind, DetectorDefinition::Kind::TargetDown);
}

TEST(DetectorDefinitions, MistakesAreNamedWhereTheyAreAndTheRestStillLoads)
{
    const DashboardLoader::LoadResult result = DashboardLoader::fromJson(R"json({
      "panels": [{"title": "T", "series": [{"id": "a", "query": "a"}]}],
      "detectors": [{"kind": "throughputFall", "series": "a"},
                    {"kind": "throughputDrop", "series": "nope"},
                    {"kind": "rateAbove"},
                    {"kind": "throughputDrop", "series": "a", "dropPercent": 130, "withinSecond": 5},
                    "rateAbove",
                    {"kind": "rateAbove", "series": "a", "threshold": "high"}]
    })json");
    ASSERT_TRUE(result.usable);
    QStringList issues;
    for (const DashboardIssue &issue : result.issues)
        issues << issue.toString();
    const auto has = [&](const QString &text) {
        return std::any_of(issues.begin(), issues.end(), [&](const QString &i) { return i.startsWith(text); });
    };
    EXPECT_TRUE(
        has(QStringLiteral("detectors[0].kind: \"throughputFall\" is not a detector; must be one of throughputDrop, ")))
        << issues.join('\n').toStdString();
    EXPECT_TRUE(has(QStringLiteral("detectors[1].series: no series has the id \"nope\" (ids: a); detector dropped")));
    EXPECT_TRUE(has(QStringLiteral("detectors[2].series: missing; must be the id of a series; detector dropped")));
    EXPECT_TRUE(
        has(QStringLiteral("detectors[3].dropPercent: 130 must be a number above 0 and at most 100; using 30")));
    EXPECT_TRUE(
        has(QStringLiteral("detectors[3].withinSecond: unknown key, ignored (did you mean \"withinSeconds\"?)")));
    EXPECT_TRUE(has(QStringLiteral("detectors[4]: must be an object; detector dropped")));
    EXPECT_TRUE(has(QStringLiteral("detectors[5].threshold: \"high\" must be a number; using 1")));
    // The two that could be read are kept, with their defaults where the value was bad.
    ASSERT_EQ(result.dashboard.detectors.size(), 2u);
    EXPECT_EQ(result.dashboard.detectors[0].thresholds.dropPercent, 30);
    EXPECT_EQ(result.dashboard.detectors[1].kind, DetectorDefinition::Kind::RateAbove);
    EXPECT_EQ(result.dashboard.panels.size(), 1u);

    const DashboardLoader::LoadResult notAList =
        DashboardLoader::fromJson(R"json({"panels": [], "detectors": {"kind": "rateAbove"}})json");
    ASSERT_EQ(notAList.issues.size(), 1);
    EXPECT_TRUE(notAList.issues[0].toString().startsWith(QStringLiteral("detectors: must be an array")));
}
