// SPDX-License-Identifier: GPL-3.0-or-later
// Annotations written to JSON and CSV come back exactly, whatever their text holds; a file
// with bad rows imports the good ones and names each bad row; importing twice adds nothing.
#include "annotations/annotationio.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

qint64 utc(int h, int m, int s, int ms = 0)
{
    return QDateTime(QDate(2024, 5, 1), QTime(h, m, s, ms), Qt::UTC).toMSecsSinceEpoch();
}

std::vector<Annotation> awkwardAnnotations()
{
    Annotation rate;
    rate.timeMs = utc(9, 43, 0, 250);
    rate.text = QStringLiteral("rate 300 → 500 /s, \"confirmed\"");
    rate.tags = QStringList{QStringLiteral("steering"), QStringLiteral("rate")};
    rate.source = Annotation::Source::Action;
    rate.author = QStringLiteral("zeebe");
    rate.createdAtMs = utc(9, 43, 1);

    Annotation region;
    region.timeMs = utc(10, 0, 0);
    region.endMs = utc(10, 12, 30);
    region.text = QStringLiteral("exporter slowed down\nsee \"backlog\" panel;\r\nÄrger über Größe — 輸出遅延");
    region.source = Annotation::Source::Detector;
    region.suggested = true; // not yet accepted: stays a suggestion through export and import
    region.author = QStringLiteral("Jürgen");
    region.createdAtMs = utc(10, 13, 0);

    Annotation failed;
    failed.timeMs = utc(10, 20, 0);
    failed.text = QStringLiteral(",leading comma and trailing quote\"");
    failed.source = Annotation::Source::Scenario;
    failed.failed = true;
    failed.author = QStringLiteral("ci");
    failed.createdAtMs = utc(10, 20, 0);
    return {rate, region, failed};
}

std::string lines(const QStringList &list)
{
    return list.join(QLatin1Char('\n')).toStdString();
}

} // namespace

TEST(AnnotationIo, JsonRoundTripKeepsEveryField)
{
    const std::vector<Annotation> original = awkwardAnnotations();
    const Result<AnnotationIo::Parsed> parsed = AnnotationIo::fromJson(AnnotationIo::toJson(original));
    ASSERT_TRUE(parsed) << parsed.error().message.toStdString();
    EXPECT_TRUE(parsed->problems.isEmpty()) << parsed->problems.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(parsed->annotations, original);
}

TEST(AnnotationIo, CsvRoundTripKeepsEveryField)
{
    const std::vector<Annotation> original = awkwardAnnotations();
    const Result<AnnotationIo::Parsed> parsed = AnnotationIo::fromCsv(AnnotationIo::toCsv(original));
    ASSERT_TRUE(parsed) << parsed.error().message.toStdString();
    EXPECT_TRUE(parsed->problems.isEmpty()) << parsed->problems.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(parsed->annotations, original);
}

TEST(AnnotationIo, JsonHasIsoUtcTimesAndNamedFields)
{
    const QByteArray json = AnnotationIo::toJson(awkwardAnnotations());
    EXPECT_TRUE(json.contains("\"time\": \"2024-05-01T09:43:00.250Z\"")) << json.constData();
    EXPECT_TRUE(json.contains("\"end\": \"2024-05-01T10:12:30.000Z\"")) << json.constData();
    EXPECT_TRUE(json.contains("\"createdAt\": \"2024-05-01T09:43:01.000Z\"")) << json.constData();
    EXPECT_TRUE(json.contains("\"source\": \"action\"")) << json.constData();
    EXPECT_TRUE(json.contains("\"end\": null")) << json.constData();
}

TEST(AnnotationIo, CsvIsQuotedWithAHeaderAndCrlfLines)
{
    const QByteArray csv = AnnotationIo::toCsv({awkwardAnnotations().front()});
    EXPECT_EQ(
        csv,
        QByteArray("\"time\",\"end\",\"text\",\"tags\",\"source\",\"author\",\"createdAt\",\"failed\",\"suggested\"\r\n"
                   "\"2024-05-01T09:43:00.250Z\",\"\",\"rate 300 \xE2\x86\x92 500 /s, \"\"confirmed\"\"\","
                   "\"steering, rate\",\"action\",\"zeebe\",\"2024-05-01T09:43:01.000Z\",\"\",\"\"\r\n"));
}

TEST(AnnotationIo, CsvFromASpreadsheetReadsInAnyColumnOrderWithABomAndLfLines)
{
    const QByteArray csv = "\xEF\xBB\xBFText,Time,Tags\n"
                           "plain,2024-05-01T09:43:00Z,\"a, b\"\n"
                           "\n"
                           "\"two\nlines\",2024-05-01T09:44:00Z,\n";
    const Result<AnnotationIo::Parsed> parsed = AnnotationIo::fromCsv(csv);
    ASSERT_TRUE(parsed) << parsed.error().message.toStdString();
    EXPECT_TRUE(parsed->problems.isEmpty()) << parsed->problems.join(QLatin1Char('\n')).toStdString();
    ASSERT_EQ(parsed->annotations.size(), 2u);
    EXPECT_EQ(parsed->annotations[0].text, QStringLiteral("plain"));
    EXPECT_EQ(parsed->annotations[0].timeMs, utc(9, 43, 0));
    EXPECT_EQ(parsed->annotations[0].tags, (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    EXPECT_EQ(parsed->annotations[0].source, Annotation::Source::Manual);
    EXPECT_EQ(parsed->annotations[1].text, QStringLiteral("two\nlines"));
}

TEST(AnnotationIo, BadRowsAreSkippedAndNamed)
{
    const QByteArray csv = "time,end,text,source\r\n"
                           "2024-05-01T09:00:00Z,,fine,manual\r\n"
                           "2024-05-01T09:01:00Z,,also fine,action\r\n"
                           "tomorrow-ish,,bad time,manual\r\n"
                           "2024-05-01T09:03:00Z,later,bad end,manual\r\n"
                           "2024-05-01T09:04:00Z,,,manual\r\n"
                           "2024-05-01T09:05:00Z,,who made this,robot\r\n"
                           "2024-05-01T09:06:00Z,2024-05-01T09:00:00Z,ends first,manual\r\n"
                           "2024-05-01T09:07:00Z,too,many,fields,here\r\n";
    const Result<AnnotationIo::Parsed> parsed = AnnotationIo::fromCsv(csv);
    ASSERT_TRUE(parsed) << parsed.error().message.toStdString();
    EXPECT_EQ(parsed->annotations.size(), 2u);
    EXPECT_EQ(lines(parsed->problems), "row 3: time: not a time\n"
                                       "row 4: end: not a time\n"
                                       "row 5: text: empty\n"
                                       "row 6: source: unknown \u201crobot\u201d\n"
                                       "row 7: end: before the time\n"
                                       "row 8: 5 fields, the header has 4");
}

TEST(AnnotationIo, BadJsonElementsAreSkippedAndNamed)
{
    const QByteArray json = R"([
        {"time": "2024-05-01T09:00:00Z", "text": "fine", "tags": ["a"]},
        42,
        {"text": "no time"},
        {"time": "2024-05-01T09:03:00Z", "text": "odd tags", "tags": [1, 2]},
        {"time": 1714554000000, "text": "epoch ms"}
    ])";
    const Result<AnnotationIo::Parsed> parsed = AnnotationIo::fromJson(json);
    ASSERT_TRUE(parsed) << parsed.error().message.toStdString();
    ASSERT_EQ(parsed->annotations.size(), 2u);
    EXPECT_EQ(parsed->annotations[1].timeMs, 1714554000000);
    EXPECT_EQ(lines(parsed->problems), "row 2: not an object\n"
                                       "row 3: time: missing\n"
                                       "row 4: tags: not a list of words");
}

TEST(AnnotationIo, AFileThatIsNotTheFormatIsAnErrorInWords)
{
    EXPECT_FALSE(AnnotationIo::fromJson("{\"time\": 1}"));
    EXPECT_FALSE(AnnotationIo::fromJson("time,text\n"));
    const Result<AnnotationIo::Parsed> noHeader = AnnotationIo::fromCsv("2024-05-01T09:00:00Z,hello\n");
    ASSERT_FALSE(noHeader);
    EXPECT_TRUE(noHeader.error().message.contains(QStringLiteral("header"))) << noHeader.error().message.toStdString();
    EXPECT_FALSE(AnnotationIo::fromCsv(""));
}

TEST(AnnotationIo, MergeSkipsWhatIsAlreadyThereAndRepeatsWithinTheFile)
{
    std::vector<Annotation> existing = awkwardAnnotations();
    existing[0].id = 7; // ids, author and creation time do not make a mark different
    existing[0].author = QStringLiteral("someone else");
    Annotation fresh;
    fresh.timeMs = utc(11, 0, 0);
    fresh.text = QStringLiteral("new");
    std::vector<Annotation> incoming = awkwardAnnotations();
    incoming.push_back(fresh);
    incoming.push_back(fresh);
    Annotation retagged = awkwardAnnotations()[1];
    retagged.tags = QStringList{QStringLiteral("other")};
    incoming.push_back(retagged);

    const AnnotationIo::Merge merge = AnnotationIo::merge(existing, incoming);
    EXPECT_EQ(merge.duplicates, 4);
    ASSERT_EQ(merge.added.size(), 2u);
    EXPECT_EQ(merge.added[0].text, QStringLiteral("new"));
    EXPECT_EQ(merge.added[1].tags, QStringList{QStringLiteral("other")});
}

TEST(AnnotationIo, FilesAreWrittenAndReadByTheirSuffix)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::vector<Annotation> original = awkwardAnnotations();
    for (const QString &name : {QStringLiteral("notes.json"), QStringLiteral("notes.CSV")}) {
        const Result<QString> written = AnnotationIo::writeFile(dir.filePath(name), original);
        ASSERT_TRUE(written) << written.error().message.toStdString();
        const Result<AnnotationIo::Parsed> read = AnnotationIo::readFile(written.value());
        ASSERT_TRUE(read) << read.error().message.toStdString();
        EXPECT_EQ(read->annotations, original) << name.toStdString();
    }
    const Result<QString> wrongSuffix = AnnotationIo::writeFile(dir.filePath(QStringLiteral("notes.txt")), original);
    ASSERT_FALSE(wrongSuffix);
    EXPECT_TRUE(wrongSuffix.error().message.contains(QStringLiteral(".csv")));
    const Result<AnnotationIo::Parsed> missing = AnnotationIo::readFile(dir.filePath(QStringLiteral("missing.json")));
    ASSERT_FALSE(missing);
    EXPECT_TRUE(missing.error().message.contains(QStringLiteral("missing.json")));
}
