// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonParseError>
#include <QJsonValue>
#include <QString>

// The words every reader of JSON (dashboards, Grafana files, scenarios, annotation files,
// Prometheus answers) uses for what it found: where a parse error is, as an editor shows it,
// and what kind of value stood where another was expected.
namespace JsonText {

struct Position
{
    int line = 1;   // 1-based
    int column = 1; // 1-based, in characters (UTF-8 continuation bytes do not count)
    bool operator==(const Position &) const = default;
};

// The place of a byte offset; an offset past the end is the place after the last character.
Position positionOf(const QByteArray &json, qsizetype offset);

// Where a parse error is: the character Qt's parser stopped at. QJsonParseError::offset is
// one past it for most errors (the character was read before it was found wrong); for garbage
// after the document and a malformed number it is the character itself.
Position errorPosition(const QByteArray &json, const QJsonParseError &error);

// "missing name separator at line 3, column 14"
QString describeError(const QByteArray &json, const QJsonParseError &error);

// "a string", "a number", "true or false", "null", "an array", "an object", "missing"
QString typeName(const QJsonValue &value);

} // namespace JsonText
