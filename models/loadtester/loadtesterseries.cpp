// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/loadtesterseries.h"

#include "loadtester/loadtestercontroller.h"
#include "store/samplestore.h"

#include <QDateTime>
#include <array>
#include <vector>

namespace LoadTesterSeries {

std::optional<double> valueOf(LoadTesterField field, const LoadTesterStatus &status)
{
    const auto optionalInt = [](const std::optional<int> &v) -> std::optional<double> {
        return v ? std::optional<double>(*v) : std::nullopt;
    };
    switch (field) {
    case LoadTesterField::Rate:
        return status.rate;
    case LoadTesterField::InflightLimit:
        return optionalInt(status.inflightLimit);
    case LoadTesterField::Inflight:
        return optionalInt(status.inflight);
    case LoadTesterField::Pending:
        return optionalInt(status.pending);
    case LoadTesterField::Paused:
        return status.paused ? 1.0 : 0.0;
    case LoadTesterField::None:
        break;
    }
    return std::nullopt;
}

} // namespace LoadTesterSeries

LoadTesterSeriesRecorder::LoadTesterSeriesRecorder(LoadTesterController *controller, SampleStore *store,
                                                   QObject *parent)
    : QObject(parent), m_controller(controller), m_store(store),
      m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    connect(controller, &LoadTesterController::statusUpdated, this, [this] { record(); });
}

void LoadTesterSeriesRecorder::record()
{
    const qint64 now = m_clock();
    for (LoadTesterField field : {LoadTesterField::Rate, LoadTesterField::InflightLimit, LoadTesterField::Inflight,
                                  LoadTesterField::Pending, LoadTesterField::Paused}) {
        // The sum over the replicas is only known when every replica answered: leaving one
        // out would draw a drop by a third that never happened. Paused is known as soon as
        // one answering replica is paused.
        std::optional<double> total;
        bool everyReplicaAnswered = true;
        for (int r = 0; r < m_controller->replicaCount(); ++r) {
            const auto status = m_controller->status(r);
            const auto value =
                status && !m_controller->statusError(r) ? LoadTesterSeries::valueOf(field, *status) : std::nullopt;
            if (!value) {
                everyReplicaAnswered = false;
                continue;
            }
            total = field == LoadTesterField::Paused ? std::max(total.value_or(0), *value) : total.value_or(0) + *value;
        }
        const bool pausedKnown = field == LoadTesterField::Paused && total == 1.0;
        if (!everyReplicaAnswered && !pausedKnown)
            continue;
        if (!total)
            continue;
        const std::vector<qint64> times{now};
        const std::vector<double> values{*total};
        m_store->merge(LoadTesterFields::storeKey(field), {}, times, values);
    }
}
