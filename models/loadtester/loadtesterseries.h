// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "loadtester/adapters/loadtesteradapter.h"

#include <QObject>
#include <functional>
#include <optional>

class LoadTesterController;
class SampleStore;

// The load tester's own status values as store series, so a panel can draw the set-point
// ("rate 500/s") as a step line beside what Prometheus observed.
namespace LoadTesterSeries {
// The value of one replica's status, when it reports that field.
std::optional<double> valueOf(LoadTesterField field, const LoadTesterStatus &status);
} // namespace LoadTesterSeries

// Writes every status the controller reads into the store: one sample per field per poll,
// summed over the replicas (a fan-out of 3 × 100/s is a load of 300/s), paused as 1 when any
// replica is paused. While a replica does not answer the sum is not known and no sample is
// written: the gap, not a false drop, is what the chart should show.
class LoadTesterSeriesRecorder : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>; // UTC ms

    LoadTesterSeriesRecorder(LoadTesterController *controller, SampleStore *store, QObject *parent = nullptr);
    void setClock(Clock clock) { m_clock = std::move(clock); }

private:
    void record();

    LoadTesterController *m_controller;
    SampleStore *m_store;
    Clock m_clock;
};
