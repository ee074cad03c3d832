// SPDX-License-Identifier: GPL-3.0-or-later
// A post's index.md in the shape of the team's blog: front matter, summary with a TL;DR and
// the headline picture, the truncate marker, the experiment with Expected / Actual / Result,
// the notes and the found bugs; and a folder whose edited index.md is never overwritten.
#include "inorder.h"
#include "report/postdraft.h"
#include "report/postfolder.h"
#include "scenario/scenarioverdict.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'772'358'000'000; // 2026-03-01 09:40:00 UTC

PostDraft draft()
{
    PostDraft post;
    post.title = QStringLiteral("Seed 000: \"starter\" collapse");
    post.date = QDate(2026, 3, 1);
    post.authors = {QStringLiteral("zell"), QStringLiteral("Deepthi Akkoorath")};
    post.tags = {QStringLiteral("availability")};
    post.categories = {QStringLiteral("chaos_experiment")};
    post.description = QStringLiteral("# not a heading: what ran where");
    post.headline = {QStringLiteral("testbed-whole-run.png"), QStringLiteral("Testbed [the whole run]")};
    post.actions = {
        {kStart + 55'000, QStringLiteral("rate 150 → 400 /s"), QStringLiteral("Chaoscope starter, 1/1 replica"), false},
        {kStart + 125'000, QStringLiteral("in-flight limit → 20"), QStringLiteral("timeout"), true}};
    PostDraft::Phase phase;
    phase.number = 1;
    phase.title = QStringLiteral("rate 150 → 400 /s");
    phase.range = {kStart + 55'000, kStart + 124'999};
    phase.actions = {post.actions.front()};
    phase.picture = {QStringLiteral("phase-1-rate-400.png"), QStringLiteral("Phase 1: rate 150 → 400 /s")};
    phase.statistics = QStringLiteral("| series | mean |\n| --- | ---: |\n| sent/s | 400 ops/s |\n");
    post.phases = {phase};
    post.expectations = {
        {QStringLiteral("no timeouts"), QStringLiteral("rate(x[5s]) * 2 <= 0 for 10 s"), false,
         QStringLiteral("FAILED at 09:42:10: 231 > 0")},
        {QStringLiteral("pool"), QStringLiteral("pending < 5"), std::nullopt, QStringLiteral("no samples")}};
    post.notes = {{kStart + 56'000, QStringLiteral("pending | growing\nfast")}};
    return post;
}

} // namespace

TEST(PostDraft, TheTeamsShapeInOrder)
{
    const QString markdown = draft().toMarkdown();
    const QStringList expectedInOrder{
        QStringLiteral(
            "---\ntitle: \"Seed 000: \\\"starter\\\" collapse\"\ndate: 2026-03-01\n"
            "categories: [chaos_experiment]\ntags: [availability]\nauthors: [zell, \"Deepthi Akkoorath\"]\n---\n"),
        QStringLiteral("\\# not a heading: what ran where\n"),
        QStringLiteral("**TL;DR;**"),
        QStringLiteral("![Testbed (the whole run)](testbed-whole-run.png)"),
        QStringLiteral("<!--truncate-->"),
        QStringLiteral("## Chaos Experiment"),
        QStringLiteral("| 09:40:55 | rate 150 → 400 /s | Chaoscope starter, 1/1 replica |"),
        QStringLiteral("| 09:42:05 | in-flight limit → 20 | ❌ timeout |"),
        QStringLiteral("### Expected"),
        QStringLiteral("- **no timeouts**: `rate(x[5s]) * 2 <= 0 for 10 s`"),
        QStringLiteral("### Actual"),
        QStringLiteral("#### Phase 1: rate 150 → 400 /s"),
        QStringLiteral("From 09:40:55 to 09:42:04 (1 min 9 s)."),
        QStringLiteral("![Phase 1: rate 150 → 400 /s](phase-1-rate-400.png)"),
        QStringLiteral("| sent/s | 400 ops/s |"),
        QStringLiteral("### Result"),
        QStringLiteral("| no timeouts | ❌ FAILED at 09:42:10: 231 > 0 |"),
        QStringLiteral("| pool | – no samples |"),
        QStringLiteral("## Notes from the run"),
        QStringLiteral("- 09:40:56 pending \\| growing fast"),
        QStringLiteral("## Found bugs"),
    };
    ASSERT_TRUE(containsInOrder(markdown, expectedInOrder));
    EXPECT_TRUE(markdown.endsWith(QStringLiteral("\n")));
    EXPECT_FALSE(markdown.contains(QStringLiteral("\n\n\n"))) << "no double blank lines";
}

TEST(PostDraft, WithoutAScenarioExpectedAndResultAreLeftForTheAuthor)
{
    PostDraft post = draft();
    post.expectations.clear();
    post.notes.clear();
    const QString markdown = post.toMarkdown();
    EXPECT_TRUE(markdown.contains(QStringLiteral("_What did we expect to happen? Fill in._")));
    EXPECT_TRUE(markdown.contains(QStringLiteral("_Did it hold? ✅ or ❌ per expectation: fill in._")));
    EXPECT_FALSE(markdown.contains(QStringLiteral("## Notes"))) << "no empty section";
}

TEST(PostFolder, AnEditedIndexIsKeptAndTheNewDraftGoesBesideIt)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("post"));
    const auto read = [](const QString &path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    };

    const Result<PostFolder::Written> first = PostFolder::writeIndex(folder, QStringLiteral("draft 1\n"));
    ASSERT_TRUE(first.ok()) << first.error().message.toStdString();
    EXPECT_FALSE(first->keptEdited);
    EXPECT_TRUE(first->path.endsWith(QStringLiteral("/post/index.md")));
    EXPECT_TRUE(PostFolder::isUntouched(folder));

    // Untouched since: a new draft replaces it.
    const Result<PostFolder::Written> second = PostFolder::writeIndex(folder, QStringLiteral("draft 2\n"));
    ASSERT_TRUE(second.ok());
    EXPECT_FALSE(second->keptEdited);
    EXPECT_EQ(read(folder + QStringLiteral("/index.md")), QStringLiteral("draft 2\n"));

    // The author writes the TL;DR: the next draft goes beside it and says so.
    {
        QFile index(folder + QStringLiteral("/index.md"));
        ASSERT_TRUE(index.open(QIODevice::Append));
        index.write("**TL;DR;** the pool was the ceiling.\n");
    }
    const Result<PostFolder::Written> third = PostFolder::writeIndex(folder, QStringLiteral("draft 3\n"));
    ASSERT_TRUE(third.ok());
    EXPECT_TRUE(third->keptEdited);
    EXPECT_TRUE(third->path.endsWith(QStringLiteral("/post/index.md.new")));
    EXPECT_EQ(read(folder + QStringLiteral("/index.md")),
              QStringLiteral("draft 2\n**TL;DR;** the pool was the ceiling.\n"));
    EXPECT_EQ(read(third->path), QStringLiteral("draft 3\n"));

    // An index.md Chaoscope never wrote is the author's too.
    QTemporaryDir other;
    QFile theirs(other.filePath(QStringLiteral("index.md")));
    ASSERT_TRUE(theirs.open(QIODevice::WriteOnly));
    theirs.write("mine\n");
    theirs.close();
    const Result<PostFolder::Written> beside = PostFolder::writeIndex(other.path(), QStringLiteral("draft\n"));
    ASSERT_TRUE(beside.ok());
    EXPECT_TRUE(beside->keptEdited);
    EXPECT_EQ(read(other.filePath(QStringLiteral("index.md"))), QStringLiteral("mine\n"));
}

TEST(ScenarioVerdict, TheVerdictMarkKeepsEachCheckForAPostFromTheRecording)
{
    ScenarioVerdict verdict;
    verdict.stepsSucceeded = true;
    verdict.stepsMessage = QStringLiteral("all 7 steps succeeded");
    ScenarioVerdict::CheckLine held;
    held.name = QStringLiteral("no timeouts");
    held.passed = true;
    held.outcome = QStringLiteral("held · worst 0");
    held.expected = QStringLiteral("sum(rate(x[5s])) ≤ 0 for 10 s");
    ScenarioVerdict::CheckLine failed;
    failed.name = QStringLiteral("pool: pending");
    failed.guard = true;
    failed.passed = false;
    failed.outcome = QStringLiteral("FAILED at +1 min: 231 ≥ 5 | really");
    verdict.checks = {held, failed};

    const QString text = verdict.toAnnotationText();
    EXPECT_TRUE(text.startsWith(QStringLiteral("verdict: expectation failed: pool: pending\n"))) << text.toStdString();
    const std::optional<ScenarioVerdict> back = ScenarioVerdict::fromAnnotationText(text);
    ASSERT_TRUE(back.has_value());
    ASSERT_EQ(back->checks.size(), 2u);
    EXPECT_EQ(back->checks[0].name, QStringLiteral("no timeouts"));
    EXPECT_TRUE(back->checks[0].passed);
    EXPECT_EQ(back->checks[0].outcome, QStringLiteral("held · worst 0"));
    EXPECT_EQ(back->checks[0].expected, QStringLiteral("sum(rate(x[5s])) ≤ 0 for 10 s"));
    EXPECT_TRUE(back->checks[1].guard);
    EXPECT_FALSE(back->checks[1].passed);
    EXPECT_EQ(back->checks[1].name, QStringLiteral("pool pending")) << "a colon in a name cannot end it";
    EXPECT_EQ(back->checks[1].outcome, QStringLiteral("FAILED at +1 min: 231 ≥ 5 | really"));
    EXPECT_TRUE(back->checks[1].expected.isEmpty());
    EXPECT_FALSE(ScenarioVerdict::fromAnnotationText(QStringLiteral("rate 150 → 400 /s")).has_value());
}
