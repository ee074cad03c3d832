// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "report/comparedrun.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

// Seed 003's table: one row per run, one column per chosen series, each cell one statistic of
// that series over the run's steady state, in the panel's unit ("226 ops/s", "59 s").
struct RunTable
{
    enum class Statistic
    {
        Mean,
        P50,
        P99,
        Max,
        Last,
    };

    // What a column asks for, as the user wrote it: a series and a statistic.
    struct Request
    {
        QString series; // a series id, a legend, "Panel: legend" or a panel title
        Statistic statistic = Statistic::Mean;
    };

    struct Column
    {
        QString series; // as named in the request
        Statistic statistic = Statistic::Mean;
        QString unit;          // of the axis the series is drawn on
        QString title() const; // "completed/s · mean"
    };

    QStringList runs;
    std::vector<Column> columns;
    std::vector<std::vector<std::optional<double>>> cells; // [run][column]; empty: no sample

    static QString statisticName(Statistic statistic); // "mean", "p50", "p99", "max", "last"
    static std::optional<Statistic> statisticNamed(const QString &name);

    // "completed:mean,p99:max,Backlog" (the statistic after the last ':', mean when left out;
    // "Pool: leased" without a statistic names a panel's series). Nothing named is refused.
    static Result<std::vector<Request>> parseRequests(const QString &text);
    // The columns a table has when none are asked for: each series with an id, else the first
    // series of every panel of lines, its mean.
    static std::vector<Request> defaultRequests(const DashboardDefinition &dashboard);

    // The table over the runs. A series that names nothing in any run is refused, saying what
    // can be named; one missing from a run only leaves that run's cells empty.
    //
    // A series asked with several label sets (one per partition, per pod) is taken as one
    // population: mean, p50, p99 and max over all their samples together (the mean backlog per
    // partition), last the mean of their last values.
    static Result<RunTable> compute(const std::vector<ComparedRun> &runs, const std::vector<Request> &requests);

    // The store keys a name stands for in a snapshot, and the unit it is drawn in; empty keys
    // when it names nothing there.
    struct Resolved
    {
        QStringList keys;
        QString unit;
    };
    static Resolved resolve(const DashboardSnapshot &snapshot, const QString &series);
    // What a snapshot lets a column name, for a message: "ids: completed, p99; legends: …".
    static QString nameable(const DashboardSnapshot &snapshot);

    // A Markdown table: "| run | completed/s · mean | … |", values in their units.
    QString toMarkdown() const;
    // CSV (RFC 4180, CRLF): a header of titles with the unit in brackets, plain numbers.
    QString toCsv() const;
};
