// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Times as the history tests write them: "8h", "6h6m40s", "-3h", ranges "0–8h" (an en dash),
// relative to the start of the window. The pieces print them back the same way
// (HistoryText), so a test reads its input and its expected output alike.
#include "base/durationgrammar.h"
#include "base/timerange.h"

#include <QString>
#include <QStringList>
#include <gtest/gtest.h>
#include <ostream>

// Failures print the text compared.
inline void PrintTo(const QString &text, std::ostream *out)
{
    *out << '"' << text.toStdString() << '"';
}

namespace HistoryTestText {

// "15s", "6h6m40s", "0", "-2s".
inline qint64 ms(const QString &text)
{
    if (text == QLatin1String("0"))
        return 0;
    if (text.startsWith(QLatin1Char('-')))
        return -ms(text.mid(1));
    const qint64 value = DurationGrammar::parseMs(text);
    EXPECT_GE(value, 0) << text.toStdString();
    return value;
}

// "6h6m40s–8h".
inline TimeRange span(const QString &text)
{
    const QStringList ends = text.split(QChar(0x2013));
    EXPECT_EQ(ends.size(), 2) << text.toStdString();
    return {ms(ends.value(0)), ms(ends.value(1))};
}

} // namespace HistoryTestText
