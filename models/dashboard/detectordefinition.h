// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

// What a dashboard says about one of its detectors (analysis/detectors.h runs them): the kind,
// the series it reads and its thresholds. Value types, so the dashboard's definition does not
// depend on the analysis that uses it.

struct DetectorThresholds
{
    double dropPercent = 30;               // a fall by more than this …
    qint64 dropWithinMs = 60'000;          // … from the highest value within this long before
    double dropFloor = 1;                  // ignore drops from below this level (idle noise)
    qint64 backlogGrowthMs = 5 * 60'000LL; // growing for at least this long …
    double flatPercent = 15;               // … while throughput stays within ± this of its mean
    double rateAbove = 1;                  // e.g. 599 timeouts per second
    qint64 rateQuietMs = 60'000;           // a new rise counts after this long at or below it

    bool operator==(const DetectorThresholds &) const = default;
};

// A detector the dashboard runs over its stored series (see DetectorRunner). Series are
// named by id; which ones a kind reads: throughputDrop, targetDown and rateAbove `series`,
// backlogGrowsWhileFlat `backlog` and `throughput`.
struct DetectorDefinition
{
    enum class Kind
    {
        ThroughputDrop,
        TargetDown,
        BacklogGrowsWhileFlat,
        RateAbove
    };

    Kind kind = Kind::ThroughputDrop;
    QString series;
    QString backlog;
    QString throughput;
    DetectorThresholds thresholds; // only those of its kind are read and written

    static QString kindName(Kind kind)
    {
        switch (kind) {
        case Kind::ThroughputDrop:
            return QStringLiteral("throughputDrop");
        case Kind::TargetDown:
            return QStringLiteral("targetDown");
        case Kind::BacklogGrowsWhileFlat:
            return QStringLiteral("backlogGrowsWhileFlat");
        case Kind::RateAbove:
            return QStringLiteral("rateAbove");
        }
        return {};
    }
    static QStringList kindNames()
    {
        return {kindName(Kind::ThroughputDrop), kindName(Kind::TargetDown), kindName(Kind::BacklogGrowsWhileFlat),
                kindName(Kind::RateAbove)};
    }
};
