// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "dashboard/dashboarddefinition.h"
#include "store/derivedexpression.h"

#include <QHash>
#include <QObject>
#include <vector>

class SampleStore;

// Keeps every derived series of a dashboard up to date in the store: when samples of an
// input arrive, the formula is recomputed from the earliest changed instant on (so a live
// tick costs a few samples, a backfill its span) and merged under the derived series' key,
// where the charts read it like any other series.
//
// Inputs are found by series id: a query series' first store series (its queries are meant
// to be aggregated to one series, e.g. sum(...)), a load tester value, or another derived
// series. Alignment and gaps are DerivedSeries::compute's; the tolerance is the coarser
// input's sample spacing, so series of panels with different steps still pair up.
class DerivedSeriesUpdater : public QObject
{
    Q_OBJECT
public:
    explicit DerivedSeriesUpdater(SampleStore *store, QObject *parent = nullptr);

    void setDashboard(const DashboardDefinition &dashboard);
    static QString storeKey(int panel, int query); // "derived/p2/q1"
    // Where each series id's samples live in the store, as a SeriesKey reference: a derived
    // or load tester series' key, or the prefix ("p0/q1/") of a query's series. The first id
    // wins.
    static QHash<QString, QString> storeKeysById(const DashboardDefinition &dashboard);

    // Recomputes everything (after a session is loaded, for instance).
    void recomputeAll();

private:
    struct Derived
    {
        QString key;
        DerivedExpression expression;
        QStringList inputKeys; // SeriesKey reference per formula input
    };

    void onSamplesChanged(const QString &key, const TimeRange &span);
    void recompute(const Derived &derived, qint64 fromMs);
    QString resolve(const QString &reference) const;

    SampleStore *m_store;
    std::vector<Derived> m_derived;
    int m_depth = 0; // derived of derived: bounded, so a cycle in the file cannot recurse forever
};
