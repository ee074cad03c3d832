// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/durationgrammar.h"
#include "base/jsonissue.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>
#include <initializer_list>
#include <optional>

// What the readers of the sections of Chaoscope's JSON files (dashboards, scenarios) share: the issues found so far,
// each with the JSON path it is about ("panels[2].series[0].query: missing"), and the small readers every section uses
// (a string, a duration, the known keys with a "did you mean").
class JsonSection
{
public:
    using Keys = std::initializer_list<const char *>;

    void issue(const QString &path, const QString &message) { m_issues.append(JsonIssue{path, message}); }
    // An issue for every key of `object` that is not known (suggesting the closest known one
    // when it is at most two edits away: a typo does not vanish silently).
    // Reports each key not among `known` (with the closest known one); returns them, so that a
    // file saved again keeps what this version does not read.
    QJsonObject checkKeys(const QJsonObject &object, const QString &path, Keys known);
    // The string at object[key]; nullopt (and an issue when present but not a string) else.
    std::optional<QString> readString(const QJsonObject &object, const QString &path, const QString &key);
    // A duration string ("30s", "1h30m") or a number of seconds; nullopt (and an issue) else.
    std::optional<qint64> readDuration(const QJsonObject &object, const QString &path, const QString &key);

    // An array of non-empty strings at object[key] (each trimmed), "what" saying in an issue
    // what they are ("label names whose values become tags"); an absent key gives none, a bad
    // element an issue of its own and is left out.
    QStringList readStrings(const QJsonObject &object, const QString &path, const QString &key, const QString &what);

    QList<JsonIssue> takeIssues() { return std::move(m_issues); }

    static QString join(const QString &base, const QString &key); // "panels[0]" + "title"
    static QString index(const QString &base, qsizetype index);   // "panels" + 2: "panels[2]"
    // How a value appears in a message: strings quoted, numbers as written, others by type.
    static QString describe(const QJsonValue &value);
    // A duration as scenarios and checks write it: "30s", "+2m" (an offset), a number of
    // seconds; nullopt for anything else.
    static std::optional<qint64> offsetOf(const QJsonValue &value);

    static constexpr qint64 kMaxDurationMs = DurationGrammar::kMaxMs;

private:
    QList<JsonIssue> m_issues;
};
