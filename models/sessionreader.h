// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "result.h"
#include "sessioncontents.h"

#include <QByteArrayView>
#include <QString>

// Reads a session file back, whatever state it is in. A file cut by a crash gives everything
// up to its last complete record; a damaged record in the middle is skipped up to the next
// intact one (and the samples that depended on it are counted, not guessed); the result says
// what was lost. Refused with a message a user can act on: not a session file, a file from a
// newer format. Never trusts a byte: every input gives a result or an error, never a crash.
namespace SessionReader {

Result<SessionContents> read(QByteArrayView data);
Result<SessionContents> readFile(const QString &path);

} // namespace SessionReader
