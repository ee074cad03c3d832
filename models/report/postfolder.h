// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QString>

// A post's folder: index.md and its pictures beside it. Chaoscope notes, in a small file of
// its own (.chaoscope-post.json), what it wrote last; a draft written again replaces
// index.md only while it is still that text. Once the author has edited it (or it was never
// Chaoscope's), the new draft goes beside it as index.md.new and the author's text stays.
namespace PostFolder {

inline constexpr char kIndex[] = "index.md";
inline constexpr char kNewIndex[] = "index.md.new";
inline constexpr char kRecord[] = ".chaoscope-post.json";

struct Written
{
    QString path;            // where the draft went: index.md, or index.md.new
    bool keptEdited = false; // index.md was the author's: left as it was
};

// Creates the folder when it is missing. An error says what could not be written.
Result<Written> writeIndex(const QString &folder, const QString &markdown);
// Whether index.md in the folder is still exactly what Chaoscope wrote last.
bool isUntouched(const QString &folder);

} // namespace PostFolder
