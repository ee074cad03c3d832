// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// A mark on the shared timeline: a point ("rate 300 → 500 /s") or a region ("exporter
// slowed down"), with who or what made it.
struct Annotation
{
    enum class Source
    {
        Manual,
        Action,
        Scenario,
        Detector,
        Kubernetes, // a change in the cluster nobody made in Chaoscope (kubectl, an autoscaler, Helm)
        Query,      // a dashboard's annotation query: its name is the author ("restarts")
    };

    quint64 id = 0;              // unique within a model; 0 = not yet added
    qint64 timeMs = 0;           // UTC ms
    std::optional<qint64> endMs; // set for a region
    QString text;
    QStringList tags;
    Source source = Source::Manual;
    bool failed = false; // an action that did not take effect
    QString author;      // the OS user
    qint64 createdAtMs = 0;
    // Proposed by a detector and not yet accepted: drawn dimmed until the user accepts it
    // (it becomes an ordinary annotation) or dismisses it (removed, not suggested again).
    // Last, so that brace-initialised annotations elsewhere keep their meaning.
    bool suggested = false;

    bool isRegion() const { return endMs.has_value(); }
    // A query's mark says what the data says: it is not moved or edited, only copied into a
    // note (copyAsNote) that is the user's.
    bool isReadOnly() const { return source == Source::Query; }
    Annotation copyAsNote() const;
    // The rank of its label when a chart has room for only some: actions (set-point changes,
    // a scenario's steps) first, then what people wrote, then a detector's suggestions, an
    // unaccepted one last.
    int labelPriority() const;
    bool operator==(const Annotation &) const = default;

    // The range a view jumps to when asked to show this annotation: a region with 10 % of its
    // length either side, a point with 2.5 min either side. A region so short that this would
    // zoom in further than for a point gets the point's 5 min, centred on it.
    TimeRange viewRange() const;

    // A note the user typed, at a point or over a region: "#fix" and "#db" in the text become
    // its tags (as typed, each once; the text keeps them).
    static Annotation note(qint64 timeMs, std::optional<qint64> endMs, const QString &text);
    // The #words of a text: "#fix pool at 20 #db" → {"fix", "db"}. A # inside a word
    // ("issue#12") or alone is not a tag.
    static QStringList hashTags(const QString &text);

    static QString sourceName(Source source);
    static QList<Source> allSources(); // in the order lists show them
    // The inverse of sourceName (case-insensitive); nullopt for anything else.
    static std::optional<Source> sourceFromName(const QString &name);
};
