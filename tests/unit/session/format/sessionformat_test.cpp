// SPDX-License-Identifier: GPL-3.0-or-later
// The session file's framing and sample encoding: what is written reads back bit for bit,
// a damaged byte is noticed, and the encoding is as small as promised for steady series.
#include "session/format/sessionformat.h"
#include "session/format/sessionsamplecodec.h"

#include <QRandomGenerator>
#include <bit>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <vector>

using namespace SessionFormat;
using SessionSampleCodec::Decoder;
using SessionSampleCodec::Encoder;

namespace {

struct Decoded
{
    std::map<quint32, std::vector<qint64>> times;
    std::map<quint32, std::vector<double>> values;
};

bool decodeInto(Decoder &decoder, const QByteArray &chunks, qint64 base, Decoded &out)
{
    return decoder.decode(
        chunks, base, [](quint32) { return true; },
        [&out](quint32 id, std::span<const qint64> t, std::span<const double> v) {
            out.times[id].insert(out.times[id].end(), t.begin(), t.end());
            out.values[id].insert(out.values[id].end(), v.begin(), v.end());
        });
}

std::vector<quint64> bits(const std::vector<double> &values)
{
    std::vector<quint64> out;
    for (double v : values)
        out.push_back(std::bit_cast<quint64>(v));
    return out;
}

} // namespace

TEST(SessionFormat, VarintsAndZigzagRoundTripAtTheEdges)
{
    for (quint64 value : {quint64(0), quint64(1), quint64(127), quint64(128), quint64(300), quint64(1) << 35,
                          std::numeric_limits<quint64>::max()}) {
        QByteArray out;
        appendVarint(out, value);
        qsizetype pos = 0;
        EXPECT_EQ(readVarint(out, pos), value);
        EXPECT_EQ(pos, out.size());
    }
    for (qint64 value : {qint64(0), qint64(-1), qint64(1), qint64(-1000), std::numeric_limits<qint64>::min(),
                         std::numeric_limits<qint64>::max()})
        EXPECT_EQ(unzigzag(zigzag(value)), value);
    EXPECT_EQ(zigzag(0), 0u);
    EXPECT_EQ(zigzag(-1), 1u);
    qsizetype pos = 0;
    EXPECT_FALSE(readVarint(QByteArray("\x80\x80", 2), pos)) << "runs off the end";
    pos = 0;
    EXPECT_FALSE(readVarint(QByteArray(11, '\x80'), pos)) << "longer than 10 bytes";
}

TEST(SessionFormat, Crc32cMatchesTheKnownCheckValue)
{
    EXPECT_EQ(crc32c(QByteArrayView("123456789")), 0xE3069283u);
}

TEST(SessionFormat, PreambleCarriesTheVersionAndRejectsOtherFiles)
{
    EXPECT_EQ(readPreamble(preamble()), kFormatVersion);
    EXPECT_EQ(readPreamble(preamble(7)), 7u);
    EXPECT_FALSE(readPreamble(QByteArrayView("\x89PNG\r\n\x1a\n\0\0\0\0")));
    EXPECT_FALSE(readPreamble(preamble().left(8)));
}

TEST(SessionFormat, FramesAreFoundIntactTornOrDamaged)
{
    QByteArray data;
    appendFrame(data, "first");
    const qsizetype second = data.size();
    appendFrame(data, QByteArray(300, 'x')); // a two-byte length
    const qsizetype end = data.size();

    const Frame a = frameAt(data, 0);
    ASSERT_EQ(a.kind, Frame::Kind::Record);
    EXPECT_EQ(a.payload, QByteArrayView("first"));
    EXPECT_EQ(a.end, second);
    const Frame b = frameAt(data, second);
    ASSERT_EQ(b.kind, Frame::Kind::Record);
    EXPECT_EQ(b.payload.size(), 300);
    EXPECT_EQ(b.end, end);

    // Every cut inside the second record is a torn tail, never a record.
    for (qsizetype cut = second + 1; cut < end; ++cut)
        EXPECT_EQ(frameAt(data.left(cut), second).kind, Frame::Kind::Truncated) << cut;

    // A flipped bit anywhere in the first record is noticed, and the next boundary found.
    for (qsizetype i = 0; i < second; ++i) {
        QByteArray damaged = data;
        damaged[i] = char(damaged[i] ^ 0x10);
        EXPECT_NE(frameAt(damaged, 0).kind, Frame::Kind::Record) << i;
        EXPECT_EQ(findNextFrame(damaged, 1), second) << i;
    }
    EXPECT_EQ(findNextFrame(data, second + 1), -1);
}

TEST(SessionSampleCodec, SteadyLiveSeriesRoundTripsAndCostsAFewBytesPerSample)
{
    Encoder encoder;
    Decoder decoder(1'000'000);
    Decoded decoded;
    std::vector<qint64> allTimes;
    std::vector<double> allValues;
    qint64 bytes = 0;
    const qint64 start = 1'700'000'000'000;
    // One sample a second, polled every second: the way a live run sees a set-point.
    for (int i = 0; i < 600; ++i) {
        const qint64 t = start + i * 1000;
        const double v = i < 300 ? 100 : 500;
        QByteArray chunks;
        encoder.beginBatch(); // a batch a second, as the writer flushes
        encoder.encode(chunks, t, 1, std::vector<qint64>{t}, std::vector<double>{v});
        bytes += chunks.size();
        ASSERT_TRUE(decodeInto(decoder, chunks, t, decoded));
        allTimes.push_back(t);
        allValues.push_back(v);
    }
    EXPECT_EQ(decoded.times[1], allTimes);
    EXPECT_EQ(decoded.values[1], allValues);
    EXPECT_LE(double(bytes) / 600, 1.2) << "bytes per sample of a flat series polled every second";
}

TEST(SessionSampleCodec, IrregularValuesAndTimesRoundTripExactly)
{
    QRandomGenerator random(42);
    Encoder encoder(5000);
    Decoder decoder(1'000'000);
    Decoded decoded;
    std::vector<qint64> expectTimes;
    std::vector<double> expectValues;
    qint64 t = -5000; // negative times too
    const double specials[] = {0.0,
                               -0.0,
                               std::nan(""),
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::denorm_min(),
                               std::numeric_limits<double>::max(),
                               1e-300};
    for (int batch = 0; batch < 200; ++batch) {
        const int n = 1 + int(random.bounded(12));
        std::vector<qint64> times;
        std::vector<double> values;
        // Sometimes repeat the chain's last timestamp (a re-fetched provisional point).
        if (batch > 0 && random.bounded(3) == 0)
            t = expectTimes.back();
        else
            t += 1 + random.bounded(5000);
        for (int i = 0; i < n; ++i) {
            times.push_back(t);
            values.push_back(random.bounded(4) == 0 ? specials[random.bounded(8)] : random.generateDouble() * 1e6);
            t += random.bounded(2) ? 1000 : 1 + random.bounded(100'000);
        }
        t = times.back();
        QByteArray chunks;
        encoder.encode(chunks, times.front() - 17, 3, times, values);
        ASSERT_TRUE(decodeInto(decoder, chunks, times.front() - 17, decoded));
        expectTimes.insert(expectTimes.end(), times.begin(), times.end());
        expectValues.insert(expectValues.end(), values.begin(), values.end());
    }
    EXPECT_EQ(decoded.times[3], expectTimes);
    EXPECT_EQ(bits(decoded.values[3]), bits(expectValues));
}

TEST(SessionSampleCodec, ExtremeTimestampsWrapWithoutUndefinedBehaviour)
{
    Encoder encoder;
    Decoder decoder(100);
    Decoded decoded;
    const std::vector<qint64> times{std::numeric_limits<qint64>::min(), 0, std::numeric_limits<qint64>::max()};
    const std::vector<double> values{1, 2, 3};
    QByteArray chunks;
    encoder.encode(chunks, std::numeric_limits<qint64>::max(), 1, times, values);
    ASSERT_TRUE(decodeInto(decoder, chunks, std::numeric_limits<qint64>::max(), decoded));
    EXPECT_EQ(decoded.times[1], times);
}

TEST(SessionSampleCodec, AfterAGapOnlyKeyChunksDecodeAndTheRestIsCounted)
{
    Encoder encoder(10'000);
    Decoder decoder(1'000'000);
    Decoded decoded;
    std::vector<QByteArray> batches;
    for (int i = 0; i < 30; ++i) {
        QByteArray chunks;
        encoder.encode(chunks, 0, 1, std::vector<qint64>{i * 1000LL}, std::vector<double>{double(i)});
        batches.push_back(chunks);
    }
    for (int i = 0; i < 30; ++i) {
        if (i == 3) {
            decoder.resetChains(); // batch 3 was damaged and skipped
            continue;
        }
        ASSERT_TRUE(decodeInto(decoder, batches[std::size_t(i)], 0, decoded));
    }
    // Samples 0–2 decode; 4–9 depend on the lost chain; 10 starts a new key chunk.
    const std::vector<qint64> &times = decoded.times[1];
    ASSERT_FALSE(times.empty());
    EXPECT_EQ(times.front(), 0);
    EXPECT_EQ(times[3], 10'000);
    EXPECT_EQ(times.back(), 29'000);
    EXPECT_EQ(decoder.stats().lostSamples, 6);
}

TEST(SessionSampleCodec, GarbageNeverDecodesIntoAHugeAllocation)
{
    // A chunk claiming the most samples with flat times and values: refused past the limit.
    // Header: count << 6 | flags (key, regular, constant) << 1 | "the next series" (id 1).
    QByteArray chunks;
    appendVarint(chunks, (SessionSampleCodec::kMaxChunkSamples + 1) << 6 | (1 | 4 | 8) << 1 | 1);
    appendVarint(chunks, 0);
    appendVarint(chunks, 0);
    chunks.append('\0');
    Decoder decoder(1'000'000);
    Decoded decoded;
    EXPECT_FALSE(decodeInto(decoder, chunks, 0, decoded));

    // Within the limit but over the budget: counted as lost, not materialised.
    Decoder small(10);
    QByteArray ok;
    appendVarint(ok, quint64(1000) << 6 | (1 | 4 | 8) << 1 | 1);
    appendVarint(ok, 0);
    appendVarint(ok, zigzag(1000));
    ok.append('\0');
    EXPECT_TRUE(decodeInto(small, ok, 0, decoded));
    EXPECT_EQ(small.stats().samples, 0);
    EXPECT_EQ(small.stats().lostSamples, 1000);

    QRandomGenerator random(7);
    for (int round = 0; round < 2000; ++round) {
        QByteArray noise(int(random.bounded(64)), Qt::Uninitialized);
        for (char &c : noise)
            c = char(random.bounded(256));
        Decoder any(100'000);
        Decoded out;
        decodeInto(any, noise, qint64(random.generate64()), out); // must simply return
    }
}

TEST(SessionSampleCodec, DecimalValuesAreSmallAndComeBackBitForBit)
{
    Encoder encoder;
    Decoder decoder(1'000'000);
    Decoded decoded;
    // Tenths of a rate, integers, cents, and values that only look decimal.
    std::vector<double> values;
    for (int i = 0; i < 300; ++i)
        values.push_back((800 + (i * 37) % 41 - 20) / 10.0);
    for (double v : {0.1 + 0.2, 1e-9, -0.0, 0.0, 123456789.123, -42.0, 1e15, 9007199254740993.0, 0.000123456789,
                     std::nextafter(81.3, 100.0), 1.0 / 3.0, -1e-300})
        values.push_back(v);
    std::vector<qint64> times;
    for (std::size_t i = 0; i < values.size(); ++i)
        times.push_back(qint64(i) * 1000);
    qint64 bytes = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        QByteArray chunks;
        encoder.beginBatch();
        encoder.encode(chunks, 0, 1, std::span(times).subspan(i, 1), std::span(values).subspan(i, 1));
        bytes += i < 300 ? chunks.size() : 0;
        ASSERT_TRUE(decodeInto(decoder, chunks, 0, decoded));
    }
    EXPECT_EQ(bits(decoded.values[1]), bits(values));
    EXPECT_LE(double(bytes) / 300, 3.2) << "a tenths series polled every second";
}

TEST(SessionSampleCodec, ManySeriesInOneBatchNameEachOtherInABit)
{
    Encoder encoder;
    Decoder decoder(1'000'000);
    Decoded decoded;
    for (int second = 0; second < 3; ++second) {
        QByteArray chunks;
        encoder.beginBatch();
        // Series 1…40 in order, then one out of order (named explicitly).
        for (quint32 id : {1u, 2u, 3u, 40u, 41u, 7u}) {
            const qint64 t = second * 1000;
            encoder.encode(chunks, 0, id, std::vector<qint64>{t}, std::vector<double>{double(id)});
        }
        ASSERT_TRUE(decodeInto(decoder, chunks, 0, decoded));
    }
    for (quint32 id : {1u, 2u, 3u, 40u, 41u, 7u}) {
        EXPECT_EQ(decoded.times[id], (std::vector<qint64>{0, 1000, 2000})) << id;
        EXPECT_EQ(decoded.values[id], (std::vector<double>(3, double(id)))) << id;
    }
}
