// SPDX-License-Identifier: GPL-3.0-or-later
// The reference engine without HTTP: queue bound, flow control, exporter drain, worker
// changes (EngineModel, time injected), the admin input rules (EngineConfigPatch) and the
// metrics text (EngineMetricsWriter).
#include "engineconfigpatch.h"
#include "enginemetricswriter.h"
#include "enginemodel.h"

#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <cmath>
#include <gtest/gtest.h>

using Admission = EngineModel::Admission;

namespace {

EngineConfig config(int workers, double serviceTime, int queue = 1000)
{
    EngineConfig config;
    config.workers = workers;
    config.serviceTimeSeconds = serviceTime;
    config.queueCapacity = queue;
    return config;
}

} // namespace

TEST(EngineModel, FillsWorkersThenQueueThenRejectsWith503)
{
    EngineModel model(config(2, 1.0, 3));
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(model.submit(0.0).admission, Admission::Accepted) << "request " << i;
    EXPECT_EQ(model.submit(0.0).admission, Admission::QueueFull);
    EXPECT_EQ(model.submit(0.5).admission, Admission::QueueFull);

    EngineModel::Counters counters = model.counters();
    EXPECT_EQ(counters.accepted, 5u);
    EXPECT_EQ(counters.rejectedQueueFull, 2u);
    EXPECT_EQ(counters.workersBusy, 2);
    EXPECT_EQ(counters.queueLength, 3);
    EXPECT_EQ(counters.created, 2u); // only what a worker started

    // Two workers finish at t = 1 and take two from the queue: room for two more.
    EXPECT_EQ(model.submit(1.0).admission, Admission::Accepted);
    EXPECT_EQ(model.submit(1.0).admission, Admission::Accepted);
    EXPECT_EQ(model.submit(1.0).admission, Admission::QueueFull);
    EXPECT_EQ(model.takeCompleted().size(), 2u);
}

TEST(EngineModel, ZeroQueueAcceptsOnlyWhatAnIdleWorkerTakes)
{
    EngineModel model(config(1, 1.0, 0));
    EXPECT_EQ(model.submit(0.0).admission, Admission::Accepted);
    EXPECT_EQ(model.submit(0.0).admission, Admission::QueueFull);
    EXPECT_EQ(model.submit(1.0).admission, Admission::Accepted);
}

TEST(EngineModel, CompletesAfterTheServiceTimeInOrder)
{
    EngineModel model(config(2, 0.1));
    std::vector<quint64> keys;
    for (int i = 0; i < 4; ++i)
        keys.push_back(model.submit(0.0).key);
    ASSERT_TRUE(model.nextCompletionTime().has_value());
    EXPECT_DOUBLE_EQ(*model.nextCompletionTime(), 0.1);

    model.advance(0.0999);
    EXPECT_TRUE(model.takeCompleted().empty());
    model.advance(0.1);
    EXPECT_EQ(model.takeCompleted(), (std::vector<quint64>{keys[0], keys[1]}));
    EXPECT_DOUBLE_EQ(*model.nextCompletionTime(), 0.2);
    model.advance(0.25);
    EXPECT_EQ(model.takeCompleted(), (std::vector<quint64>{keys[2], keys[3]}));
    EXPECT_FALSE(model.nextCompletionTime().has_value());

    const EngineModel::Counters counters = model.counters();
    EXPECT_EQ(counters.completed, 4u);
    EXPECT_EQ(counters.created, 4u);
    EXPECT_EQ(counters.recordsAppended, 40u); // default 10 records per instance
}

TEST(EngineModel, ALateAdvanceStartsQueuedWorkAtTheRightTime)
{
    // One worker, 1 s each, three queued: done at 1, 2, 3 even when nobody looks until t = 10.
    EngineModel model(config(1, 1.0));
    for (int i = 0; i < 3; ++i)
        model.submit(0.0);
    model.advance(2.5);
    EXPECT_EQ(model.takeCompleted().size(), 2u);
    EXPECT_DOUBLE_EQ(*model.nextCompletionTime(), 3.0);
}

TEST(EngineModel, ExporterDrainsAtItsRate)
{
    EngineConfig cfg = config(1000, 0.5);
    cfg.recordsPerInstance = 10;
    cfg.exportRate = 200;
    EngineModel model(cfg);
    for (int i = 0; i < 100; ++i)
        model.submit(0.0);
    model.advance(0.5); // 100 complete: 1000 records appended at t = 0.5
    EXPECT_EQ(model.counters().recordsAppended, 1000u);
    EXPECT_EQ(model.counters().recordsExported, 0u);

    model.advance(2.5); // 2 s at 200/s
    EXPECT_NEAR(static_cast<double>(model.counters().recordsExported), 400, 1);
    EXPECT_NEAR(static_cast<double>(model.counters().backlog()), 600, 1);

    model.advance(100); // never more than was appended
    EXPECT_EQ(model.counters().recordsExported, 1000u);
    EXPECT_EQ(model.counters().backlog(), 0u);
}

TEST(EngineModel, ExporterSeesEachCompletionAtItsOwnTime)
{
    // Records appended at t = 1, 2 and 3 (100 each), exporter 100/s. Advanced in one step to
    // 3.5: it exported 100 during [1,2], 100 during [2,3] and 50 during [3,3.5]. A model that
    // appended everything at the time of the call would have exported nothing.
    EngineConfig cfg = config(1, 1.0);
    cfg.recordsPerInstance = 100;
    cfg.exportRate = 100;
    EngineModel model(cfg);
    for (int i = 0; i < 3; ++i)
        model.submit(0.0);
    model.advance(3.5);
    EXPECT_NEAR(static_cast<double>(model.counters().recordsExported), 250, 1);
}

TEST(EngineModel, FlowControlRejectsWith429WhileTheBacklogIsOverTheLimit)
{
    EngineConfig cfg = config(10, 0.01);
    cfg.recordsPerInstance = 10;
    cfg.exportRate = 100;
    cfg.acceptableBacklog = 50;
    EngineModel model(cfg);
    for (int i = 0; i < 10; ++i)
        ASSERT_EQ(model.submit(0.0).admission, Admission::Accepted);

    // t = 0.01: 100 records appended, the exporter needs 0.5 s to bring them to 50.
    EXPECT_EQ(model.submit(0.02).admission, Admission::BacklogTooLarge);
    EXPECT_EQ(model.submit(0.4).admission, Admission::BacklogTooLarge);
    EXPECT_EQ(model.submit(0.55).admission, Admission::Accepted);
    EXPECT_EQ(model.counters().rejectedBacklog, 2u);
    EXPECT_EQ(model.counters().rejectedQueueFull, 0u);

    // Flow control off: the same backlog no longer matters.
    model.setAcceptableBacklog(0, 0.6);
    for (int i = 0; i < 20; ++i)
        model.submit(0.6);
    model.advance(0.62);
    EXPECT_GT(model.counters().backlog(), 50u);
    EXPECT_EQ(model.submit(0.62).admission, Admission::Accepted);
}

TEST(EngineModel, FewerWorkersFinishWhatTheyHoldThenStop)
{
    EngineModel model(config(4, 1.0));
    for (int i = 0; i < 8; ++i)
        model.submit(0.0);
    EXPECT_EQ(model.counters().workersBusy, 4);

    model.setWorkers(1, 0.5);
    EXPECT_EQ(model.counters().workersBusy, 4) << "busy workers are not interrupted";
    EXPECT_EQ(model.counters().workers, 1);

    model.advance(1.0);
    EXPECT_EQ(model.takeCompleted().size(), 4u);
    EXPECT_EQ(model.counters().workersBusy, 1);
    EXPECT_EQ(model.counters().queueLength, 3);

    model.advance(2.0);
    EXPECT_EQ(model.takeCompleted().size(), 1u);
    EXPECT_EQ(model.counters().workersBusy, 1);

    // More workers take queued work at once.
    model.setWorkers(3, 2.5);
    EXPECT_EQ(model.counters().workersBusy, 3);
    EXPECT_EQ(model.counters().queueLength, 0);
    EXPECT_EQ(model.counters().created, 8u);
}

TEST(EngineModel, ZeroWorkersCompleteNothing)
{
    EngineModel model(config(0, 0.01));
    EXPECT_EQ(model.submit(0.0).admission, Admission::Accepted);
    model.advance(100);
    EXPECT_TRUE(model.takeCompleted().empty());
    EXPECT_FALSE(model.nextCompletionTime().has_value());
    EXPECT_EQ(model.counters().queueLength, 1);
}

TEST(EngineModel, NewServiceTimeAppliesToWorkStartedLater)
{
    EngineModel model(config(1, 1.0));
    model.submit(0.0);
    model.submit(0.0);
    model.setServiceTime(0.25, 0.5);
    EXPECT_DOUBLE_EQ(*model.nextCompletionTime(), 1.0);
    model.advance(1.0);
    EXPECT_DOUBLE_EQ(*model.nextCompletionTime(), 1.25);
}

TEST(EngineModel, ExponentialServiceTimesHaveTheConfiguredMean)
{
    EngineConfig cfg = config(1, 0.02, 20000);
    cfg.serviceDistribution = ServiceDistribution::Exponential;
    auto lastCompletion = [&cfg](quint64 seed, QSet<double> *gaps) {
        EngineModel model(cfg, seed);
        for (int i = 0; i < 10000; ++i)
            model.submit(0.0);
        double previous = 0;
        while (const std::optional<double> next = model.nextCompletionTime()) {
            if (gaps && gaps->size() < 100)
                gaps->insert(*next - previous);
            previous = *next;
            model.advance(*next);
        }
        return previous;
    };
    QSet<double> gaps;
    const double total = lastCompletion(7, &gaps);
    // 10,000 draws: the mean's standard error is 1 %; 5 % is far outside chance.
    EXPECT_NEAR(total / 10000, 0.02, 0.001);
    EXPECT_GT(gaps.size(), 90) << "service times must vary";
    EXPECT_DOUBLE_EQ(lastCompletion(7, nullptr), total) << "the same seed repeats the run";
    EXPECT_NE(lastCompletion(8, nullptr), total);
}

// --- admin input ------------------------------------------------------------------------

TEST(EngineConfigPatch, AcceptsKnownFields)
{
    const auto parsed =
        EngineConfigPatch::parse("application/json; charset=utf-8",
                                 R"({"workers": 2, "serviceTime": 0.05, "exportRate": 0, "acceptableBacklog": 1000})");
    ASSERT_TRUE(parsed.patch.has_value()) << parsed.error.toStdString();
    EXPECT_EQ(parsed.patch->workers, 2);
    EXPECT_DOUBLE_EQ(*parsed.patch->serviceTimeSeconds, 0.05);
    EXPECT_DOUBLE_EQ(*parsed.patch->exportRate, 0);
    EXPECT_EQ(parsed.patch->acceptableBacklog, 1000);

    const auto empty = EngineConfigPatch::parse("application/json", "{}");
    ASSERT_TRUE(empty.patch.has_value());
    EXPECT_FALSE(empty.patch->workers.has_value());
}

TEST(EngineConfigPatch, RefusesBadInputWithAReason)
{
    const QList<QPair<QByteArray, QString>> bad = {
        {R"({"workers": -1})", QStringLiteral("workers")},
        {R"({"workers": 1.5})", QStringLiteral("whole number")},
        {R"({"workers": "4"})", QStringLiteral("must be a number")},
        {R"({"workers": true})", QStringLiteral("must be a number")},
        {R"({"workers": null})", QStringLiteral("must be a number")},
        {R"({"serviceTime": 0})", QStringLiteral("serviceTime")},
        {R"({"serviceTime": "NaN"})", QStringLiteral("must be a number")},
        {R"({"serviceTime": NaN})", QStringLiteral("not JSON")},
        {R"({"exportRate": -5})", QStringLiteral("exportRate")},
        {R"({"exportRate": 1e300})", QStringLiteral("at most")},
        {R"({"exportRate": 1e400})", QStringLiteral("not JSON")}, // Qt refuses overflow
        {R"({"acceptableBacklog": -1})", QStringLiteral("acceptableBacklog")},
        {R"({"workers": 2, "speed": 3})", QStringLiteral("unknown field 'speed'")},
        {R"([1, 2])", QStringLiteral("object")},
        {R"(workers=2)", QStringLiteral("not JSON")},
        {"", QStringLiteral("not JSON")},
    };
    for (const auto &[body, reason] : bad) {
        const auto parsed = EngineConfigPatch::parse("application/json", body);
        EXPECT_FALSE(parsed.patch.has_value()) << body.constData();
        EXPECT_TRUE(parsed.error.contains(reason)) << body.constData() << " -> " << parsed.error.toStdString();
    }

    const auto wrongType = EngineConfigPatch::parse("text/plain", R"({"workers": 2})");
    EXPECT_FALSE(wrongType.patch.has_value());
    EXPECT_TRUE(wrongType.error.contains(QStringLiteral("Content-Type")));
    EXPECT_FALSE(EngineConfigPatch::parse("", R"({"workers": 2})").patch.has_value());

    QByteArray big = R"({"workers": 2, "pad": ")" + QByteArray(5000, 'x') + R"("})";
    const auto tooBig = EngineConfigPatch::parse("application/json", big);
    EXPECT_FALSE(tooBig.patch.has_value());
    EXPECT_TRUE(tooBig.error.contains(QStringLiteral("4096"))) << tooBig.error.toStdString();
}

TEST(EngineConfigPatch, DescribesOnlyWhatChanges)
{
    EngineConfig before;
    before.workers = 8;
    before.serviceTimeSeconds = 0.02;
    EngineConfigPatch patch;
    patch.workers = 2;
    patch.serviceTimeSeconds = 0.02;
    EXPECT_EQ(patch.describeChanges(before), QStringList{QStringLiteral("workers 8 -> 2")});
}

// --- metrics text -----------------------------------------------------------------------

TEST(EngineMetricsWriter, EveryFamilyHasHelpAndTypeAndParsableSamples)
{
    EngineModel::Counters counters;
    counters.accepted = 120;
    counters.rejectedQueueFull = 3;
    counters.rejectedBacklog = 4;
    counters.completed = 100;
    counters.recordsAppended = 1000;
    counters.recordsExported = 250;
    counters.queueLength = 7;
    counters.workers = 4;
    EngineConfig cfg;
    cfg.serviceTimeSeconds = 0.05;
    cfg.exportRate = 2500.5;
    ProcessStats process;
    process.cpuSeconds = 1.25;
    process.residentBytes = 12345678;

    const QString text = QString::fromUtf8(EngineMetricsWriter::render(counters, cfg, process));
    const QRegularExpression samplePattern(
        QStringLiteral(R"(^([a-z_]+)(\{[a-z_]+="[a-z_]+"\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$)"));
    QSet<QString> typed;
    QMap<QString, QString> samples;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1String("# HELP ")))
            continue;
        if (line.startsWith(QLatin1String("# TYPE "))) {
            typed.insert(line.section(QLatin1Char(' '), 2, 2));
            continue;
        }
        const QRegularExpressionMatch match = samplePattern.match(line);
        ASSERT_TRUE(match.hasMatch()) << line.toStdString();
        EXPECT_TRUE(typed.contains(match.captured(1))) << "no TYPE before " << line.toStdString();
        samples.insert(match.captured(1) + match.captured(2), match.captured(3));
    }
    EXPECT_EQ(samples.value(QStringLiteral(R"(engine_requests_total{outcome="accepted"})")), "120");
    EXPECT_EQ(samples.value(QStringLiteral(R"(engine_requests_total{outcome="rejected"})")), "7");
    EXPECT_EQ(samples.value(QStringLiteral("engine_exporter_backlog_records")), "750");
    EXPECT_EQ(samples.value(QStringLiteral("engine_exporter_rate_limit")), "2500.5");
    EXPECT_EQ(samples.value(QStringLiteral("engine_service_time_seconds")), "0.05");
    EXPECT_EQ(samples.value(QStringLiteral("engine_queue_length")), "7");
    EXPECT_EQ(samples.value(QStringLiteral("process_resident_memory_bytes")), "12345678");
    for (const char *name : {"engine_process_instances_created_total", "engine_process_instances_completed_total",
                             "engine_workers_busy", "engine_workers", "engine_records_appended_total",
                             "engine_records_exported_total", "process_cpu_seconds_total"}) {
        EXPECT_TRUE(samples.contains(QString::fromLatin1(name))) << name;
    }
}
