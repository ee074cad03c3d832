// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "base/timerange.h"
#include "loadtester/loadtesteraction.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

// One recorded series, its samples sorted by time without duplicates (the last recorded
// value of a timestamp wins, as it did in the store).
struct SessionSeries
{
    QString key;
    QMap<QString, QString> labels;
    std::vector<qint64> timestampsMs;
    std::vector<double> values;
};

// An action taken on the load tester during the run.
struct SessionAction
{
    ActionReport report;   // replicas empty when no answer was recorded
    bool answered = false; // false: the app stopped before every replica had answered
    QString summary;       // the annotation text it produced
    QString backend;       // "Chaoscope starter", "Locust", "k6"
};

// A scenario run during the recording.
struct SessionScenario
{
    QString title;
    qint64 startedAtMs = 0;
    qint64 endedAtMs = 0; // 0: it had not ended when the recording did
    QString verdict;      // ScenarioVerdict::toAnnotationText(); empty while it ran
};

// What could not be read back, for the message shown when a session is opened.
struct SessionDamage
{
    qint64 skippedBytes = 0;       // damaged records in the middle, skipped
    int skippedRegions = 0;        // how many separate damaged places
    qint64 truncatedTailBytes = 0; // an incomplete last record (cut by a crash)
    qint64 lostSamples = 0;        // samples in chunks that could not be decoded after damage
    int unreadableRecords = 0;     // intact frames whose content did not parse

    bool any() const { return skippedBytes > 0 || truncatedTailBytes > 0 || lostSamples > 0 || unreadableRecords > 0; }
};

// Everything a session file holds, as read back: the last state of each thing recorded.
struct SessionContents
{
    quint32 formatVersion = 0;
    QString chaoscopeVersion;
    qint64 createdAtMs = 0;
    QString dashboardName;
    QString sourceUrl;
    QString host;
    bool compacted = false;
    std::optional<TimeRange> trimmedTo;

    QString dashboardJson;                  // empty when no dashboard record survived
    qint64 windowMs = 0;                    // the live window's length at the end (0 = unknown)
    std::optional<TimeRange> lastView;      // the range on screen when the app quit, if recorded
    bool lastViewLive = false;              // ... and whether it was following "now"
    QMap<QString, QString> variableChanges; // variables changed after the dashboard record

    std::vector<SessionSeries> series;      // in the order they first arrived (live: their colours)
    std::vector<Annotation> annotations;    // final state, sorted by time
    std::vector<SessionAction> actions;     // in the order they were requested
    std::vector<SessionScenario> scenarios; // in the order they started

    bool closedCleanly = false; // the recording ended with its closing record
    qint64 lastEventMs = 0;     // the newest time written by anything (0 = none)
    QStringList pauses;         // why the recording paused, if it did ("disk full …")
    SessionDamage damage;
    qint64 validEnd = 0; // offset after the last intact record: appends go there
    qint64 records = 0;

    qint64 sampleCount() const;
    // From the first to the last sample (annotations and actions included); empty range
    // (end < start) when nothing was recorded.
    TimeRange recordedRange() const;
    // For the user, one or two sentences: "The recording was cut short … 12 bytes …". Empty
    // when the file was closed cleanly and nothing was damaged.
    QString describeProblems() const;
    // The same in a few words, for a status bar: "not closed: recovered up to 10:41:07".
    QString shortProblems() const;
};
