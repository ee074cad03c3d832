// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Names the app makes for the files it writes: an export named after its panel or dashboard,
// a post's pictures. One rule for all of them, so that every file system and shell takes the
// name and a title from a dashboard file can never leave the folder it is written into.
namespace FileNames {

// "Testbed: starter → engine" → "testbed-starter-engine": ASCII letters and digits in lower
// case, every other run of characters one "-", none at either end; at most `longest`
// characters, cut at a word's end where one is not too far back. Empty when the text has no
// letter or digit: the caller names a fallback.
QString slug(const QString &text, int longest = 40);

} // namespace FileNames
