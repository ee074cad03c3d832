// SPDX-License-Identifier: GPL-3.0-or-later
// A note typed in the prompt: its #words become its tags, the text stays as typed.
#include "annotations/annotation.h"
#include "session/format/sessionconvert.h"

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

TEST(Annotation, EverySourceRoundTripsThroughTheSessionFormatAndItsName)
{
    for (const Annotation::Source source : Annotation::allSources()) {
        Annotation a;
        a.id = 7;
        a.timeMs = 1000;
        a.text = QStringLiteral("worker replicas 1 → 3");
        a.source = source;
        a.author = QStringLiteral("replicas");
        chaoscope::session::v1::Annotation proto;
        SessionConvert::toProto(a, &proto);
        EXPECT_EQ(SessionConvert::fromProto(proto), a) << Annotation::sourceName(source).toStdString();
        EXPECT_EQ(Annotation::sourceFromName(Annotation::sourceName(source)), source);
    }
    EXPECT_EQ(Annotation::sourceFromName(QStringLiteral("query")), Annotation::Source::Query);
}
