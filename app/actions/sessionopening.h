// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "session/format/sessioncontents.h"
#include "session/format/sessionreader.h"

#include <QString>
#include <functional>

class QWidget;

// Reads a session file before its window opens. A day's recording is tens of megabytes; on
// screen it is read on a worker thread while a progress dialog says how far it has come and
// offers Cancel, so opening a big file is never a silent, frozen pause. Headless (scripts,
// screenshots) it is simply read.
class SessionOpening
{
public:
    struct Options
    {
        bool showProgress = true;
        int showAfterMs = 400; // a file read faster than this never flashes a dialog
        // Told each progress step on the reading thread before it is acted on; tests use it
        // to hold the reader at a known point.
        std::function<void(qint64 done, qint64 total)> observer;
    };

    // The contents, the reader's own error, or Error::Kind::Cancelled when the user cancelled.
    static Result<SessionContents> read(const QString &path, const Options &options);
    static Result<SessionContents> read(const QString &path) { return read(path, Options{}); }

    // "Reading run.chaoscope: 12.0 MiB of 48.0 MiB"
    static QString progressText(const QString &path, qint64 done, qint64 total);
};
