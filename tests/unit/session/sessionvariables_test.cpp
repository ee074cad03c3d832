// SPDX-License-Identifier: GPL-3.0-or-later
// A variable changed during a recorded run: the file says which value was chosen when, keeps
// the series of every value, and reopens on the value last chosen, showing its series.
#include "annotations/annotationmodel.h"
#include "dashboard/loader/dashboardloader.h"
#include "session/format/sessionreader.h"
#include "session/sessionrecorder.h"
#include "session/sessionreplay.h"
#include "store/samplestore.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

DashboardDefinition dashboardWithNamespace()
{
    const auto loaded = DashboardLoader::fromJson(R"json({
        "variables": {
          "job": "starter",
          "namespace": { "labelValues": { "label": "namespace" }, "default": "blue" }
        },
        "panels": [{"title": "sent", "series": [{"query": "sum(rate(sent_total{namespace=\"$namespace\", job=\"$job\"}[1m]))"},
                                                {"query": "up{job=\"$job\"}"}]}]
    })json");
    EXPECT_TRUE(loaded.issues.isEmpty());
    return loaded.dashboard;
}

void mergeSeconds(SampleStore &store, const QString &key, double value)
{
    std::vector<qint64> times;
    std::vector<double> values;
    for (int s = 0; s < 30; ++s) {
        times.push_back(kStart + s * 1000);
        values.push_back(value);
    }
    store.merge(key, {}, times, values);
}

const SessionSeries *seriesOf(const SessionContents &contents, const QString &key)
{
    for (const SessionSeries &series : contents.series) {
        if (series.key == key)
            return &series;
    }
    return nullptr;
}

} // namespace

TEST(SessionVariables, AReopenedRecordingShowsTheValueLastChosenAndKeepsEveryValuesSeries)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.chaoscope"));
    const QString blue = QStringLiteral("p0/q0/$namespace=blue/{}");
    const QString green = QStringLiteral("p0/q0/$namespace=green/{}");
    const QString up = QStringLiteral("p0/q1/{}");
    {
        SampleStore store;
        AnnotationModel annotations;
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(path, {}, dashboardWithNamespace(), 60'000));
        mergeSeconds(store, blue, 1);
        mergeSeconds(store, up, 1);
        // Chosen in the toolbar: the poller drops blue's series from the store, fetches green's
        // over the same window.
        recorder.recordVariable(QStringLiteral("namespace"), QStringLiteral("green"));
        store.remove(blue);
        mergeSeconds(store, green, 2);
        recorder.stop();
    }

    const Result<SessionContents> read = SessionReader::readFile(path);
    ASSERT_TRUE(read) << read.error().message.toStdString();
    EXPECT_EQ(read->variableChanges.value(QStringLiteral("namespace")), QStringLiteral("green"));
    // Nothing recorded is lost: both values' series are in the file, each with its samples.
    ASSERT_NE(seriesOf(read.value(), blue), nullptr);
    ASSERT_NE(seriesOf(read.value(), green), nullptr);
    EXPECT_EQ(seriesOf(read.value(), blue)->values.front(), 1);
    EXPECT_EQ(seriesOf(read.value(), green)->values.front(), 2);

    SampleStore store;
    AnnotationModel annotations;
    const SessionReplay::Loaded replay = SessionReplay::load(read.value(), &store, &annotations);
    const auto &variables = replay.dashboard.variableDefinitions;
    ASSERT_EQ(variables.size(), 2u);
    EXPECT_EQ(variables[1].name, QStringLiteral("namespace"));
    EXPECT_EQ(variables[1].value, QStringLiteral("green"));
    EXPECT_EQ(variables[0].value, QStringLiteral("starter"));
    // The panels show the value last chosen, as the run did when it ended.
    EXPECT_TRUE(store.contains(green));
    EXPECT_FALSE(store.contains(blue));
    EXPECT_TRUE(store.contains(up)) << "a query without a choosable variable is untouched";
}

TEST(SessionVariables, ALaterDashboardRecordCarriesTheValueItself)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.chaoscope"));
    {
        SampleStore store;
        AnnotationModel annotations;
        SessionRecorder recorder(&store, &annotations);
        DashboardDefinition dashboard = dashboardWithNamespace();
        ASSERT_FALSE(recorder.start(path, {}, dashboard, 60'000));
        recorder.recordVariable(QStringLiteral("namespace"), QStringLiteral("green"));
        // The window changed later: the dashboard is written again, with the value as its default.
        dashboard.variableDefinitions[1].value = QStringLiteral("green");
        recorder.recordDashboard(dashboard, 120'000);
        recorder.stop();
    }
    const Result<SessionContents> read = SessionReader::readFile(path);
    ASSERT_TRUE(read);
    SampleStore store;
    AnnotationModel annotations;
    const SessionReplay::Loaded replay = SessionReplay::load(read.value(), &store, &annotations);
    EXPECT_TRUE(replay.issues.isEmpty()) << replay.issues.value(0).toString().toStdString();
    ASSERT_EQ(replay.dashboard.variableDefinitions.size(), 2u);
    EXPECT_EQ(replay.dashboard.variableDefinitions[1].value, QStringLiteral("green"));
}

// A value with a '/' in it: keys recorded before values were escaped spell it as it is, and
// "$namespace=a/" is the start of "$namespace=a/b/…". Each key is taken for its own value.
TEST(SessionVariables, AValueWithASlashIsNotTakenForItsBeginningInOldOrNewKeys)
{
    SessionContents contents;
    contents.dashboardJson = QString::fromUtf8(R"json({
        "variables": { "namespace": { "labelValues": { "label": "namespace" }, "default": "a" } },
        "panels": [{"title": "sent", "series": [{"query": "sum(rate(sent_total{namespace=\"$namespace\"}[1m]))"}]}]
    })json");
    contents.variableChanges.insert(QStringLiteral("namespace"), QStringLiteral("a/b"));
    const QString oldSlash = QStringLiteral("p0/q0/$namespace=a/b/{}"); // recorded before escaping
    const QString newSlash = QStringLiteral("p0/q0/$namespace=a\\/b/{}");
    const QString plain = QStringLiteral("p0/q0/$namespace=a/{}");
    for (const QString &key : {oldSlash, newSlash, plain})
        contents.series.push_back(SessionSeries{key, {}, {kStart}, {1}});

    SampleStore store;
    AnnotationModel annotations;
    const SessionReplay::Loaded replay = SessionReplay::load(contents, &store, &annotations);
    EXPECT_TRUE(replay.issues.isEmpty()) << replay.issues.value(0).toString().toStdString();
    EXPECT_TRUE(store.contains(oldSlash)) << "an old recording still opens on its value";
    EXPECT_TRUE(store.contains(newSlash));
    EXPECT_FALSE(store.contains(plain)) << "the series of $namespace=a";

    contents.variableChanges.insert(QStringLiteral("namespace"), QStringLiteral("a"));
    SampleStore other;
    SessionReplay::load(contents, &other, &annotations);
    EXPECT_TRUE(other.contains(plain));
    EXPECT_FALSE(other.contains(oldSlash)) << "the old startsWith took it for $namespace=a";
    EXPECT_FALSE(other.contains(newSlash));
}
