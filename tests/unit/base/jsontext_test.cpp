// SPDX-License-Identifier: GPL-3.0-or-later
// Where a JSON mistake is, said the same way for every file the app reads: the line and
// column an editor shows for the character the parser stopped at.
#include "base/jsontext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>

namespace {

QString errorIn(const QByteArray &json)
{
    QJsonParseError error;
    QJsonDocument::fromJson(json, &error);
    EXPECT_NE(error.error, QJsonParseError::NoError) << json.constData();
    return JsonText::describeError(json, error);
}

} // namespace

TEST(JsonText, PointsAtTheCharacterThatIsWrong)
{
    // '1' where the ':' should be, column 6
    EXPECT_EQ(errorIn(R"({"a" 1})"), QStringLiteral("missing name separator at line 1, column 6"));
    EXPECT_EQ(errorIn("x"), QStringLiteral("illegal value at line 1, column 1"));
    // the second key on line 3, where a comma was due
    EXPECT_EQ(errorIn("{\n  \"a\": 1\n  \"b\": 2\n}"), QStringLiteral("unterminated object at line 3, column 3"));
    EXPECT_EQ(errorIn(R"({"a": 1,})"), QStringLiteral("object is missing after a comma at line 1, column 9"));
    EXPECT_EQ(errorIn(R"({"a": [1 2]})"), QStringLiteral("missing value separator at line 1, column 10"));
}

TEST(JsonText, GarbageAndBadNumbersAreWhereTheParserStands)
{
    EXPECT_EQ(errorIn(R"({"a": 1} x)"), QStringLiteral("garbage at the end of the document at line 1, column 10"));
    EXPECT_EQ(errorIn("{\n  \"a\": x\n}"), QStringLiteral("illegal number at line 2, column 8"));
}

TEST(JsonText, ColumnsCountCharactersNotBytes)
{
    // "é" is two bytes; the 'x' is the 17th character of the line
    EXPECT_EQ(errorIn("{\"t\": \"Caf\xc3\xa9\xc3\xa9\xc3\xa9\", x}"),
              QStringLiteral("unterminated object at line 1, column 17"));
}

TEST(JsonText, AnErrorAtTheEndIsAfterTheLastCharacter)
{
    EXPECT_EQ(errorIn(R"({"a": "abc)"), QStringLiteral("unterminated string at line 1, column 11"));
    EXPECT_EQ(errorIn(""), QStringLiteral("illegal value at line 1, column 1"));
}

TEST(JsonText, PositionsOfOffsets)
{
    const QByteArray text = "ab\ncd\r\nef";
    EXPECT_EQ(JsonText::positionOf(text, 0), (JsonText::Position{1, 1}));
    EXPECT_EQ(JsonText::positionOf(text, 4), (JsonText::Position{2, 2}));
    EXPECT_EQ(JsonText::positionOf(text, 7), (JsonText::Position{3, 1}));
    EXPECT_EQ(JsonText::positionOf(text, 99), (JsonText::Position{3, 3}));
    EXPECT_EQ(JsonText::positionOf(text, -5), (JsonText::Position{1, 1}));
}

TEST(JsonText, TypeNames)
{
    EXPECT_EQ(JsonText::typeName(QJsonValue(true)), QStringLiteral("true or false"));
    EXPECT_EQ(JsonText::typeName(QJsonValue(3.5)), QStringLiteral("a number"));
    EXPECT_EQ(JsonText::typeName(QJsonValue(QStringLiteral("x"))), QStringLiteral("a string"));
    EXPECT_EQ(JsonText::typeName(QJsonValue(QJsonValue::Null)), QStringLiteral("null"));
    EXPECT_EQ(JsonText::typeName(QJsonValue(QJsonArray())), QStringLiteral("an array"));
    EXPECT_EQ(JsonText::typeName(QJsonValue(QJsonObject())), QStringLiteral("an object"));
    EXPECT_EQ(JsonText::typeName(QJsonValue(QJsonValue::Undefined)), QStringLiteral("missing"));
}
