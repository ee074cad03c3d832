// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotationmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

namespace {
Annotation point(qint64 t, const QString &text)
{
    Annotation a;
    a.timeMs = t;
    a.text = text;
    return a;
}
} // namespace

TEST(AnnotationModel, KeepsTimeOrderThroughAddsEditsAndRemovals)
{
    AnnotationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const quint64 b = model.add(point(2000, QStringLiteral("b")));
    const quint64 a = model.add(point(1000, QStringLiteral("a")));
    model.add(point(3000, QStringLiteral("c")));
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.index(0, AnnotationModel::TextColumn).data().toString(), QStringLiteral("a"));
    EXPECT_FALSE(model.find(a)->author.isNull());
    EXPECT_GT(model.find(a)->createdAtMs, 0);

    Annotation moved = *model.find(b);
    moved.timeMs = 500;
    moved.text = QStringLiteral("b moved");
    ASSERT_TRUE(model.update(moved));
    EXPECT_EQ(model.index(0, AnnotationModel::TextColumn).data().toString(), QStringLiteral("b moved"));

    EXPECT_TRUE(model.remove(a));
    EXPECT_FALSE(model.remove(a));
    EXPECT_EQ(model.rowCount(), 2);
}

TEST(AnnotationModel, RegionsAreNormalisedAndFoundByOverlap)
{
    AnnotationModel model;
    Annotation region = point(5000, QStringLiteral("exporter slowed down"));
    region.endMs = 2000; // dragged right to left
    const quint64 id = model.add(region);
    EXPECT_EQ(model.find(id)->timeMs, 2000);
    EXPECT_EQ(model.find(id)->endMs, 5000);
    model.add(point(9000, QStringLiteral("later")));
    EXPECT_EQ(model.inRange({4000, 6000}).size(), 1u);
    EXPECT_EQ(model.inRange({8000, 10000}).size(), 1u);
    EXPECT_EQ(model.inRange({6000, 8000}).size(), 0u);
}

TEST(AnnotationModel, ChangesAreAnnounced)
{
    AnnotationModel model;
    QSignalSpy changed(&model, &AnnotationModel::annotationsChanged);
    const quint64 id = model.add(point(1, QStringLiteral("x")));
    Annotation a = *model.find(id);
    a.tags = QStringList{QStringLiteral("chaos")};
    model.update(a);
    model.remove(id);
    EXPECT_EQ(changed.size(), 3);
}
