// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/querymarks.h"

#include "base/format.h"
#include "prometheus/legendformatter.h"

#include <cmath>

namespace {

bool isOn(double value)
{
    return std::isfinite(value) && value != 0;
}

} // namespace

QueryMarks::QueryMarks(AnnotationQueryDefinition definition, QMap<QString, QString> labels, qint64 gapMs)
    : m_definition(std::move(definition)), m_labels(std::move(labels)), m_gapMs(gapMs)
{}

QString QueryMarks::words(const AnnotationQueryDefinition &definition, const QMap<QString, QString> &labels,
                          double value, const QString &change)
{
    QMap<QString, QString> fields = labels;
    fields.insert(QStringLiteral("value"), Format::number(value));
    QString title = definition.title.isEmpty()
                        ? QStringLiteral("%1 %2").arg(definition.name, LegendFormatter::format({}, labels)).trimmed()
                        : LegendFormatter::format(definition.title, fields).trimmed();
    if (!change.isEmpty())
        title += QLatin1Char(' ') + change;
    if (!definition.text.isEmpty())
        title += QStringLiteral(": ") + LegendFormatter::format(definition.text, fields).trimmed();
    return title;
}

Annotation QueryMarks::mark(qint64 timeMs, double value, const QString &change) const
{
    Annotation annotation;
    annotation.timeMs = timeMs;
    annotation.text = words(m_definition, m_labels, value, change);
    annotation.source = Annotation::Source::Query;
    annotation.author = m_definition.name;
    annotation.tags << m_definition.name;
    for (const QString &label : m_definition.tagLabels) {
        const QString tag = m_labels.value(label);
        if (!tag.isEmpty() && !annotation.tags.contains(tag))
            annotation.tags << tag;
    }
    return annotation;
}

void QueryMarks::feed(std::span<const qint64> timestampsMs, std::span<const double> values, const Add &add,
                      const Update &update)
{
    using Mode = AnnotationQueryDefinition::Mode;
    const std::size_t n = std::min(timestampsMs.size(), values.size());
    for (std::size_t i = 0; i < n; ++i) {
        const qint64 t = timestampsMs[i];
        const double v = values[i];
        if (t <= m_lastMs)
            continue; // fed before, by an overlapping fetch
        const bool after = m_lastMs != std::numeric_limits<qint64>::min();
        const bool gap = after && t - m_lastMs > m_gapMs;
        const bool wasOn = after && !gap && isOn(m_lastValue);
        switch (m_definition.mode) {
        case Mode::Points:
            if (isOn(v) && !wasOn)
                add(mark(t, v));
            break;
        case Mode::Regions:
            if (m_open && (gap || !isOn(v)))
                m_open.reset(); // it ended at its last non-zero sample, where it was drawn to
            if (isOn(v) && m_open) {
                m_open->endMs = t;
                update(*m_open);
            } else if (isOn(v)) {
                Annotation region = mark(t, v);
                region.endMs = t;
                region.id = add(region);
                m_open = region;
            }
            break;
        case Mode::Changes:
            if (after && !gap && std::isfinite(v) && std::isfinite(m_lastValue) && v != m_lastValue) {
                add(mark(t, v, QStringLiteral("%1 → %2").arg(Format::number(m_lastValue), Format::number(v))));
            }
            break;
        }
        m_lastMs = t;
        m_lastValue = v;
    }
}
