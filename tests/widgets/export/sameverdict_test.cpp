// SPDX-License-Identifier: GPL-3.0-or-later
// One run, one verdict: a dashboard's check reads the same in the panel's legend, in an
// exported picture (whatever marks it draws) and in the post's Result, because all three divide
// the run by the one phase rule (docs/dashboards.md#phases). The run is made so that the rules
// they used to follow disagree: a note typed in the middle of the second break used to restart
// the settling on screen and in pictures (✓), while the post judged from the scale (❌).
#include "annotations/annotationmodel.h"
#include "chart/legendview.h"
#include "chart/timelinechart.h"
#include "dashboard/loader/dashboardloader.h"
#include "dashboard/panelchecks.h"
#include "figurerender.h"
#include "panels/panelwidget.h"
#include "report/postexpectations.h"
#include "store/samplestore.h"
#include "theme/uitheme.h"
#include "timeline/timewindow.h"

#include <QDateTime>
#include <QTest>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;
constexpr qint64 kEnd = kStart + 120'000;
const QString kKey = QStringLiteral("p0/q0/{}");

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

struct SameVerdictTest : ::testing::Test
{
    SampleStore store;
    AnnotationModel annotations;
    DashboardDefinition dashboard;

    void SetUp() override
    {
        UiTheme::instance()->apply(UiTheme::Choice::Light);
        const auto loaded = DashboardLoader::fromJson(R"json({"panels": [
            {"title": "Timeouts", "unit": "ops/s", "series": [{"query": "timeouts", "id": "timeouts"}]}],
          "checks": [{"name": "no timeouts", "series": "timeouts", "holds": "<= 0", "for": "3s",
                      "settle": "15s"}]})json");
        ASSERT_TRUE(loaded.usable);
        dashboard = loaded.dashboard;
        // Timeouts drain for 7 s after the scale at +60 s (settling), then break again at
        // +85 s, 25 s after it: past the settling, failed 3 s later.
        std::vector<qint64> times;
        std::vector<double> values;
        for (int s = 0; s <= 120; ++s) {
            times.push_back(kStart + s * 1000LL);
            values.push_back((s >= 60 && s < 67) || (s >= 85 && s < 93) ? 40.0 : 0.0);
        }
        store.merge(kKey, {}, times, values);
        Annotation scale;
        scale.timeMs = kStart + 60'000;
        scale.text = QStringLiteral("worker replicas 1 → 2 (Chaoscope)");
        scale.source = Annotation::Source::Action;
        annotations.add(scale);
        annotations.add(Annotation::note(kStart + 80'000, std::nullopt, QStringLiteral("timeouts again?")));
    }

    bool pictureFailed(const QStringList &marks)
    {
        ExportFigure figure;
        figure.range = {kStart, kEnd};
        figure.columns = 1;
        figure.annotations = annotations.annotations();
        if (const std::optional<QString> problem = figure.selectAnnotations(marks, {})) {
            ADD_FAILURE() << problem->toStdString();
            return false;
        }
        ExportFigure::Panel panel;
        panel.title = QStringLiteral("Timeouts");
        panel.unit = QStringLiteral("ops/s");
        panel.dashboardPanel = 0;
        panel.series.push_back({kKey, QStringLiteral("timeouts/s"), dashboard.panels[0].series[0]});
        panel.checks = PanelChecks::of(dashboard, 0, dashboard.checks);
        figure.panels.push_back(panel);
        const RenderedFigure rendered = renderFigure(store, figure, QSizeF(800, 450));
        EXPECT_EQ(rendered.layout.cells.size(), 1U);
        EXPECT_EQ(rendered.layout.cells.at(0).checkFailed.size(), 1U);
        return rendered.layout.cells.at(0).checkFailed.at(0);
    }
};

} // namespace

TEST_F(SameVerdictTest, TheLegendThePictureAndThePostGiveOneVerdictForOneRun)
{
    const QString failedAt = clock(kStart + 88'000);

    // The legend, with the whole run in view.
    TimeWindow window;
    window.setClock([] { return kEnd; });
    window.setWindowMs(kEnd - kStart);
    PanelWidget panel(dashboard.panels[0], &store, &window);
    panel.chart()->addSeries(kKey, QStringLiteral("timeouts/s"), 0);
    panel.setChecks(PanelChecks::of(dashboard, 0, dashboard.checks), &annotations);
    panel.resize(640, 320);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    auto *legend = panel.findChild<LegendView *>(QStringLiteral("legend"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return legend->rows().size() == 1 && !legend->rows()[0].last.isEmpty(); }, 5000));
    EXPECT_EQ(legend->rows()[0].check, QStringLiteral("✗ 40 ops/s at %1").arg(failedAt));
    EXPECT_TRUE(legend->rows()[0].checkFailed);

    // The picture: red, whether it draws every mark, only the actions or only the notes.
    EXPECT_TRUE(pictureFailed({})) << "every mark drawn";
    EXPECT_TRUE(pictureFailed({QStringLiteral("action")})) << "the note left out of the picture";
    EXPECT_TRUE(pictureFailed({QStringLiteral("manual")})) << "the scale left out of the picture";

    // The post's Result.
    DashboardSnapshot snapshot;
    snapshot.dashboard = dashboard;
    snapshot.add({0, 0, kKey, QStringLiteral("timeouts/s")});
    const std::vector<PostDraft::Expectation> expectations =
        PostExpectations::fromChecks(snapshot, store, {kStart, kEnd}, annotations.annotations());
    ASSERT_EQ(expectations.size(), 1U);
    ASSERT_TRUE(expectations[0].passed.has_value());
    EXPECT_FALSE(*expectations[0].passed);
    EXPECT_TRUE(expectations[0].outcome.contains(QStringLiteral("FAILED at %1").arg(failedAt)))
        << expectations[0].outcome.toStdString();
}
