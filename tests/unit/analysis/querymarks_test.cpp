// SPDX-License-Identifier: GPL-3.0-or-later
// An annotation query's samples turned into marks, fed as fetches bring them (overlapping):
// points where a series starts being non-zero, regions while it stays so, a mark at each
// change of value saying before → after, gaps counted as zero, templates filled in.
#include "analysis/querymarks.h"

#include <gtest/gtest.h>
#include <vector>

namespace {

// What the callbacks were asked to do, as a model would hold it.
struct Marks
{
    std::vector<Annotation> all;
    QueryMarks::Add add()
    {
        return [this](const Annotation &a) {
            Annotation added = a;
            added.id = all.size() + 1;
            all.push_back(added);
            return added.id;
        };
    }
    QueryMarks::Update update()
    {
        return [this](const Annotation &a) { all.at(a.id - 1) = a; };
    }
};

AnnotationQueryDefinition definition(AnnotationQueryDefinition::Mode mode, const QString &title = {})
{
    AnnotationQueryDefinition d;
    d.name = QStringLiteral("restarts");
    d.query = QStringLiteral("increase(kube_pod_container_status_restarts_total[2m]) > 0");
    d.title = title;
    d.tagLabels = {QStringLiteral("pod")};
    d.mode = mode;
    return d;
}

const QMap<QString, QString> kPod{{QStringLiteral("pod"), QStringLiteral("worker-7d9f")},
                                  {QStringLiteral("namespace"), QStringLiteral("chaos")}};

} // namespace

TEST(QueryMarks, APointWhereTheSeriesStartsBeingNonZeroAndAgainAfterAGap)
{
    QueryMarks marks(definition(AnnotationQueryDefinition::Mode::Points, QStringLiteral("{{pod}} restarted")), kPod,
                     15'000);
    Marks m;
    marks.feed(std::vector<qint64>{10'000, 20'000, 30'000}, std::vector<double>{0, 1, 1}, m.add(), m.update());
    // The next fetch overlaps the last sample; then the series is absent for a minute.
    marks.feed(std::vector<qint64>{30'000, 40'000, 100'000}, std::vector<double>{1, 2, 1}, m.add(), m.update());
    ASSERT_EQ(m.all.size(), 2u);
    EXPECT_EQ(m.all[0].timeMs, 20'000);
    EXPECT_EQ(m.all[0].text, QStringLiteral("worker-7d9f restarted"));
    EXPECT_EQ(m.all[0].source, Annotation::Source::Query);
    EXPECT_EQ(m.all[0].author, QStringLiteral("restarts"));
    EXPECT_EQ(m.all[0].tags, (QStringList{QStringLiteral("restarts"), QStringLiteral("worker-7d9f")}));
    EXPECT_FALSE(m.all[0].isRegion());
    EXPECT_EQ(m.all[1].timeMs, 100'000) << "after a gap longer than gapMs it starts again";
}

TEST(QueryMarks, ARegionGrowsWhileNonZeroAndEndsAtItsLastNonZeroSample)
{
    QueryMarks marks(definition(AnnotationQueryDefinition::Mode::Regions), kPod, 15'000);
    Marks m;
    marks.feed(std::vector<qint64>{0, 10'000, 20'000}, std::vector<double>{1, 1, 1}, m.add(), m.update());
    ASSERT_EQ(m.all.size(), 1u);
    EXPECT_EQ(m.all[0].timeMs, 0);
    EXPECT_EQ(m.all[0].endMs, 20'000) << "drawn to now while it lasts";
    marks.feed(std::vector<qint64>{30'000, 40'000, 50'000, 60'000}, std::vector<double>{1, 0, 0, 1}, m.add(),
               m.update());
    ASSERT_EQ(m.all.size(), 2u);
    EXPECT_EQ(m.all[0].endMs, 30'000);
    EXPECT_EQ(m.all[1].timeMs, 60'000);
    EXPECT_EQ(m.all[1].text, QStringLiteral("restarts {namespace=\"chaos\", pod=\"worker-7d9f\"}"))
        << "no title: the query's name and the labels";
}

TEST(QueryMarks, AChangeSaysBeforeAndAfterAndTheFirstSampleIsOnlyItsStart)
{
    AnnotationQueryDefinition d =
        definition(AnnotationQueryDefinition::Mode::Changes, QStringLiteral("{{deployment}} replicas"));
    d.text = QStringLiteral("now {{value}}");
    QueryMarks marks(d, {{QStringLiteral("deployment"), QStringLiteral("worker")}}, 15'000);
    Marks m;
    marks.feed(std::vector<qint64>{0, 10'000, 20'000, 30'000, 40'000}, std::vector<double>{1, 1, 3, 3, 5}, m.add(),
               m.update());
    ASSERT_EQ(m.all.size(), 2u);
    EXPECT_EQ(m.all[0].timeMs, 20'000);
    EXPECT_EQ(m.all[0].text, QStringLiteral("worker replicas 1 → 3: now 3"));
    EXPECT_EQ(m.all[1].text, QStringLiteral("worker replicas 3 → 5: now 5"));
}
