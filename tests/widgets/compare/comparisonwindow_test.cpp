// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Compare runs… as a user drives it: runs given by the app, aligned on an event typed
// in the window, a steady state and columns chosen; the table says each run's numbers, the
// picture has a column (or a colour) per run, and a mistake is said where it was made.
#include "compare/comparisonwindow.h"
#include "export/postdialog.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <memory>

namespace {

constexpr qint64 kStart = 1'772'358'000'000; // 2026-03-01 09:40:00 UTC

// A run at `rate` after a raise 10 s in (20 s before it for the second run), 60 s long.
struct StoredRun
{
    std::shared_ptr<SampleStore> store = std::make_shared<SampleStore>();
    ComparedRun compared;
};

StoredRun makeRun(const QString &title, double rate, qint64 start, qint64 lead)
{
    StoredRun run;
    const qint64 raise = start + lead;
    std::vector<qint64> times;
    std::vector<double> values;
    for (qint64 t = start; t <= start + 60'000; t += 1000) {
        times.push_back(t);
        values.push_back(t < raise ? 5 : rate);
    }
    const QString key = SeriesKey::ofQuery(0, 0, {}, QStringLiteral("{}"));
    run.store->merge(key, {}, times, values);
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    panel.unit = QStringLiteral("ops/s");
    SeriesDefinition sent;
    sent.query = QStringLiteral("sum(rate(sent[10s]))");
    sent.id = QStringLiteral("sent");
    sent.legend = QStringLiteral("sent/s");
    panel.series = {sent};
    run.compared.title = title;
    run.compared.store = run.store.get();
    run.compared.snapshot.dashboard.title = QStringLiteral("Testbed");
    run.compared.snapshot.dashboard.panels = {panel};
    run.compared.snapshot.series = {{{0, 0, key, QStringLiteral("sent/s")}}};
    Annotation raised;
    raised.id = 1;
    raised.timeMs = raise;
    raised.text = QStringLiteral("rate 5 → %1 /s (Chaoscope starter, 1/1 replica)").arg(rate);
    raised.source = Annotation::Source::Action;
    run.compared.annotations = {raised};
    run.compared.range = {start, start + 60'000};
    run.compared.zeroMs = start;
    run.compared.steady = run.compared.range;
    return run;
}

QString cell(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : QString();
}

} // namespace

TEST(ComparisonWindow, TheTableSaysEachRunsSteadyStateOnceAlignedOnTheRaise)
{
    const StoredRun first = makeRun(QStringLiteral("500 PI/s"), 500, kStart, 10'000);
    const StoredRun second = makeRun(QStringLiteral("300 PI/s"), 300, kStart + 3'600'000, 20'000);
    ComparisonWindow window;
    QSignalSpy updated(&window, &ComparisonWindow::updated);
    window.setRuns({first.compared, second.compared});
    ASSERT_TRUE(updated.wait(2000));
    const auto *table = window.findChild<QTableWidget *>();
    ASSERT_NE(table, nullptr);
    // From each start, the lead-in at 5/s counts too: the means differ from the rates.
    ASSERT_TRUE(window.table().has_value()) << window.status().toStdString();
    EXPECT_LT(*window.table()->cells[0][0], 490);

    // Aligned on the raise, the steady state from it: each mean is its rate.
    window.setAlignText(QStringLiteral("rate"));
    ASSERT_TRUE(updated.wait(2000));
    ASSERT_EQ(table->rowCount(), 2);
    EXPECT_EQ(cell(table, 0, 0), QStringLiteral("500 PI/s"));
    EXPECT_EQ(cell(table, 0, 1), QStringLiteral("500 ops/s"));
    EXPECT_EQ(cell(table, 1, 1), QStringLiteral("300 ops/s"));
    EXPECT_TRUE(window.table()->toMarkdown().contains(QStringLiteral("| 300 PI/s | 300 ops/s |")));
    EXPECT_FALSE(window.preview().isNull());
    EXPECT_GE(window.preview().width(), 1200);

    // A mistake is said in the window, and nothing is drawn from it.
    window.setColumns(QStringLiteral("snet:p99"));
    ASSERT_TRUE(updated.wait(2000));
    EXPECT_TRUE(window.status().contains(QStringLiteral("\"snet\" names no series"))) << window.status().toStdString();
    window.setColumns(QStringLiteral("sent:max"));
    window.setAlignText(QStringLiteral("no such action"));
    ASSERT_TRUE(updated.wait(2000));
    EXPECT_TRUE(window.status().contains(QStringLiteral("no mark of 500 PI/s contains “no such action”")))
        << window.status().toStdString();
    EXPECT_TRUE(window.preview().isNull());

    // Written as the user asks: the picture, the table.
    window.setAlignText(QStringLiteral("rate"));
    ASSERT_TRUE(updated.wait(2000));
    QTemporaryDir dir;
    const Result<QString> picture = window.writePicture(dir.filePath(QStringLiteral("runs.png")));
    ASSERT_TRUE(picture.ok()) << picture.error().message.toStdString();
    EXPECT_EQ(QImage(picture.value()).width(), 2400);
    const Result<QString> csv = window.writeTable(dir.filePath(QStringLiteral("runs.csv")));
    ASSERT_TRUE(csv.ok());
    QFile file(csv.value());
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().startsWith("run,sent · max (ops/s)\r\n500 PI/s,500\r\n"));
}

TEST(ComparisonWindow, OneRunIsNotAComparison)
{
    const StoredRun only = makeRun(QStringLiteral("this run"), 100, kStart, 10'000);
    ComparisonWindow window;
    QSignalSpy updated(&window, &ComparisonWindow::updated);
    window.setRuns({only.compared});
    ASSERT_TRUE(updated.wait(2000));
    EXPECT_TRUE(window.status().contains(QStringLiteral("Add at least two runs"))) << window.status().toStdString();
    EXPECT_FALSE(window.table().has_value());
}

TEST(PostDialog, ItListsWhatThePostWillHoldAndWritesItOffTheUiThread)
{
    const StoredRun run = makeRun(QStringLiteral("this run"), 400, kStart, 20'000);
    PostRun post;
    post.snapshot = run.compared.snapshot;
    post.store = run.store.get();
    post.annotations = run.compared.annotations;
    post.range = run.compared.range;
    post.source = QStringLiteral("test.chaoscope");
    post.scope = AnnotationScope(post.snapshot.dashboard);
    PostSettings settings;
    settings.authors = {QStringLiteral("zell")};
    settings.timeZone = QTimeZone::utc();
    QTemporaryDir dir;
    PostDialog dialog(post, run.store, settings, dir.filePath(QStringLiteral("post")));
    const QString plan = dialog.planText();
    EXPECT_TRUE(plan.contains(QStringLiteral("Phase 1: before rate 5 → 400 /s — phase-1-before-rate-400.png")))
        << plan.toStdString();
    EXPECT_TRUE(plan.contains(QStringLiteral("Phase 2: rate 5 → 400 /s — phase-2-rate-400.png"))) << plan.toStdString();

    QSignalSpy written(&dialog, &PostDialog::written);
    dialog.write();
    ASSERT_TRUE(written.wait(30000));
    EXPECT_TRUE(written.front().at(0).toBool()) << written.front().at(1).toString().toStdString();
    const QString index = written.front().at(2).toString();
    EXPECT_TRUE(index.endsWith(QStringLiteral("/post/index.md")));
    EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("post/phase-2-rate-400.png"))));
}
