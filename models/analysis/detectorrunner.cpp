// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/detectorrunner.h"

#include "annotations/annotationmodel.h"
#include "fetching/derivedseriesupdater.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <algorithm>
#include <cstdlib>

namespace {

constexpr int kDefaultDelayMs = 1000;

// The series' own name when its legend is a plain text; a template ("{{pod}}") names many.
QString displayName(const SeriesDefinition &series)
{
    if (!series.legend.isEmpty() && !series.legend.contains(QStringLiteral("{{")))
        return series.legend;
    return series.id;
}

// How a value's unit follows it in a sentence: "rose to 12/s", "to 7%", "to 3 s".
QString unitAfterNumber(const QString &axisUnit)
{
    if (axisUnit == QLatin1String("ops/s"))
        return QStringLiteral("/s");
    if (axisUnit.isEmpty() || axisUnit == QLatin1String("%"))
        return axisUnit;
    return QLatin1Char(' ') + axisUnit;
}

} // namespace

DetectorRunner::DetectorRunner(SampleStore *store, AnnotationModel *annotations, QObject *parent)
    : QObject(parent), m_store(store), m_annotations(annotations)
{
    m_delay.setSingleShot(true);
    m_delay.setInterval(kDefaultDelayMs);
    connect(&m_delay, &QTimer::timeout, this, [this] { run(); });
    connect(store, &SampleStore::samplesChanged, this,
            [this](const QString &key, const TimeRange &) { onSamplesChanged(key); });
}

void DetectorRunner::setDashboard(const DashboardDefinition &dashboard)
{
    const QHash<QString, QString> keyOfId = DerivedSeriesUpdater::storeKeysById(dashboard);
    const auto describe = [&](const QString &id, Input &input) {
        for (const PanelDefinition &panel : dashboard.panels) {
            for (const SeriesDefinition &series : panel.series) {
                if (series.id == id) {
                    input.name = displayName(series);
                    input.unit = unitAfterNumber(series.axis == AxisSide::Right ? panel.rightUnit : panel.unit);
                    return;
                }
            }
        }
        input.name = id;
    };
    m_inputs.clear();
    for (const DetectorDefinition &detector : dashboard.detectors) {
        Input input{detector, {}, {}, {}, {}};
        const bool backlog = detector.kind == DetectorDefinition::Kind::BacklogGrowsWhileFlat;
        const QString id = backlog ? detector.backlog : detector.series;
        input.seriesKey = keyOfId.value(id);
        if (backlog)
            input.throughputKey = keyOfId.value(detector.throughput);
        describe(id, input);
        if (input.seriesKey.isEmpty() || (backlog && input.throughputKey.isEmpty()))
            continue; // the loader reported the unknown id
        m_inputs.push_back(std::move(input));
    }
    if (!m_inputs.empty())
        m_delay.start(); // a recording's series are already in the store
}

void DetectorRunner::onSamplesChanged(const QString &key)
{
    if (isInput(key))
        m_delay.start();
}

bool DetectorRunner::isInput(const QString &key) const
{
    // Any series of an input's query: a target-down detector reads every one of them.
    return std::any_of(m_inputs.begin(), m_inputs.end(), [&](const Input &input) {
        return SeriesKey::matches(input.seriesKey, key) || SeriesKey::matches(input.throughputKey, key);
    });
}

QStringList DetectorRunner::resolveAll(const QString &reference) const
{
    return SeriesKey::resolveAll(*m_store, reference);
}

QString DetectorRunner::resolve(const QString &reference) const
{
    // As the derived series do: a query meant to give one series, its first.
    return SeriesKey::resolveFirst(*m_store, reference);
}

std::vector<DetectorSuggestion> DetectorRunner::findings(const Input &input) const
{
    using Kind = DetectorDefinition::Kind;
    const DetectorThresholds &thresholds = input.definition.thresholds;
    if (input.definition.kind == Kind::TargetDown) {
        // An `up` query gives one series per target: each is watched on its own.
        std::vector<DetectorSuggestion> all;
        for (const QString &key : resolveAll(input.seriesKey)) {
            const SampleStore::Series *up = m_store->series(key);
            const QString target =
                up->labels().value(QStringLiteral("instance"), up->labels().value(QStringLiteral("job"), input.name));
            for (DetectorSuggestion &s : Detectors::targetUpDown(up->timestampsMs(), up->values(), target))
                all.push_back(std::move(s));
        }
        return all;
    }
    const SampleStore::Series *series = m_store->series(resolve(input.seriesKey));
    if (!series || series->isEmpty())
        return {};
    switch (input.definition.kind) {
    case Kind::ThroughputDrop:
        return Detectors::throughputDrops(series->timestampsMs(), series->values(), input.name, thresholds);
    case Kind::RateAbove:
        return Detectors::rateAbove(series->timestampsMs(), series->values(), input.name, input.unit, thresholds);
    case Kind::BacklogGrowsWhileFlat: {
        const SampleStore::Series *throughput = m_store->series(resolve(input.throughputKey));
        if (!throughput || throughput->isEmpty())
            return {};
        return Detectors::backlogGrowsWhileFlat(series->timestampsMs(), series->values(), throughput->timestampsMs(),
                                                throughput->values(), thresholds);
    }
    case Kind::TargetDown:
        break;
    }
    return {};
}

int DetectorRunner::run()
{
    int added = 0;
    for (std::size_t i = 0; i < m_inputs.size(); ++i) {
        for (const DetectorSuggestion &suggestion : findings(m_inputs[i]))
            added += offer(i, suggestion) ? 1 : 0;
    }
    emit ran(added);
    return added;
}

bool DetectorRunner::isSameEvent(const Annotation &offered, std::size_t input,
                                 const DetectorSuggestion &suggestion) const
{
    if (offered.source != Annotation::Source::Detector || !offered.tags.contains(suggestion.detector))
        return false;
    const bool target =
        suggestion.detector == QLatin1String("target-down") || suggestion.detector == QLatin1String("target-up");
    if (target && offered.text != suggestion.text)
        return false; // another target
    const qint64 tolerance = suggestion.detector == QLatin1String("throughput-drop")
                                 ? m_inputs[input].definition.thresholds.dropWithinMs
                                 : 0;
    return std::abs(offered.timeMs - suggestion.timeMs) <= tolerance;
}

bool DetectorRunner::offer(std::size_t input, const DetectorSuggestion &suggestion)
{
    for (const Offered &offered : m_offered) {
        if (offered.input != input || !isSameEvent(offered.annotation, input, suggestion))
            continue;
        // Still only a suggestion: a region follows the backlog as it grows.
        if (const std::optional<Annotation> shown = m_annotations->find(offered.annotation.id);
            shown && shown->suggested && suggestion.endMs &&
            (shown->endMs != suggestion.endMs || shown->text != suggestion.text)) {
            Annotation grown = *shown;
            grown.endMs = suggestion.endMs;
            grown.text = suggestion.text;
            m_annotations->update(grown);
        }
        return false; // offered before: still there, accepted or dismissed
    }
    // Already on the timeline without being offered in this run: a recording's suggestions.
    for (const Annotation &existing : m_annotations->annotations()) {
        if (isSameEvent(existing, input, suggestion)) {
            m_offered.push_back({input, existing});
            return false;
        }
    }
    Annotation annotation;
    annotation.timeMs = suggestion.timeMs;
    annotation.endMs = suggestion.endMs;
    annotation.text = suggestion.text;
    annotation.tags = {suggestion.detector};
    annotation.source = Annotation::Source::Detector;
    annotation.suggested = true;
    annotation.id = m_annotations->add(annotation);
    m_offered.push_back({input, annotation});
    return true;
}
