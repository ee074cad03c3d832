// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/jsontext.h"

#include <algorithm>

namespace JsonText {

Position positionOf(const QByteArray &json, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, json.size());
    Position position;
    for (qsizetype i = 0; i < offset; ++i) {
        const auto byte = static_cast<unsigned char>(json[i]);
        if (byte == '\n') {
            ++position.line;
            position.column = 1;
        } else if ((byte & 0xC0) != 0x80) {
            ++position.column;
        }
    }
    return position;
}

Position errorPosition(const QByteArray &json, const QJsonParseError &error)
{
    const bool atTheCharacter =
        error.error == QJsonParseError::GarbageAtEnd || error.error == QJsonParseError::IllegalNumber;
    qsizetype offset = std::min<qsizetype>(error.offset, json.size());
    if (!atTheCharacter && offset > 0 && error.offset <= json.size()) {
        // Back to the first byte of the character before the offset.
        do {
            --offset;
        } while (offset > 0 && (static_cast<unsigned char>(json[offset]) & 0xC0) == 0x80);
    }
    return positionOf(json, offset);
}

QString describeError(const QByteArray &json, const QJsonParseError &error)
{
    const Position position = errorPosition(json, error);
    return QStringLiteral("%1 at line %2, column %3").arg(error.errorString()).arg(position.line).arg(position.column);
}

QString typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("true or false");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("missing");
}

} // namespace JsonText
