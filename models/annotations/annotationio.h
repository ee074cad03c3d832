// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "base/result.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QStringList>
#include <optional>
#include <vector>

// Annotations to and from files people pass around and open in a spreadsheet:
// - JSON: an array of {"time", "end", "text", "tags", "source", "author", "createdAt"
//   (and "failed": true for an action that did not take effect)}, times ISO-8601 in UTC;
// - CSV (RFC 4180): a header line with those names, every field quoted, CRLF line ends;
//   tags in one field, separated by commas.
// Reading is lenient per row: a row that cannot be used is skipped and named in `problems`
// ("row 3: time: not a time"; rows count from 1, a CSV header is not a row). Only a file that
// is not the format at all is an error.
class AnnotationIo
{
    Q_DECLARE_TR_FUNCTIONS(AnnotationIo)
public:
    enum class Format
    {
        Json,
        Csv
    };

    struct Parsed
    {
        std::vector<Annotation> annotations; // in file order, ids 0
        QStringList problems;
    };

    // What an import adds to the annotations already there (see merge()).
    struct Merge
    {
        std::vector<Annotation> added;
        int duplicates = 0;
    };

    // By the file's suffix (.json, .csv), case-insensitive.
    static std::optional<Format> formatOf(const QString &path);

    static QByteArray toJson(const std::vector<Annotation> &annotations);
    static QByteArray toCsv(const std::vector<Annotation> &annotations);
    static Result<Parsed> fromJson(const QByteArray &data);
    static Result<Parsed> fromCsv(const QByteArray &data);

    // Those of `incoming` that are not already in `existing` nor earlier in `incoming`: the
    // same time, end, text, tags, source and outcome count as the same mark (ids, author
    // and creation time do not: an import is merged, not appended twice).
    static Merge merge(const std::vector<Annotation> &existing, const std::vector<Annotation> &incoming);

    // Blocking file access: call these off the UI thread.
    static Result<Parsed> readFile(const QString &path);
    static Result<QString> writeFile(const QString &path, const std::vector<Annotation> &annotations);
};
