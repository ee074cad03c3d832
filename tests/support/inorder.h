// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <gtest/gtest.h>

// Whether every part is in the text, one after the other (a post's sections, a report's
// lines); the failure names the first part missing or out of order and shows the text.
inline ::testing::AssertionResult containsInOrder(const QString &text, const QStringList &parts)
{
    qsizetype from = 0;
    for (const QString &part : parts) {
        const qsizetype at = text.indexOf(part, from);
        if (at < 0)
            return ::testing::AssertionFailure() << "missing or out of order: " << part.toStdString() << "\n---\n"
                                                 << text.toStdString();
        from = at + part.size();
    }
    return ::testing::AssertionSuccess();
}
