// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

class SampleStore;

// The names of series in the sample store: the one place that writes them and the one that
// reads them back. Three kinds:
//   p<panel>/q<query>/[<values>/]<labels>   what a query answered, one per label set:
//                                           "p0/q1/{job=\"api\"}", "p0/q1/$env=prod,$job=api/{…}"
//   derived/p<panel>/q<series>              what a formula computed
//   loadtester/<field>                      what the load tester reported ("loadtester/rate")
//   kubernetes/<workload>/<field>           a workload's replicas ("kubernetes/worker/ready"),
//                                           or a knob's value ("kubernetes/starter/env/RATE")
//   parked/<n>/<key>                        a series put aside by the window's edit n (its
//                                           panel removed, its query changed): kept for undo
//                                           and in the recording, drawn by no panel
// <values> are the choosable variables a query was asked with, sorted by name, so that the
// series of two values never share a key. In them '\', '/' and ',' are escaped with a '\':
// a value "a/b" or "x,$job=y" can no more be taken for another value. Keys written before
// that (session files) are read as well: <values> end at the first '/' in front of the
// labels' '{', and a '\' that escapes nothing is the character itself.
//
// Formulas and detectors name what they read by a reference: a key, or the prefix of all
// series of a query ("p0/q1/"). Which of a query's series a reader takes is its own
// decision, made explicitly: resolveFirst() where one value is wanted (formulas, most
// detectors: the query is meant to be aggregated to one series), resolveAll() where every
// series counts (one `up` series per target).
class SeriesKey
{
public:
    struct Variable
    {
        QString name; // without the '$'
        QString value;
        bool operator==(const Variable &) const = default;
    };
    using Variables = std::vector<Variable>;

    // A query's series, as parse() reads its key.
    struct Parsed
    {
        int panel = 0;
        int query = 0;
        Variables variables; // sorted by name; empty when the query was asked without any
        QString labels;      // PromSeries::labelKey(): "{a=\"x\", b=\"y\"}"
        bool operator==(const Parsed &) const = default;
    };

    SeriesKey() = delete;

    // A query's series: labelKey is PromSeries::labelKey() of the series.
    static QString ofQuery(int panel, int query, const Variables &variables, const QString &labelKey);
    // "p2/": every series a panel's queries brought.
    static QString panelPrefix(int panel);
    // "p2/q1/": every series of one query, whatever the values it was asked with.
    static QString queryPrefix(int panel, int query);
    // "$env=prod,$job=a\/b/": the values part of a key; empty without variables.
    static QString valuesSegment(const Variables &variables);
    static QString derived(int panel, int series);   // "derived/p2/q1"
    static QString parkedPrefix(int edit);           // "parked/3/"
    static QString loadTester(const QString &field); // "loadtester/rate"
    // "kubernetes/worker/desired": a workload's replicas as the cluster's watches see them.
    static QString kubernetes(const QString &workload, const QString &field);

    // A query's series key, strictly: 'p', a number, "/q", a number, '/', the values (if
    // any), the labels in braces. Anything else (a derived or load tester key, a damaged
    // key) is nullopt.
    static std::optional<Parsed> parse(const QString &key);
    // Whether `key` is a series of this query asked with exactly these values (in the
    // spelling of now or in that of older recordings); without values, one asked without.
    static bool isAskedWith(const QString &key, int panel, int query, const Variables &variables);

    // References: a key, or a prefix ending in '/' that names every series under it.
    static bool isPrefix(const QString &reference);
    static bool matches(const QString &reference, const QString &key);
    // The series in the store a reference names, in key order; empty when there is none.
    static QStringList resolveAll(const SampleStore &store, const QString &reference);
    // The first of them: the one series read where one value is wanted. Empty when none.
    static QString resolveFirst(const SampleStore &store, const QString &reference);
};
