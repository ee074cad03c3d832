// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QDate>
#include <QString>
#include <QStringList>
#include <QTimeZone>
#include <optional>
#include <vector>

// A Chaos Day post in the shape of the team's blog, as values: front matter, a summary with a
// TL;DR to fill in and the headline picture, then the experiment (what was done, Expected,
// Actual phase by phase with a picture and its numbers, Result), the notes marked during the
// run and an empty list of found bugs. toMarkdown() writes the post's index.md; the pictures
// it names are written beside it by whoever filled it in.
struct PostDraft
{
    // Something done during the run: "rate 150 → 400 /s", "Chaoscope starter, 1/1 replica".
    struct Action
    {
        qint64 timeMs = 0;
        QString change;
        QString outcome;
        bool failed = false;
    };
    struct Picture
    {
        QString file;    // beside index.md: "phase-2-rate-400.png"
        QString caption; // its alt text and the sentence under it
    };
    // The time between two things done, with what was done at its start, a picture of it and
    // its statistics (a Markdown table, in the panels' units).
    struct Phase
    {
        int number = 0;
        QString title; // what started it: "rate 150 → 400 /s"
        TimeRange range;
        std::vector<Action> actions;
        Picture picture;
        QString statistics;
    };
    // What was expected and whether it held: a scenario's expectation or a dashboard's check.
    struct Expectation
    {
        QString name;
        QString expected;           // "timeouts/s ≤ 0 for 10s"
        std::optional<bool> passed; // nullopt: not judged (no samples)
        QString outcome;            // "held · worst 0", "FAILED at +1 min 20 s: 231 ≥ 0"
    };
    struct Note
    {
        qint64 timeMs = 0;
        QString text;
    };

    QString title;
    QDate date;
    QStringList authors;
    QStringList tags;
    QStringList categories;
    QTimeZone timeZone = QTimeZone::utc(); // of every time written in the text

    QString description; // a sentence on what ran where and when
    Picture headline;
    std::vector<Action> actions; // everything done, in time order
    std::vector<Phase> phases;
    std::vector<Expectation> expectations;
    QString verdict;    // a scenario's verdict in words; empty without one
    QString comparison; // Markdown for runs compared (pictures and the run table); empty: none
    std::vector<Note> notes;

    QString toMarkdown() const;
    // "09:41:20" in the post's zone.
    QString timeText(qint64 ms) const;
    // The zone as a reader knows it at that instant: "UTC", "CET".
    QString zoneName(qint64 ms) const;
};
