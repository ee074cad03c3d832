// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QtGlobal>
#include <functional>
#include <span>

// The compact encoding of samples inside a SampleBatch record (docs/sessions.md, "Sample
// chunks"). A chunk holds samples of one series, in time order:
//
//   varint  (count << 6) | (flags << 1) | next
//           next: the series id is the previous chunk's in this batch + 1 (the first chunk's
//           "previous" is 0); otherwise the id follows as a varint
//           flags & 3: how t0 is given   0 delta, 1 key, 2 at-last, 3 on-step
//           flags & 4: regular   (all later deltas equal the first)
//           flags & 8: constant  (all later values equal the first)
//           flags & 16: repeat   (the first value equals the chain's last value)
//   timestamps
//     key:      zigzag(t0 - batch base)   (starts a new chain: step 0, previous value 0)
//     at-last:  nothing, t0 is the chain's last timestamp (a re-fetched, changed sample)
//     on-step:  nothing, t0 is the chain's last timestamp plus its step
//     delta:    zigzag((t0 - last) - step), and step becomes t0 - last
//     then for the deltas d = t[i] - t[i-1], i >= 1:
//     regular:  zigzag(d1 - step) once, every delta equals d1
//     else:     zigzag(d - step) each, step becoming d
//   values, each relative to the previous one (the chain's, 0 after a key), whichever is
//   shorter:
//     XOR:     a byte (trailingZeroBytes << 4 | length), then `length` bytes of the XOR of the
//              bits shifted right by its trailing zero bytes; the byte 0x00 alone: same value
//     decimal: a byte 0x80 | k, then zigzag(m - p) where m = value * 10^k exactly (k <= 9, the
//              fewest decimals that give the value back bit for bit) and p = llround(previous
//              * 10^k) (0 when out of range)
//   The first value is left out when repeat is set, the others when constant is set.
//
// So the next second of a flat series costs a byte, of an integer gauge or a value with a
// decimal or two about 3, and a flat set-point line a few bytes per chunk whatever its length. A chunk depends on the
// chain of its series back to the previous key chunk; the encoder starts a key chunk every keyIntervalMs of sample
// time, so a damaged record costs at most that much of each series.
namespace SessionSampleCodec {

enum Flag : quint32
{
    TimeDelta = 0,
    TimeKey = 1,
    TimeAtLast = 2,
    TimeOnStep = 3,
    TimeMask = 3,
    Regular = 4,
    Constant = 8,
    Repeat = 16,
};
constexpr int kFlagBits = 5;
// A chunk holds at most this many samples (the encoder splits longer runs), so that a reader
// never allocates more than this for a few bytes of input.
constexpr quint64 kMaxChunkSamples = 1u << 16;

// Where a series' chain stands after its last chunk.
struct Chain
{
    qint64 lastMs = 0;
    qint64 stepMs = 0;
    quint64 lastBits = 0;
    qint64 keyMs = 0; // first timestamp of the chain's key chunk
};

class Encoder
{
public:
    explicit Encoder(qint64 keyIntervalMs = 60'000) : m_keyIntervalMs(keyIntervalMs) {}

    // Appends chunks (timestamps ascending, same length as values) to `out`: one, unless
    // there are more than kMaxChunkSamples samples. True when a key chunk was written (only
    // then does the batch need its base time).
    // `baseMs` is the batch's base time. A key chunk when forced, when the series has no
    // chain yet, or when its key is older than the key interval or newer than the samples.
    bool encode(QByteArray &out, qint64 baseMs, quint32 seriesId, std::span<const qint64> timestampsMs,
                std::span<const double> values, bool forceKey = false);
    // A new SampleBatch: series ids are counted from 0 again.
    void beginBatch() { m_previousId = 0; }
    // After a gap in the file (a write error, a new file): every series starts a new chain.
    void resetChains() { m_chains.clear(); }

private:
    bool encodeChunk(QByteArray &out, qint64 baseMs, quint32 seriesId, std::span<const qint64> timestampsMs,
                     std::span<const double> values, bool forceKey);

    qint64 m_keyIntervalMs;
    QHash<quint32, Chain> m_chains;
    quint32 m_previousId = 0;
};

// Decodes the chunks of one SampleBatch. Chains live across batches; a reader that skipped
// damaged bytes calls resetChains(), after which a series' chunks are undecodable until its
// next key chunk. Never trusts the input: every length is checked, arithmetic wraps.
class Decoder
{
public:
    struct Stats
    {
        qint64 samples = 0;     // decoded and handed out
        qint64 lostSamples = 0; // in chunks whose chain was broken, or of unknown series
        qint64 lostChunks = 0;
    };
    // Called per decoded chunk: series id, timestamps, values (same length).
    using Sink = std::function<void(quint32, std::span<const qint64>, std::span<const double>)>;
    // Whether a series id has been declared (chunks of others are counted lost).
    using Known = std::function<bool(quint32)>;

    // At most this many samples in total (a defence against a few bytes claiming billions of
    // flat samples); further chunks are counted lost.
    explicit Decoder(qint64 sampleBudget) : m_budget(sampleBudget) {}

    // False when the bytes do not parse as chunks (the rest of the batch is dropped).
    bool decode(QByteArrayView chunks, qint64 baseMs, const Known &known, const Sink &sink);
    void resetChains() { m_chains.clear(); }
    const Stats &stats() const { return m_stats; }

private:
    QHash<quint32, Chain> m_chains;
    qint64 m_budget;
    Stats m_stats;
    std::vector<qint64> m_times;
    std::vector<double> m_values;
};

} // namespace SessionSampleCodec
