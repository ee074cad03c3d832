// SPDX-License-Identifier: GPL-3.0-or-later
// Any bytes as a session file (cut by a crash, damaged, or not a session at all): the reader
// gives what it could recover or an error, never a crash.
//
// Every record carries a CRC, which random mutation almost never gets right, so inputs that
// start with the byte 01 are taken as records instead: the rest is a list of
// [2-byte length][payload] which is framed with correct CRCs behind the session preamble.
// That lets the fuzzer reach the protobuf records and the sample chunks inside them.
#include "session/format/sessionformat.h"
#include "session/format/sessionreader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

QByteArray framed(const uint8_t *data, size_t size)
{
    QByteArray file = SessionFormat::preamble();
    size_t pos = 0;
    while (pos + 2 <= size) {
        const size_t length = std::min<size_t>(size_t(data[pos]) | size_t(data[pos + 1]) << 8, size - pos - 2);
        SessionFormat::appendFrame(file,
                                   QByteArrayView(reinterpret_cast<const char *>(data + pos + 2), qsizetype(length)));
        pos += 2 + length;
    }
    return file;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] == 0x01) {
        const QByteArray file = framed(data + 1, size - 1);
        (void)SessionReader::read(file);
        // A torn tail, as a crash leaves it.
        (void)SessionReader::read(QByteArrayView(file).first(file.size() - file.size() / 7));
        return 0;
    }
    (void)SessionReader::read(QByteArrayView(reinterpret_cast<const char *>(data), qsizetype(size)));
    return 0;
}
