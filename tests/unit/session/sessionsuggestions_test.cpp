// SPDX-License-Identifier: GPL-3.0-or-later
// A recording keeps what the detectors suggested and what became of it: a suggestion still
// undecided reads back as a suggestion, an accepted one as an ordinary annotation, a
// dismissed one not at all; and the dashboard's detectors are part of the stored dashboard.
#include "annotations/annotationmodel.h"
#include "dashboard/loader/dashboardloader.h"
#include "session/format/sessionreader.h"
#include "session/sessionrecorder.h"
#include "store/samplestore.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

Annotation suggestion(qint64 timeMs, const QString &text)
{
    Annotation a;
    a.timeMs = timeMs;
    a.text = text;
    a.tags = {QStringLiteral("throughput-drop")};
    a.source = Annotation::Source::Detector;
    a.suggested = true;
    return a;
}

} // namespace

TEST(SessionSuggestions, TheStateOfEachSuggestionIsRecorded)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.chaoscope"));
    const DashboardDefinition dashboard = DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard;
    ASSERT_FALSE(dashboard.detectors.empty());
    SampleStore store;
    AnnotationModel annotations;
    {
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(path, {QStringLiteral("testbed"), QUrl(QStringLiteral("http://prom:9090/"))},
                                    dashboard, 300'000));
        const std::vector<qint64> t{kStart, kStart + 1000};
        const std::vector<double> v{1, 2};
        store.merge(QStringLiteral("p0/q0/{}"), {}, t, v);
        const quint64 undecided = annotations.add(suggestion(kStart + 10'000, QStringLiteral("accepted/s fell 35 %")));
        const quint64 accepted = annotations.add(suggestion(kStart + 20'000, QStringLiteral("accepted/s fell 40 %")));
        const quint64 dismissed = annotations.add(suggestion(kStart + 30'000, QStringLiteral("accepted/s fell 45 %")));
        Annotation a = *annotations.find(accepted);
        a.suggested = false;
        annotations.update(a);
        annotations.remove(dismissed);
        EXPECT_TRUE(annotations.find(undecided));
        recorder.stop();
    }

    const Result<SessionContents> read = SessionReader::readFile(path);
    ASSERT_TRUE(read) << read.error().message.toStdString();
    const std::vector<Annotation> &back = read->annotations;
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].text, QStringLiteral("accepted/s fell 35 %"));
    EXPECT_TRUE(back[0].suggested);
    EXPECT_EQ(back[0].source, Annotation::Source::Detector);
    EXPECT_EQ(back[1].text, QStringLiteral("accepted/s fell 40 %"));
    EXPECT_FALSE(back[1].suggested);

    const DashboardLoader::LoadResult stored = DashboardLoader::fromJson(read->dashboardJson.toUtf8());
    EXPECT_TRUE(stored.issues.isEmpty()) << stored.issues.value(0).toString().toStdString();
    EXPECT_EQ(stored.dashboard.detectors.size(), dashboard.detectors.size());
}
