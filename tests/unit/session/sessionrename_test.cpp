// SPDX-License-Identifier: GPL-3.0-or-later
// A panel moved (or removed) mid-run renames its series in the store; the recording says so,
// and read back, each series holds all its samples under the key it had last, as if it had
// always been there: a swap reads as a swap, and nothing recorded is lost.
#include "annotations/annotationmodel.h"
#include "dashboard/loader/dashboardloader.h"
#include "session/format/sessionreader.h"
#include "session/sessionrecorder.h"
#include "store/samplestore.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

const SessionSeries *seriesOf(const SessionContents &contents, const QString &key)
{
    for (const SessionSeries &series : contents.series) {
        if (series.key == key)
            return &series;
    }
    return nullptr;
}

} // namespace

TEST(SessionRename, ASwapOfTwoPanelsIsReadBackWithEachSeriesWholeUnderItsNewKey)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("moved.chaoscope"));
    SampleStore store;
    AnnotationModel annotations;
    {
        SessionRecorder recorder(&store, &annotations);
        ASSERT_FALSE(recorder.start(path, {QStringLiteral("testbed"), QUrl(QStringLiteral("http://prom:9090/"))},
                                    DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard, 300'000));
        const QString a = QStringLiteral("p0/q0/{}");
        const QString b = QStringLiteral("p1/q0/{}");
        const QString removed = QStringLiteral("p2/q0/{}");
        for (int s = 0; s < 10; ++s) {
            const qint64 t = kStart + s * 1000;
            store.merge(a, {}, std::vector<qint64>{t}, std::vector<double>{1});
            store.merge(b, {}, std::vector<qint64>{t}, std::vector<double>{2});
            store.merge(removed, {}, std::vector<qint64>{t}, std::vector<double>{3});
        }
        recorder.flush();
        store.rename({{QStringLiteral("p0/q0/"), QStringLiteral("p1/q0/")},
                      {QStringLiteral("p1/q0/"), QStringLiteral("p0/q0/")},
                      {QStringLiteral("p2/q0/"), QStringLiteral("parked/1/p2/q0/")}});
        for (int s = 10; s < 20; ++s) {
            const qint64 t = kStart + s * 1000;
            store.merge(b, {}, std::vector<qint64>{t}, std::vector<double>{1}); // panel 0's query, now panel 1
            store.merge(a, {}, std::vector<qint64>{t}, std::vector<double>{2});
        }
        recorder.stop();
    }
    const Result<SessionContents> read = SessionReader::readFile(path);
    ASSERT_TRUE(read.ok()) << read.error().message.toStdString();
    const SessionSeries *first = seriesOf(read.value(), QStringLiteral("p0/q0/{}"));
    const SessionSeries *second = seriesOf(read.value(), QStringLiteral("p1/q0/{}"));
    const SessionSeries *parked = seriesOf(read.value(), QStringLiteral("parked/1/p2/q0/{}"));
    ASSERT_TRUE(first && second && parked);
    EXPECT_EQ(first->timestampsMs.size(), 20u) << "the series that was panel 1's, with what it had before the move";
    EXPECT_EQ(second->timestampsMs.size(), 20u);
    for (double v : first->values)
        EXPECT_EQ(v, 2);
    for (double v : second->values)
        EXPECT_EQ(v, 1);
    EXPECT_EQ(parked->timestampsMs.size(), 10u) << "a removed panel's samples are kept";
    EXPECT_FALSE(seriesOf(read.value(), QStringLiteral("p2/q0/{}")));
}
