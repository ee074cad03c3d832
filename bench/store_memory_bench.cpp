// SPDX-License-Identifier: GPL-3.0-or-later
// What the samples themselves cost: the day (40 series, 8 h at 1 s) merged into a
// SampleStore the way the poller loads it (a coarse pass at 1 min, then chunks of 11,000
// raw samples, newest first), RSS before and after, per sample. The app's figure
// (bench/run_bench.py: the app with the day minus the app empty) adds what is drawn and
// what the allocator keeps; this one is the store alone. Prints one JSON object.
#include "benchdata.h"
#include "store/samplestore.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <fstream>

namespace {

qint64 rssBytes()
{
    std::ifstream statm("/proc/self/statm");
    qint64 pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * 4096;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const auto &day = BenchData::day(); // generated before the first measurement
    SampleStore store;
    const qint64 before = rssBytes();
    for (int s = 0; s < BenchData::kSeries; ++s) {
        const auto &series = day[std::size_t(s)];
        const QString key = BenchData::keyOf(s);
        std::vector<qint64> t;
        std::vector<double> v;
        for (std::size_t i = 0; i < series.values.size(); i += 60) {
            t.push_back(series.timestampsMs[i]);
            v.push_back(series.values[i]);
        }
        store.merge(key, {}, t, v);
        for (std::size_t end = series.values.size(); end > 0;) {
            const std::size_t begin = end > 11'000 ? end - 11'000 : 0;
            store.merge(key, {}, std::span<const qint64>(series.timestampsMs).subspan(begin, end - begin),
                        std::span<const double>(series.values).subspan(begin, end - begin));
            end = begin;
        }
    }
    const qint64 after = rssBytes();
    const double samples = double(store.sampleCount());
    const QJsonObject result{{QStringLiteral("samples"), samples},
                             {QStringLiteral("rss_delta_bytes"), double(after - before)},
                             {QStringLiteral("bytes_per_sample"), double(after - before) / samples},
                             {QStringLiteral("reserved_bytes_per_sample"), double(store.bytesReserved()) / samples}};
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
    return 0;
}
