// SPDX-License-Identifier: GPL-3.0-or-later
// A panel's title in a narrow header (a 1280 × 800 window with the docks open): it ends in "…",
// never runs under the header's other text, and its tooltip has it whole. It was once cut
// mid-word under "step 1 s · newest 1 s ago".
#include "panels/paneltitle.h"
#include "panels/panelwidget.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QLabel>
#include <QTest>
#include <gtest/gtest.h>

TEST(PanelTitle, ANarrowHeaderEndsTheTitleInAnEllipsisBeforeTheFreshnessText)
{
    SampleStore store;
    TimeWindow window;
    PanelDefinition definition;
    definition.title = QStringLiteral("Throughput: sent vs accepted vs completed");
    definition.unit = QStringLiteral("ops/s");
    PanelStatus status;
    status.state = PanelStatus::State::Ok;
    status.stepMs = 1000;
    status.newestSampleMs = window.now() - 1000;
    PanelWidget panel(definition, &store, &window);
    panel.setStatus(status);
    panel.resize(900, 300);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    auto *title = panel.findChild<PanelTitle *>();
    ASSERT_NE(title, nullptr);
    ASSERT_TRUE(QTest::qWaitFor([&] { return title->shownTitle() == definition.title; }, 2000))
        << "wide enough: whole " << title->shownTitle().toStdString();
    EXPECT_TRUE(title->text().contains(QStringLiteral("ops/s")));

    panel.resize(420, 300);
    ASSERT_TRUE(QTest::qWaitFor([&] { return title->shownTitle().endsWith(QChar(0x2026)); }, 2000))
        << title->shownTitle().toStdString();
    EXPECT_TRUE(definition.title.startsWith(title->shownTitle().chopped(1))) << "cut at its end, nowhere else";
    EXPECT_FALSE(title->text().contains(QStringLiteral("ops/s"))) << "the unit goes first";
    EXPECT_TRUE(title->toolTip().contains(definition.title));
    // Nothing of the title under the freshness text.
    QLabel *freshness = nullptr;
    for (QLabel *label : panel.findChildren<QLabel *>()) {
        if (label->text().contains(QStringLiteral("newest")))
            freshness = label;
    }
    ASSERT_NE(freshness, nullptr);
    QFont bold = title->font();
    bold.setBold(true);
    const int titleRight = title->x() + QFontMetrics(bold).horizontalAdvance(title->shownTitle());
    EXPECT_LE(titleRight, freshness->x() + 2);
}
