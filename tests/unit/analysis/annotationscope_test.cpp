// SPDX-License-Identifier: GPL-3.0-or-later
// Which annotations a panel draws: everything everywhere by default; a query's "panels" and
// a panel's "annotationTags" narrow it; a query switched off is drawn nowhere.
#include "analysis/annotationscope.h"

#include <gtest/gtest.h>

namespace {

Annotation mark(Annotation::Source source, const QString &author, const QStringList &tags)
{
    Annotation a;
    a.source = source;
    a.author = author;
    a.tags = tags;
    a.text = QStringLiteral("x");
    return a;
}

DashboardDefinition dashboard()
{
    DashboardDefinition d;
    PanelDefinition throughput;
    throughput.title = QStringLiteral("Throughput");
    PanelDefinition kafka;
    kafka.title = QStringLiteral("Kafka");
    kafka.annotationTags = {QStringLiteral("kafka")};
    PanelDefinition db;
    db.title = QStringLiteral("Database");
    db.annotationTags = {QStringLiteral("db"), QStringLiteral("kafka")};
    d.panels = {throughput, kafka, db};
    AnnotationQueryDefinition lag;
    lag.name = QStringLiteral("lag");
    lag.panels = {QStringLiteral("Kafka")};
    AnnotationQueryDefinition restarts;
    restarts.name = QStringLiteral("restarts");
    restarts.hidden = true;
    d.annotationQueries = {lag, restarts};
    return d;
}

} // namespace

TEST(AnnotationScope, ByDefaultEveryPanelDrawsEveryAnnotation)
{
    const AnnotationScope scope;
    for (int panel : {-1, 0, 5}) {
        EXPECT_TRUE(scope.shows(mark(Annotation::Source::Manual, {}, {QStringLiteral("kafka")}), panel));
        EXPECT_TRUE(scope.shows(mark(Annotation::Source::Query, QStringLiteral("lag"), {}), panel));
    }
}

TEST(AnnotationScope, AQueryLimitedToPanelsMarksThoseOnly)
{
    const AnnotationScope scope(dashboard());
    const Annotation lag = mark(Annotation::Source::Query, QStringLiteral("lag"), {QStringLiteral("lag")});
    EXPECT_FALSE(scope.shows(lag, 0));
    EXPECT_TRUE(scope.shows(lag, 1));
    EXPECT_FALSE(scope.shows(lag, 2));
    // A note by someone whose name happens to be "lag" is not the query's.
    EXPECT_TRUE(scope.shows(mark(Annotation::Source::Manual, QStringLiteral("lag"), {}), 0));
}

TEST(AnnotationScope, TagsAPanelClaimsGoToThePanelsClaimingThemOnly)
{
    const AnnotationScope scope(dashboard());
    const Annotation broker = mark(Annotation::Source::Manual, {}, {QStringLiteral("kafka")});
    EXPECT_FALSE(scope.shows(broker, 0));
    EXPECT_TRUE(scope.shows(broker, 1));
    EXPECT_TRUE(scope.shows(broker, 2));
    const Annotation pool = mark(Annotation::Source::Action, {}, {QStringLiteral("db"), QStringLiteral("fix")});
    EXPECT_EQ(std::vector<bool>({scope.shows(pool, 0), scope.shows(pool, 1), scope.shows(pool, 2)}),
              std::vector<bool>({false, false, true}));
    const Annotation untagged = mark(Annotation::Source::Detector, {}, {QStringLiteral("fix")});
    for (int panel : {0, 1, 2})
        EXPECT_TRUE(scope.shows(untagged, panel)) << "no tag any panel claims: everywhere";
}

TEST(AnnotationScope, AQuerySwitchedOffIsDrawnNowhereUntilSwitchedOn)
{
    AnnotationScope scope(dashboard());
    const Annotation restart = mark(Annotation::Source::Query, QStringLiteral("restarts"), {});
    EXPECT_FALSE(scope.isQueryShown(QStringLiteral("restarts"))) << "\"hidden\": true";
    EXPECT_FALSE(scope.shows(restart, 0));
    scope.setQueryShown(QStringLiteral("restarts"), true);
    EXPECT_TRUE(scope.shows(restart, 0));
    scope.setQueryShown(QStringLiteral("lag"), false);
    EXPECT_FALSE(scope.shows(mark(Annotation::Source::Query, QStringLiteral("lag"), {}), 1));
}
