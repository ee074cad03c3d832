// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>

// The one home of how Chaoscope writes a number, a duration or a size for a person to read:
// axes, legends, read-outs, panel headers, the status bar, annotations and messages all call
// these, so the screen, an export and a log line say the same thing of the same value.
// (Machine formats — the PromQL step, CSV, ISO times — are not here: they are for programs.)
namespace Format {

// A value in a panel's unit: "1.25k ops/s", "12.3 ms", "1.5 GiB", "42 %". Units "s", "bytes"
// and "%" are understood; any other is written after an SI prefix. Non-finite values read
// "NaN", "+Inf", "-Inf".
QString value(double value, const QString &unit, int significantDigits = 3);
// The same text split where its number ends: {"1.25k", "ops/s"}, {"12.3", "ms"}, {"42", ""};
// a stat tile writes the unit smaller than the number.
struct ValueParts
{
    QString number;
    QString unit;
};
ValueParts valueParts(double value, const QString &unit, int significantDigits = 3);

// How long something took or is ago, to the precision a reader needs: "250 ms", "1.5 s",
// "42 s", "3 min 5 s", "2 h 10 min" (seconds and shorter parts are rounded down; a negative
// duration is 0 s).
QString duration(qint64 ms);

// A duration in the grammar of the files Chaoscope reads and writes ("1h30m", "250ms", "0s"),
// as short as it can be; the loaders read it back unchanged.
QString compactDuration(qint64 ms);

// A size in bytes: "512 B", "1.5 KiB", "12 MiB", "1.5 GiB".
QString bytes(qint64 bytes);

// A count, with thousands grouped as the write-ups do: "85,000".
QString count(qint64 count);

// A count of things in words: "1 replica", "3 replicas", "85,000 samples" (never
// "1 replica(s)").
QString counted(qint64 count, const QString &one, const QString &many);

// A set-point as the user typed it, never rounded and never in exponent form: "12.5",
// "500", "1234567".
QString number(double value);

// A range of instants in local time, as a reader finds it on the time axis: "14:02:10–14:12:10";
// with the date of the start when it is not `todayMs`'s ("2026-12-05 23:50:00–00:10:00").
QString clockRange(qint64 startMs, qint64 endMs, qint64 todayMs);

} // namespace Format
