// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>

// How a person writes a duration in Chaoscope's files and on its command line, as Prometheus
// does: the reader of what Format::duration and Format::compactDuration write.
namespace DurationGrammar {

// Far beyond any sensible window, far below where qint64 milliseconds overflow.
constexpr qint64 kMaxMs = 1'000'000'000'000'000;

// Parses "15s", "5m", "1h30m", "2d", "500ms" (units y, w, d, h, m, s, ms, each at most once,
// largest first, as Prometheus writes them) or a plain non-negative number of seconds
// ("30", "1.5") into ms; -1 when invalid.
qint64 parseMs(const QString &text);

} // namespace DurationGrammar
