// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QtGlobal>
#include <cstdint>
#include <optional>

// The byte layout of a session file around its protobuf records (docs/sessions.md):
//
//   preamble  8 bytes magic "\x89CHSESS\n" + 4 bytes format version (little endian)
//   record*   2 bytes marker 0xB7 0x5E
//             varint payload length (at most kMaxRecordBytes)
//             4 bytes CRC-32C (little endian) of the length varint followed by the payload
//             payload: one serialized chaoscope.session.v1.Record
//
// The marker lets a reader that met a damaged record find the next boundary without trying
// every byte; the CRC tells a real boundary from a chance marker, and a torn tail from a
// complete record.
namespace SessionFormat {

constexpr quint32 kFormatVersion = 1;
constexpr char kMagic[8] = {'\x89', 'C', 'H', 'S', 'E', 'S', 'S', '\n'};
constexpr int kPreambleBytes = 12;
constexpr unsigned char kMarker0 = 0xB7;
constexpr unsigned char kMarker1 = 0x5E;
// A record is a second of samples or one event; a compacted file splits its samples into
// records far below this. Larger lengths are damage, not data.
constexpr quint32 kMaxRecordBytes = 64u << 20;
// The conventional file name suffix.
inline constexpr char kSuffix[] = "chaoscope";

QByteArray preamble(quint32 formatVersion = kFormatVersion);
// The format version when `bytes` starts with the magic; nullopt otherwise (also when short).
std::optional<quint32> readPreamble(QByteArrayView bytes);

// CRC-32C (Castagnoli), the checksum of every record.
quint32 crc32c(QByteArrayView bytes, quint32 crc = 0);

// Appends one framed record (marker, length, CRC, payload) to `out`.
void appendFrame(QByteArray &out, QByteArrayView payload);

// What is at `offset`: a complete, intact record (its payload and where the next one starts),
// a record cut short by the end of the data, or not a record boundary at all.
struct Frame
{
    enum class Kind
    {
        Record,
        Truncated,
        Invalid
    };
    Kind kind = Kind::Invalid;
    QByteArrayView payload;
    qsizetype end = 0; // offset after the record (Record only)
};
Frame frameAt(QByteArrayView data, qsizetype offset);

// The next offset at or after `from` where an intact record starts; -1 when there is none.
qsizetype findNextFrame(QByteArrayView data, qsizetype from);

// Varints (protobuf style, little-endian base 128) and zigzag for signed values.
void appendVarint(QByteArray &out, quint64 value);
// Reads a varint at `pos` (advancing it); nullopt when it runs past the end or over 10 bytes.
std::optional<quint64> readVarint(QByteArrayView data, qsizetype &pos);
inline quint64 zigzag(qint64 value)
{
    return (quint64(value) << 1) ^ quint64(value >> 63);
}
inline qint64 unzigzag(quint64 value)
{
    return qint64(value >> 1) ^ -qint64(value & 1);
}

} // namespace SessionFormat
