// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotations/annotationio.h"

#include "base/jsontext.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <algorithm>

namespace {

const QStringList kColumns{QStringLiteral("time"),      QStringLiteral("end"),    QStringLiteral("text"),
                           QStringLiteral("tags"),      QStringLiteral("source"), QStringLiteral("author"),
                           QStringLiteral("createdAt"), QStringLiteral("failed"), QStringLiteral("suggested")};

QString isoUtc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

// ISO-8601; the files are written in UTC, so a time without a zone is read as UTC too (not
// as the reader's local time).
std::optional<qint64> parseIso(const QString &text)
{
    const QDateTime parsed = QDateTime::fromString(text.trimmed(), Qt::ISODateWithMs);
    if (!parsed.isValid())
        return std::nullopt;
    if (parsed.timeSpec() == Qt::LocalTime)
        return QDateTime(parsed.date(), parsed.time(), Qt::UTC).toMSecsSinceEpoch();
    return parsed.toMSecsSinceEpoch();
}

QStringList splitTags(const QString &text)
{
    QStringList tags;
    for (const QString &tag : text.split(QLatin1Char(','))) {
        if (!tag.trimmed().isEmpty())
            tags << tag.trimmed();
    }
    return tags;
}

// The fields of one row as text, by column name; absent ones are null strings. Both formats
// end here, so a row means the same whichever file it came from.
struct Row
{
    QString time, end, text, tags, source, author, createdAt, failed, suggested;
    QStringList tagList; // JSON gives a real list; CSV fills `tags`
    bool hasTagList = false;
};

QString problem(int row, const QString &what)
{
    return QStringLiteral("row %1: %2").arg(row).arg(what);
}

std::optional<Annotation> annotationFrom(const Row &row, int number, QStringList &problems)
{
    Annotation a;
    if (row.time.trimmed().isEmpty()) {
        problems << problem(number, QStringLiteral("time: missing"));
        return std::nullopt;
    }
    const std::optional<qint64> time = parseIso(row.time);
    if (!time) {
        problems << problem(number, QStringLiteral("time: not a time"));
        return std::nullopt;
    }
    a.timeMs = *time;
    if (!row.end.trimmed().isEmpty()) {
        const std::optional<qint64> end = parseIso(row.end);
        if (!end) {
            problems << problem(number, QStringLiteral("end: not a time"));
            return std::nullopt;
        }
        if (*end < a.timeMs) {
            problems << problem(number, QStringLiteral("end: before the time"));
            return std::nullopt;
        }
        a.endMs = *end;
    }
    a.text = row.text.trimmed();
    if (a.text.isEmpty()) {
        problems << problem(number, QStringLiteral("text: empty"));
        return std::nullopt;
    }
    a.tags = row.hasTagList ? row.tagList : splitTags(row.tags);
    if (!row.source.trimmed().isEmpty()) {
        const std::optional<Annotation::Source> source = Annotation::sourceFromName(row.source);
        if (!source) {
            problems << problem(number, QStringLiteral("source: unknown \u201c%1\u201d").arg(row.source.trimmed()));
            return std::nullopt;
        }
        a.source = *source;
    }
    a.author = row.author.trimmed();
    if (!row.createdAt.trimmed().isEmpty()) {
        const std::optional<qint64> created = parseIso(row.createdAt);
        if (!created) {
            problems << problem(number, QStringLiteral("createdAt: not a time"));
            return std::nullopt;
        }
        a.createdAtMs = *created;
    }
    const QString failed = row.failed.trimmed().toLower();
    a.failed = failed == QLatin1String("true") || failed == QLatin1String("1") || failed == QLatin1String("yes");
    const QString suggested = row.suggested.trimmed().toLower();
    a.suggested =
        suggested == QLatin1String("true") || suggested == QLatin1String("1") || suggested == QLatin1String("yes");
    return a;
}

QString csvField(const QString &value)
{
    QString quoted = value;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// RFC 4180 records: fields separated by commas, optionally quoted ("" is a quote inside
// quotes); a quoted field may hold commas and line breaks. Accepts CRLF, LF or CR line ends.
// `unterminated` is set when the text ends inside quotes.
std::vector<QStringList> csvRecords(const QString &text, bool &unterminated)
{
    std::vector<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    bool fieldStarted = false;
    unterminated = false;
    const auto endRecord = [&] {
        record << field;
        // A blank line is not a row with one empty field.
        if (!(record.size() == 1 && record.front().isEmpty() && !fieldStarted))
            records.push_back(record);
        record.clear();
        field.clear();
        fieldStarted = false;
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') && field.isEmpty()) {
            quoted = true;
            fieldStarted = true;
        } else if (c == QLatin1Char(',')) {
            record << field;
            field.clear();
            fieldStarted = true;
        } else if (c == QLatin1Char('\r') || c == QLatin1Char('\n')) {
            if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n'))
                ++i;
            endRecord();
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    unterminated = quoted;
    if (fieldStarted || !field.isEmpty() || !record.isEmpty())
        endRecord();
    return records;
}

} // namespace

std::optional<AnnotationIo::Format> AnnotationIo::formatOf(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("json"))
        return Format::Json;
    if (suffix == QLatin1String("csv"))
        return Format::Csv;
    return std::nullopt;
}

QByteArray AnnotationIo::toJson(const std::vector<Annotation> &annotations)
{
    QJsonArray array;
    for (const Annotation &a : annotations) {
        QJsonObject object;
        object.insert(QStringLiteral("time"), isoUtc(a.timeMs));
        object.insert(QStringLiteral("end"), a.endMs ? QJsonValue(isoUtc(*a.endMs)) : QJsonValue(QJsonValue::Null));
        object.insert(QStringLiteral("text"), a.text);
        object.insert(QStringLiteral("tags"), QJsonArray::fromStringList(a.tags));
        object.insert(QStringLiteral("source"), Annotation::sourceName(a.source));
        object.insert(QStringLiteral("author"), a.author);
        object.insert(QStringLiteral("createdAt"),
                      a.createdAtMs ? QJsonValue(isoUtc(a.createdAtMs)) : QJsonValue(QJsonValue::Null));
        if (a.failed)
            object.insert(QStringLiteral("failed"), true);
        if (a.suggested)
            object.insert(QStringLiteral("suggested"), true);
        array.append(object);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Indented);
}

QByteArray AnnotationIo::toCsv(const std::vector<Annotation> &annotations)
{
    QString out;
    QStringList header;
    for (const QString &column : kColumns)
        header << csvField(column);
    out += header.join(QLatin1Char(',')) + QLatin1String("\r\n");
    for (const Annotation &a : annotations) {
        const QStringList fields{
            csvField(isoUtc(a.timeMs)),
            csvField(a.endMs ? isoUtc(*a.endMs) : QString()),
            csvField(a.text),
            csvField(a.tags.join(QStringLiteral(", "))),
            csvField(Annotation::sourceName(a.source)),
            csvField(a.author),
            csvField(a.createdAtMs ? isoUtc(a.createdAtMs) : QString()),
            csvField(a.failed ? QStringLiteral("true") : QString()),
            csvField(a.suggested ? QStringLiteral("true") : QString()),
        };
        out += fields.join(QLatin1Char(',')) + QLatin1String("\r\n");
    }
    return out.toUtf8();
}

Result<AnnotationIo::Parsed> AnnotationIo::fromJson(const QByteArray &data)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError)
        return Error::make(Error::Kind::Parse,
                           tr("This is not valid JSON: %1.").arg(JsonText::describeError(data, error)));
    if (!document.isArray())
        return Error::make(Error::Kind::Parse, tr("The JSON file must hold an array of annotations."));
    Parsed parsed;
    const QJsonArray array = document.array();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const int number = int(i + 1);
        if (!array.at(i).isObject()) {
            parsed.problems << problem(number, QStringLiteral("not an object"));
            continue;
        }
        const QJsonObject object = array.at(i).toObject();
        Row row;
        // A time may also be a number (ms since the epoch), as other tools write it.
        const auto timeText = [&](const QString &key) {
            const QJsonValue value = object.value(key);
            if (value.isDouble())
                return isoUtc(qint64(value.toDouble()));
            return value.isString() ? value.toString()
                                    : (value.isUndefined() || value.isNull() ? QString() : QStringLiteral("?"));
        };
        row.time = timeText(QStringLiteral("time"));
        row.end = timeText(QStringLiteral("end"));
        row.createdAt = timeText(QStringLiteral("createdAt"));
        row.text = object.value(QStringLiteral("text")).toString();
        row.source = object.value(QStringLiteral("source")).toString();
        row.author = object.value(QStringLiteral("author")).toString();
        row.failed = object.value(QStringLiteral("failed")).toBool() ? QStringLiteral("true") : QString();
        row.suggested = object.value(QStringLiteral("suggested")).toBool() ? QStringLiteral("true") : QString();
        const QJsonValue tags = object.value(QStringLiteral("tags"));
        if (tags.isArray()) {
            row.hasTagList = true;
            bool allStrings = true;
            for (const QJsonValue tag : tags.toArray()) {
                allStrings = allStrings && tag.isString();
                if (tag.isString() && !tag.toString().trimmed().isEmpty())
                    row.tagList << tag.toString().trimmed();
            }
            if (!allStrings) {
                parsed.problems << problem(number, QStringLiteral("tags: not a list of words"));
                continue;
            }
        } else if (tags.isString()) {
            row.tags = tags.toString();
        }
        if (std::optional<Annotation> a = annotationFrom(row, number, parsed.problems))
            parsed.annotations.push_back(std::move(*a));
    }
    return parsed;
}

Result<AnnotationIo::Parsed> AnnotationIo::fromCsv(const QByteArray &data)
{
    QString text = QString::fromUtf8(data);
    if (text.startsWith(QChar(0xFEFF))) // spreadsheets like to start UTF-8 with a BOM
        text.remove(0, 1);
    bool unterminated = false;
    const std::vector<QStringList> records = csvRecords(text, unterminated);
    if (records.empty())
        return Error::make(Error::Kind::Parse, tr("The CSV file is empty."));
    QStringList header;
    for (const QString &name : records.front())
        header << name.trimmed().toLower();
    const auto column = [&](const char *name) { return header.indexOf(QString::fromLatin1(name).toLower()); };
    if (column("time") < 0 || column("text") < 0)
        return Error::make(
            Error::Kind::Parse,
            tr("The CSV file needs a header line naming at least the \u201ctime\u201d and \u201ctext\u201d columns."));
    Parsed parsed;
    for (std::size_t r = 1; r < records.size(); ++r) {
        const int number = int(r);
        const QStringList &fields = records[r];
        if (fields.size() != header.size()) {
            parsed.problems << problem(
                number, QStringLiteral("%1 fields, the header has %2").arg(fields.size()).arg(header.size()));
            continue;
        }
        const auto field = [&](const char *name) {
            const qsizetype i = column(name);
            return i < 0 ? QString() : fields.at(i);
        };
        Row row;
        row.time = field("time");
        row.end = field("end");
        row.text = field("text");
        row.tags = field("tags");
        row.source = field("source");
        row.author = field("author");
        row.createdAt = field("createdAt");
        row.failed = field("failed");
        row.suggested = field("suggested");
        if (std::optional<Annotation> a = annotationFrom(row, number, parsed.problems))
            parsed.annotations.push_back(std::move(*a));
    }
    if (unterminated)
        parsed.problems << problem(int(records.size() - 1),
                                   QStringLiteral("a quote is never closed; the file ends inside it"));
    return parsed;
}

AnnotationIo::Merge AnnotationIo::merge(const std::vector<Annotation> &existing,
                                        const std::vector<Annotation> &incoming)
{
    const auto same = [](const Annotation &a, const Annotation &b) {
        return a.timeMs == b.timeMs && a.endMs == b.endMs && a.text == b.text && a.tags == b.tags &&
               a.source == b.source && a.failed == b.failed;
    };
    Merge merge;
    for (const Annotation &candidate : incoming) {
        const auto matches = [&](const Annotation &a) { return same(a, candidate); };
        if (std::any_of(existing.begin(), existing.end(), matches) ||
            std::any_of(merge.added.begin(), merge.added.end(), matches)) {
            ++merge.duplicates;
            continue;
        }
        merge.added.push_back(candidate);
    }
    return merge;
}

Result<AnnotationIo::Parsed> AnnotationIo::readFile(const QString &path)
{
    const std::optional<Format> format = formatOf(path);
    if (!format)
        return Error::make(Error::Kind::Invalid, tr("%1: annotations are read from .json or .csv files.").arg(path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io, tr("Cannot read %1: %2").arg(path, file.errorString()));
    const QByteArray data = file.readAll();
    Result<Parsed> parsed = *format == Format::Json ? fromJson(data) : fromCsv(data);
    if (!parsed)
        return Error::make(parsed.error().kind, tr("%1: %2").arg(path, parsed.error().message));
    return parsed;
}

Result<QString> AnnotationIo::writeFile(const QString &path, const std::vector<Annotation> &annotations)
{
    const std::optional<Format> format = formatOf(path);
    if (!format)
        return Error::make(Error::Kind::Invalid, tr("%1: annotations are written to .json or .csv files.").arg(path));
    // QSaveFile: a failed write leaves an older export intact instead of half a file.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error::make(Error::Kind::Io, tr("Cannot write %1: %2").arg(path, file.errorString()));
    file.write(*format == Format::Json ? toJson(annotations) : toCsv(annotations));
    if (!file.commit())
        return Error::make(Error::Kind::Io, tr("Cannot write %1: %2").arg(path, file.errorString()));
    return QFileInfo(path).absoluteFilePath();
}
