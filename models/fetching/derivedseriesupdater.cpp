// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/derivedseriesupdater.h"

#include "dashboard/loadtesterfield.h"
#include "dashboard/seriesreference.h"
#include "store/derivedseries.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <QHash>
#include <algorithm>

namespace {

constexpr int kMaxDepth = 4;

// The typical spacing of a series' recent samples: the tolerance for pairing it with others.
qint64 typicalSpacingMs(std::span<const qint64> timestamps)
{
    const std::size_t n = std::min<std::size_t>(timestamps.size(), 17);
    if (n < 2)
        return 0;
    std::vector<qint64> deltas;
    deltas.reserve(n - 1);
    for (std::size_t i = timestamps.size() - n + 1; i < timestamps.size(); ++i)
        deltas.push_back(timestamps[i] - timestamps[i - 1]);
    std::nth_element(deltas.begin(), deltas.begin() + std::ptrdiff_t(deltas.size() / 2), deltas.end());
    return deltas[deltas.size() / 2];
}

} // namespace

DerivedSeriesUpdater::DerivedSeriesUpdater(SampleStore *store, QObject *parent) : QObject(parent), m_store(store)
{
    connect(store, &SampleStore::samplesChanged, this, &DerivedSeriesUpdater::onSamplesChanged);
}

QString DerivedSeriesUpdater::storeKey(int panel, int query)
{
    return SeriesKey::derived(panel, query);
}

QHash<QString, QString> DerivedSeriesUpdater::storeKeysById(const DashboardDefinition &dashboard)
{
    QHash<QString, QString> keyOfId;
    for (int p = int(dashboard.panels.size()) - 1; p >= 0; --p) { // backwards: the first id wins
        const auto &series = dashboard.panels[std::size_t(p)].series;
        for (int q = int(series.size()) - 1; q >= 0; --q) {
            const SeriesDefinition &definition = series[std::size_t(q)];
            if (definition.id.isEmpty())
                continue;
            keyOfId.insert(definition.id, SeriesReference::of(p, q, definition));
        }
    }
    return keyOfId;
}

void DerivedSeriesUpdater::setDashboard(const DashboardDefinition &dashboard)
{
    const QHash<QString, QString> keyOfId = storeKeysById(dashboard);
    m_derived.clear();
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        const auto &series = dashboard.panels[std::size_t(p)].series;
        for (int q = 0; q < int(series.size()); ++q) {
            const SeriesDefinition &definition = series[std::size_t(q)];
            if (definition.derive.isEmpty())
                continue;
            const Result<DerivedExpression> expression = DerivedExpression::parse(definition.derive);
            if (!expression)
                continue; // the loader reported it
            Derived derived{storeKey(p, q), expression.value(), {}};
            for (const QString &name : expression->inputs())
                derived.inputKeys.append(keyOfId.value(definition.deriveInputs.value(name, name)));
            if (!derived.inputKeys.contains(QString()))
                m_derived.push_back(std::move(derived));
        }
    }
}

QString DerivedSeriesUpdater::resolve(const QString &reference) const
{
    // A formula reads one value of each input: of a query's series, the first.
    return SeriesKey::resolveFirst(*m_store, reference);
}

void DerivedSeriesUpdater::onSamplesChanged(const QString &key, const TimeRange &span)
{
    if (m_depth >= kMaxDepth)
        return;
    for (const Derived &derived : m_derived) {
        const bool isInput = std::any_of(derived.inputKeys.begin(), derived.inputKeys.end(), [&](const QString &input) {
            return SeriesKey::matches(input, key) && (!SeriesKey::isPrefix(input) || resolve(input) == key);
        });
        if (isInput)
            recompute(derived, span.startMs);
    }
}

void DerivedSeriesUpdater::recomputeAll()
{
    for (const Derived &derived : m_derived)
        recompute(derived, std::numeric_limits<qint64>::min());
}

void DerivedSeriesUpdater::recompute(const Derived &derived, qint64 fromMs)
{
    std::vector<DerivedSeries::Input> inputs;
    qint64 toleranceMs = 0;
    for (const QString &input : derived.inputKeys) {
        const SampleStore::Series *series = m_store->series(resolve(input));
        if (!series || series->isEmpty())
            return; // drawn only where every input has samples
        inputs.push_back({series->timestampsMs(), series->values()});
        toleranceMs = std::max(toleranceMs, typicalSpacingMs(series->timestampsMs()));
    }
    // A changed input sample moves the result within one tolerance of it.
    const qint64 from = fromMs == std::numeric_limits<qint64>::min() ? fromMs : fromMs - toleranceMs;
    const DerivedSeries::Output out = DerivedSeries::compute(derived.expression, inputs, toleranceMs, from);
    if (out.timestampsMs.empty())
        return;
    ++m_depth;
    m_store->merge(derived.key, {}, out.timestampsMs, out.values);
    --m_depth;
}
