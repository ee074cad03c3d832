// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "session/format/sessioncontents.h"

#include <QByteArrayView>
#include <QString>
#include <functional>

// Reads a session file back, whatever state it is in. A file cut by a crash gives everything
// up to its last complete record; a damaged record in the middle is skipped up to the next
// intact one (and the samples that depended on it are counted, not guessed); the result says
// what was lost. Refused with a message a user can act on: not a session file, a file from a
// newer format. Never trusts a byte: every input gives a result or an error, never a crash.
namespace SessionReader {

// Told how far reading has come, every few hundred kilobytes and once at the end (bytes
// read, bytes in all); returns false to stop, and the read gives an Error::Kind::Cancelled.
// Called on the reading thread.
using Progress = std::function<bool(qint64 done, qint64 total)>;

Result<SessionContents> read(QByteArrayView data, const Progress &progress = {});
Result<SessionContents> readFile(const QString &path, const Progress &progress = {});

} // namespace SessionReader
