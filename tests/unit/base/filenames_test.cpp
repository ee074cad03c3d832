// SPDX-License-Identifier: GPL-3.0-or-later
// The one rule for the names of the files the app writes (exports, a post's pictures, the
// export dialog's suggestion): every file system and shell takes them, and a title from a
// dashboard file cannot leave the folder.
#include "base/filenames.h"

#include <gtest/gtest.h>

TEST(FileNames, ASlugIsLowerCaseAsciiWordsJoinedByDashes)
{
    EXPECT_EQ(FileNames::slug(QStringLiteral("Testbed: starter → engine")), QStringLiteral("testbed-starter-engine"));
    EXPECT_EQ(FileNames::slug(QStringLiteral("Throughput: sent vs accepted vs completed")),
              QStringLiteral("throughput-sent-vs-accepted-vs-completed"));
    EXPECT_EQ(FileNames::slug(QStringLiteral("../../etc/passwd")), QStringLiteral("etc-passwd"));
    EXPECT_EQ(FileNames::slug(QStringLiteral("$(touch /tmp/pwned)")), QStringLiteral("touch-tmp-pwned"));
    EXPECT_EQ(FileNames::slug(QStringLiteral("Débit — café")), QStringLiteral("d-bit-caf")) << "ASCII only";
    EXPECT_TRUE(FileNames::slug(QStringLiteral("→ ✓ …")).isEmpty()) << "the caller names a fallback";
}

TEST(FileNames, ALongNameIsCutAtAWordsEnd)
{
    const QString title = QStringLiteral("150/s: below the engine's ceiling (4 workers x 20 ms = 200/s)");
    EXPECT_EQ(FileNames::slug(title), QStringLiteral("150-s-below-the-engine-s-ceiling-4"));
    EXPECT_LE(FileNames::slug(title, 20).size(), 20);
    EXPECT_FALSE(FileNames::slug(title, 20).endsWith(QLatin1Char('-')));
    EXPECT_EQ(FileNames::slug(QStringLiteral("abcdefghijklmnopqrstuvwxyz"), 10), QStringLiteral("abcdefghij"))
        << "one long word is cut where it must be";
}
