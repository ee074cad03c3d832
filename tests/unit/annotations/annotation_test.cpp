// SPDX-License-Identifier: GPL-3.0-or-later
// A note typed in the prompt: its #words become its tags, the text stays as typed.
#include "annotations/annotation.h"

#include <gtest/gtest.h>

TEST(AnnotationNote, HashWordsBecomeTags)
{
    const Annotation note = Annotation::note(1000, std::nullopt, QStringLiteral("#fix pool at 20 (#db) #fix."));
    EXPECT_EQ(note.tags, (QStringList{"fix", "db"})) << "each once, without the full stop";
    EXPECT_EQ(note.text, QStringLiteral("#fix pool at 20 (#db) #fix.")) << "the text keeps them";
    EXPECT_EQ(note.source, Annotation::Source::Manual);
    EXPECT_EQ(note.timeMs, 1000);
    EXPECT_FALSE(note.isRegion());

    const Annotation region = Annotation::note(1000, 5000, QStringLiteral("exporter slowed #camunda/exporter"));
    EXPECT_EQ(region.endMs, 5000);
    EXPECT_EQ(region.tags, (QStringList{"camunda/exporter"}));
}

TEST(AnnotationNote, AHashInsideAWordOrAloneIsNoTag)
{
    EXPECT_TRUE(Annotation::hashTags(QStringLiteral("see issue#12, # alone, C# code")).isEmpty());
    EXPECT_EQ(Annotation::hashTags(QStringLiteral("#a")), (QStringList{"a"}));
}
