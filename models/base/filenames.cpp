// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/filenames.h"

namespace FileNames {

QString slug(const QString &text, int longest)
{
    QString result;
    bool dash = false;
    for (const QChar c : text.toLower()) {
        if (c.isLetterOrNumber() && c.unicode() < 128) {
            if (dash && !result.isEmpty())
                result += QLatin1Char('-');
            result += c;
            dash = false;
        } else {
            dash = true;
        }
    }
    if (result.size() > longest) {
        result.truncate(longest);
        const qsizetype cut = result.lastIndexOf(QLatin1Char('-'));
        if (cut > longest / 2)
            result.truncate(cut);
    }
    while (result.endsWith(QLatin1Char('-')))
        result.chop(1);
    return result;
}

} // namespace FileNames
