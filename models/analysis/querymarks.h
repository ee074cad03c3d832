// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "dashboard/dashboarddefinition.h"

#include <QMap>
#include <QString>
#include <functional>
#include <limits>
#include <optional>
#include <span>

// Turns the samples of one series of an annotation query into marks, as they arrive: fed
// what each fetch brought (in time order, overlapping fetches allowed: what is not newer than
// the last sample fed is skipped), it adds marks and updates the open region through the two
// callbacks. A series that is absent for longer than `gapMs` (a "> 0" filter that no longer
// matches, a scrape that stopped) counts as zero.
//   points:  a mark where the series starts being non-zero: "worker-7d9f restarted"
//   regions: a region while it stays non-zero: "camunda-0 not ready"
//   changes: a mark at each change of value: "worker replicas 3 → 5"
class QueryMarks
{
public:
    using Add = std::function<quint64(const Annotation &)>; // returns the id given
    using Update = std::function<void(const Annotation &)>;

    QueryMarks(AnnotationQueryDefinition definition, QMap<QString, QString> labels, qint64 gapMs);
    void feed(std::span<const qint64> timestampsMs, std::span<const double> values, const Add &add,
              const Update &update);

    // The mark's words for a value: the title template with {{label}} and {{value}} (with no
    // title, the query's name and the series' labels), then `change` ("1 → 3"), then the text
    // template after a colon.
    static QString words(const AnnotationQueryDefinition &definition, const QMap<QString, QString> &labels,
                         double value, const QString &change = {});

private:
    Annotation mark(qint64 timeMs, double value, const QString &change = {}) const;

    AnnotationQueryDefinition m_definition;
    QMap<QString, QString> m_labels;
    qint64 m_gapMs;
    qint64 m_lastMs = std::numeric_limits<qint64>::min();
    double m_lastValue = std::numeric_limits<double>::quiet_NaN();
    std::optional<Annotation> m_open; // the region still growing
};
