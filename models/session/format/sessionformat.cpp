// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/sessionformat.h"

#include <array>
#include <cstring>

namespace SessionFormat {
namespace {

// Table for the reflected Castagnoli polynomial, built once at compile time.
constexpr std::array<quint32, 256> makeCrcTable()
{
    std::array<quint32, 256> table{};
    for (quint32 i = 0; i < 256; ++i) {
        quint32 crc = i;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        table[i] = crc;
    }
    return table;
}
constexpr std::array<quint32, 256> kCrcTable = makeCrcTable();

quint32 readLe32(const char *p)
{
    const auto *u = reinterpret_cast<const unsigned char *>(p);
    return quint32(u[0]) | quint32(u[1]) << 8 | quint32(u[2]) << 16 | quint32(u[3]) << 24;
}

void appendLe32(QByteArray &out, quint32 value)
{
    for (int i = 0; i < 4; ++i)
        out.append(char((value >> (8 * i)) & 0xFF));
}

} // namespace

QByteArray preamble(quint32 formatVersion)
{
    QByteArray out(kMagic, sizeof kMagic);
    appendLe32(out, formatVersion);
    return out;
}

std::optional<quint32> readPreamble(QByteArrayView bytes)
{
    if (bytes.size() < kPreambleBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return std::nullopt;
    return readLe32(bytes.data() + sizeof kMagic);
}

quint32 crc32c(QByteArrayView bytes, quint32 crc)
{
    crc = ~crc;
    for (const char c : bytes)
        crc = kCrcTable[(crc ^ static_cast<unsigned char>(c)) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

void appendFrame(QByteArray &out, QByteArrayView payload)
{
    out.append(char(kMarker0));
    out.append(char(kMarker1));
    const qsizetype lengthAt = out.size();
    appendVarint(out, quint64(payload.size()));
    const QByteArrayView length(out.constData() + lengthAt, out.size() - lengthAt);
    const quint32 crc = crc32c(payload, crc32c(length));
    appendLe32(out, crc);
    out.append(payload.data(), payload.size());
}

Frame frameAt(QByteArrayView data, qsizetype offset)
{
    Frame frame;
    const qsizetype size = data.size();
    if (offset < 0 || offset >= size)
        return frame;
    if (static_cast<unsigned char>(data[offset]) != kMarker0)
        return frame;
    if (offset + 1 >= size)
        return {Frame::Kind::Truncated, {}, 0};
    if (static_cast<unsigned char>(data[offset + 1]) != kMarker1)
        return frame;
    qsizetype pos = offset + 2;
    const std::optional<quint64> length = readVarint(data, pos);
    if (!length) {
        // Ran off the end inside the varint: a torn tail; more than 10 bytes: garbage.
        return {pos >= size ? Frame::Kind::Truncated : Frame::Kind::Invalid, {}, 0};
    }
    if (*length > kMaxRecordBytes)
        return frame;
    const QByteArrayView lengthBytes = data.sliced(offset + 2, pos - offset - 2);
    if (pos + 4 > size || qsizetype(*length) > size - pos - 4)
        return {Frame::Kind::Truncated, {}, 0};
    const quint32 stored = readLe32(data.data() + pos);
    const QByteArrayView payload = data.sliced(pos + 4, qsizetype(*length));
    if (crc32c(payload, crc32c(lengthBytes)) != stored)
        return frame;
    return {Frame::Kind::Record, payload, pos + 4 + qsizetype(*length)};
}

qsizetype findNextFrame(QByteArrayView data, qsizetype from)
{
    const char *begin = data.data();
    const qsizetype size = data.size();
    for (qsizetype at = std::max<qsizetype>(from, 0); at + 1 < size; ++at) {
        const void *hit = std::memchr(begin + at, kMarker0, std::size_t(size - at));
        if (!hit)
            return -1;
        at = static_cast<const char *>(hit) - begin;
        if (frameAt(data, at).kind == Frame::Kind::Record)
            return at;
    }
    return -1;
}

void appendVarint(QByteArray &out, quint64 value)
{
    while (value >= 0x80) {
        out.append(char((value & 0x7F) | 0x80));
        value >>= 7;
    }
    out.append(char(value));
}

std::optional<quint64> readVarint(QByteArrayView data, qsizetype &pos)
{
    quint64 value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= data.size())
            return std::nullopt;
        const auto byte = static_cast<unsigned char>(data[pos++]);
        value |= quint64(byte & 0x7F) << shift;
        if (!(byte & 0x80))
            return value;
    }
    return std::nullopt;
}

} // namespace SessionFormat
