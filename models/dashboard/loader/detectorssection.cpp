// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loader/detectorssection.h"

#include <QJsonArray>
#include <cmath>

namespace {

// A bound that lets any finite number through (a detector's floor or threshold).
constexpr double kUnbounded = 1e300;

} // namespace

void DetectorsSection::read(const QJsonValue &value, DashboardDefinition &dashboard)
{
    const QString path = QStringLiteral("detectors");
    if (value.isUndefined())
        return;
    if (!value.isArray()) {
        m_json.issue(path, QStringLiteral(
                               "must be an array such as [{\"kind\": \"throughputDrop\", \"series\": \"completed\"}]"));
        return;
    }
    QStringList ids;
    for (const PanelDefinition &panel : dashboard.panels) {
        for (const SeriesDefinition &series : panel.series) {
            if (!series.id.isEmpty() && !ids.contains(series.id))
                ids.append(series.id);
        }
    }
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString itemPath = JsonSection::index(path, i);
        if (!array[i].isObject()) {
            m_json.issue(itemPath, QStringLiteral("must be an object; detector dropped"));
            continue;
        }
        if (auto detector = readDetector(array[i].toObject(), itemPath, ids))
            dashboard.detectors.push_back(std::move(*detector));
    }
}

std::optional<DetectorDefinition> DetectorsSection::readDetector(const QJsonObject &object, const QString &path,
                                                                 const QStringList &ids)
{
    using Kind = DetectorDefinition::Kind;
    DetectorDefinition detector;
    const QString kindPath = JsonSection::join(path, QStringLiteral("kind"));
    const QJsonValue kind = object.value(QStringLiteral("kind"));
    bool known = false;
    for (Kind candidate : {Kind::ThroughputDrop, Kind::TargetDown, Kind::BacklogGrowsWhileFlat, Kind::RateAbove}) {
        if (kind.isString() &&
            kind.toString().compare(DetectorDefinition::kindName(candidate), Qt::CaseInsensitive) == 0) {
            detector.kind = candidate;
            known = true;
        }
    }
    if (!known) {
        m_json.issue(kindPath,
                     QStringLiteral("%1; must be one of %2; detector dropped")
                         .arg(kind.isUndefined() ? QStringLiteral("missing")
                                                 : JsonSection::describe(kind) + QStringLiteral(" is not a detector"),
                              DetectorDefinition::kindNames().join(QStringLiteral(", "))));
        return std::nullopt;
    }
    bool usable = true;
    const auto seriesId = [&](const char *key, QString *out) {
        const QString keyPath = JsonSection::join(path, QLatin1String(key));
        const QJsonValue id = object.value(QLatin1String(key));
        if (!id.isString() || id.toString().isEmpty()) {
            m_json.issue(keyPath,
                         QStringLiteral("%1; must be the id of a series; detector dropped")
                             .arg(id.isUndefined() ? QStringLiteral("missing")
                                                   : JsonSection::describe(id) + QStringLiteral(" is not an id")));
            usable = false;
        } else if (!ids.contains(id.toString())) {
            m_json.issue(keyPath, QStringLiteral("no series has the id \"%1\" (ids: %2); detector dropped")
                                      .arg(id.toString(),
                                           ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", "))));
            usable = false;
        } else {
            *out = id.toString();
        }
    };
    // A number in (min, max]; an issue and the default otherwise.
    const auto number = [&](const char *key, double minExclusive, double maxInclusive, double *out) {
        const QJsonValue v = object.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        const double n = v.toDouble();
        if (v.isDouble() && std::isfinite(n) && n > minExclusive && n <= maxInclusive) {
            *out = n;
            return;
        }
        const QString range = minExclusive <= -kUnbounded ? QString()
                              : maxInclusive >= kUnbounded
                                  ? QStringLiteral(" above %1").arg(minExclusive)
                                  : QStringLiteral(" above %1 and at most %2").arg(minExclusive).arg(maxInclusive);
        m_json.issue(JsonSection::join(path, QLatin1String(key)),
                     QStringLiteral("%1 must be a number%2; using %3")
                         .arg(JsonSection::describe(v), range, QString::number(*out)));
    };
    DetectorThresholds &t = detector.thresholds;
    switch (detector.kind) {
    case Kind::ThroughputDrop: {
        m_json.checkKeys(object, path, {"kind", "series", "dropPercent", "withinSeconds", "floor"});
        seriesId("series", &detector.series);
        number("dropPercent", 0, 100, &t.dropPercent);
        double seconds = double(t.dropWithinMs) / 1000;
        number("withinSeconds", 0, 86400, &seconds);
        t.dropWithinMs = std::llround(seconds * 1000);
        number("floor", -kUnbounded, kUnbounded, &t.dropFloor);
        break;
    }
    case Kind::TargetDown:
        m_json.checkKeys(object, path, {"kind", "series"});
        seriesId("series", &detector.series);
        break;
    case Kind::BacklogGrowsWhileFlat: {
        m_json.checkKeys(object, path, {"kind", "backlog", "throughput", "minutes", "flatPercent"});
        seriesId("backlog", &detector.backlog);
        seriesId("throughput", &detector.throughput);
        double minutes = double(t.backlogGrowthMs) / 60'000;
        number("minutes", 0, 24 * 60, &minutes);
        t.backlogGrowthMs = std::llround(minutes * 60'000);
        number("flatPercent", 0, 100, &t.flatPercent);
        break;
    }
    case Kind::RateAbove:
        m_json.checkKeys(object, path, {"kind", "series", "threshold"});
        seriesId("series", &detector.series);
        number("threshold", -kUnbounded, kUnbounded, &t.rateAbove);
        break;
    }
    if (!usable)
        return std::nullopt;
    return detector;
}
