// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/sessionsamplecodec.h"

#include "session/format/sessionformat.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace SessionSampleCodec {
namespace {

using SessionFormat::appendVarint;
using SessionFormat::readVarint;
using SessionFormat::unzigzag;
using SessionFormat::zigzag;

quint64 bitsOf(double value)
{
    return std::bit_cast<quint64>(value);
}

// Differences are taken in unsigned arithmetic: timestamps from a file may be anything, and
// a wrapped difference still round-trips exactly.
qint64 minus(qint64 a, qint64 b)
{
    return qint64(quint64(a) - quint64(b));
}
qint64 plus(qint64 a, qint64 b)
{
    return qint64(quint64(a) + quint64(b));
}

// Decimal values (81.3, 0.25, 1200) are written as a small integer step instead: the value
// times 10^k, as a difference from the previous value times 10^k.
constexpr int kMaxDecimals = 9;
constexpr double kPow10[kMaxDecimals + 1] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
constexpr double kExactInteger = 9007199254740992.0; // 2^53: every integer below is a double
constexpr unsigned char kDecimalHeader = 0x80;

// The previous value on the decimal scale k; the same on both sides, whatever it was.
qint64 scaledPrevious(quint64 previousBits, int k)
{
    const double scaled = std::bit_cast<double>(previousBits) * kPow10[k];
    return std::abs(scaled) < 4.0e18 ? std::llround(scaled) : 0; // NaN and infinities fail the test
}

int varintLength(quint64 value)
{
    return value < 0x80 ? 1 : 1 + varintLength(value >> 7);
}

void appendValue(QByteArray &out, quint64 bits, quint64 previous)
{
    const quint64 x = bits ^ previous;
    if (x == 0) {
        out.append('\0');
        return;
    }
    const int trailing = std::countr_zero(x) / 8;
    const int leading = std::countl_zero(x) / 8;
    const int length = 8 - trailing - leading;
    // The fewest decimals that give the value back bit for bit, if that is shorter.
    const double value = std::bit_cast<double>(bits);
    for (int k = 0; k <= kMaxDecimals; ++k) {
        const double scaled = value * kPow10[k];
        if (!(std::abs(scaled) < kExactInteger))
            break;
        const qint64 m = std::llround(scaled);
        if (std::bit_cast<quint64>(double(m) / kPow10[k]) != bits)
            continue;
        const quint64 step = zigzag(minus(m, scaledPrevious(previous, k)));
        if (varintLength(step) < length) {
            out.append(char(kDecimalHeader | k));
            appendVarint(out, step);
            return;
        }
        break;
    }
    out.append(char(trailing << 4 | length));
    const quint64 shifted = x >> (8 * trailing);
    for (int i = 0; i < length; ++i)
        out.append(char((shifted >> (8 * i)) & 0xFF));
}

std::optional<quint64> readValue(QByteArrayView data, qsizetype &pos, quint64 previous)
{
    if (pos >= data.size())
        return std::nullopt;
    const auto header = static_cast<unsigned char>(data[pos++]);
    if (header == 0)
        return previous;
    if (header & kDecimalHeader) {
        const int k = header & ~kDecimalHeader;
        const auto step = readVarint(data, pos);
        if (k > kMaxDecimals || !step)
            return std::nullopt;
        const qint64 m = plus(scaledPrevious(previous, k), unzigzag(*step));
        return std::bit_cast<quint64>(double(m) / kPow10[k]);
    }
    const int trailing = header >> 4;
    const int length = header & 0x0F;
    if (length == 0 || trailing + length > 8 || data.size() - pos < length)
        return std::nullopt;
    quint64 shifted = 0;
    for (int i = 0; i < length; ++i)
        shifted |= quint64(static_cast<unsigned char>(data[pos++])) << (8 * i);
    return previous ^ (shifted << (8 * trailing));
}

} // namespace

bool Encoder::encode(QByteArray &out, qint64 baseMs, quint32 seriesId, std::span<const qint64> timestampsMs,
                     std::span<const double> values, bool forceKey)
{
    const std::size_t count = std::min(timestampsMs.size(), values.size());
    bool key = false;
    for (std::size_t from = 0; from < count; from += kMaxChunkSamples) {
        const std::size_t n = std::min<std::size_t>(kMaxChunkSamples, count - from);
        key |= encodeChunk(out, baseMs, seriesId, timestampsMs.subspan(from, n), values.subspan(from, n),
                           forceKey && from == 0);
    }
    return key;
}

bool Encoder::encodeChunk(QByteArray &out, qint64 baseMs, quint32 seriesId, std::span<const qint64> timestampsMs,
                          std::span<const double> values, bool forceKey)
{
    const std::size_t count = timestampsMs.size();
    const qint64 first = timestampsMs[0];
    const qint64 last = timestampsMs[count - 1];
    auto it = m_chains.find(seriesId);
    const bool key = forceKey || it == m_chains.end() || first < it->keyMs || minus(last, it->keyMs) >= m_keyIntervalMs;
    if (key)
        it = m_chains.insert(seriesId, Chain{first, 0, 0, first});
    Chain &chain = *it;

    quint32 flags = TimeDelta;
    if (key)
        flags = TimeKey;
    else if (first == chain.lastMs)
        flags = TimeAtLast;
    else if (minus(first, chain.lastMs) == chain.stepMs)
        flags = TimeOnStep;
    bool regular = count >= 2;
    for (std::size_t i = 2; regular && i < count; ++i)
        regular = minus(timestampsMs[i], timestampsMs[i - 1]) == minus(timestampsMs[1], timestampsMs[0]);
    if (regular)
        flags |= Regular;
    bool constant = true;
    for (std::size_t i = 1; constant && i < count; ++i)
        constant = bitsOf(values[i]) == bitsOf(values[0]);
    if (constant)
        flags |= Constant;
    const bool repeat = bitsOf(values[0]) == chain.lastBits;
    if (repeat)
        flags |= Repeat;

    // Chunks of a batch come in series order, so the id is usually "the next one": one bit.
    const bool next = seriesId == m_previousId + 1;
    appendVarint(out, quint64(count) << (kFlagBits + 1) | quint64(flags) << 1 | (next ? 1 : 0));
    if (!next)
        appendVarint(out, seriesId);
    m_previousId = seriesId;
    switch (flags & TimeMask) {
    case TimeKey:
        appendVarint(out, zigzag(minus(first, baseMs)));
        break;
    case TimeDelta: {
        const qint64 delta = minus(first, chain.lastMs);
        appendVarint(out, zigzag(minus(delta, chain.stepMs)));
        chain.stepMs = delta;
        break;
    }
    default:
        break; // at-last and on-step leave the step as it is
    }
    for (std::size_t i = 1; i < count; ++i) {
        const qint64 delta = minus(timestampsMs[i], timestampsMs[i - 1]);
        if (!regular || i == 1)
            appendVarint(out, zigzag(minus(delta, chain.stepMs)));
        chain.stepMs = delta;
    }
    chain.lastMs = last;

    if (!repeat)
        appendValue(out, bitsOf(values[0]), chain.lastBits);
    if (!constant) {
        for (std::size_t i = 1; i < count; ++i)
            appendValue(out, bitsOf(values[i]), bitsOf(values[i - 1]));
    }
    chain.lastBits = bitsOf(values[count - 1]);
    return key;
}

bool Decoder::decode(QByteArrayView data, qint64 baseMs, const Known &known, const Sink &sink)
{
    qsizetype pos = 0;
    quint32 previousId = 0;
    while (pos < data.size()) {
        const auto header = readVarint(data, pos);
        if (!header)
            return false;
        const quint64 count = *header >> (kFlagBits + 1);
        const quint32 flags = quint32((*header >> 1) & ((1u << kFlagBits) - 1));
        const quint32 timeMode = flags & TimeMask;
        if (count == 0 || count > kMaxChunkSamples)
            return false;
        std::optional<quint64> id = quint64(previousId) + 1;
        if (!(*header & 1))
            id = readVarint(data, pos);
        if (!id || *id > 0xFFFFFFFFu)
            return false;
        const auto seriesId = quint32(*id);
        previousId = seriesId;

        // Decodable: the series is declared and its chain is intact (or starts here).
        auto it = m_chains.find(seriesId);
        const bool decodable = known(seriesId) && (timeMode == TimeKey || it != m_chains.end());
        // Materialise only what fits the budget; otherwise parse to skip the chunk.
        const bool keep = decodable && count <= quint64(std::max<qint64>(0, m_budget - m_stats.samples));
        Chain chain = timeMode == TimeKey || it == m_chains.end() ? Chain{} : *it;

        qint64 t = 0;
        switch (timeMode) {
        case TimeKey: {
            const auto offset = readVarint(data, pos);
            if (!offset)
                return false;
            t = plus(baseMs, unzigzag(*offset));
            chain = Chain{t, 0, 0, t};
            break;
        }
        case TimeAtLast:
            t = chain.lastMs;
            break;
        case TimeOnStep:
            t = plus(chain.lastMs, chain.stepMs);
            break;
        default: {
            const auto dod = readVarint(data, pos);
            if (!dod)
                return false;
            const qint64 delta = plus(chain.stepMs, unzigzag(*dod));
            t = plus(chain.lastMs, delta);
            chain.stepMs = delta;
            break;
        }
        }
        if (keep) {
            m_times.clear();
            m_values.clear();
            m_times.reserve(count);
            m_values.reserve(count);
            m_times.push_back(t);
        }
        if (count >= 2) {
            if (flags & Regular) {
                const auto dod = readVarint(data, pos);
                if (!dod)
                    return false;
                chain.stepMs = plus(chain.stepMs, unzigzag(*dod));
                if (keep) {
                    for (quint64 i = 1; i < count; ++i) {
                        t = plus(t, chain.stepMs);
                        m_times.push_back(t);
                    }
                } else {
                    t = plus(t, qint64(quint64(chain.stepMs) * (count - 1)));
                }
            } else {
                // Each delta takes at least a byte, so this loop ends with the data.
                for (quint64 i = 1; i < count; ++i) {
                    const auto dod = readVarint(data, pos);
                    if (!dod)
                        return false;
                    chain.stepMs = plus(chain.stepMs, unzigzag(*dod));
                    t = plus(t, chain.stepMs);
                    if (keep)
                        m_times.push_back(t);
                }
            }
        }
        chain.lastMs = t;

        quint64 bits = chain.lastBits;
        if (!(flags & Repeat)) {
            const auto first = readValue(data, pos, bits);
            if (!first)
                return false;
            bits = *first;
        }
        if (keep)
            m_values.push_back(std::bit_cast<double>(bits));
        if (flags & Constant) {
            if (keep)
                m_values.resize(count, std::bit_cast<double>(bits));
        } else {
            for (quint64 i = 1; i < count; ++i) {
                const auto next = readValue(data, pos, bits);
                if (!next)
                    return false;
                bits = *next;
                if (keep)
                    m_values.push_back(std::bit_cast<double>(bits));
            }
        }
        chain.lastBits = bits;

        if (decodable)
            m_chains.insert(seriesId, chain);
        if (keep) {
            m_stats.samples += qint64(count);
            sink(seriesId, m_times, m_values);
        } else {
            ++m_stats.lostChunks;
            m_stats.lostSamples += qint64(count);
        }
    }
    return true;
}

} // namespace SessionSampleCodec
