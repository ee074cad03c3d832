// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loader/checkssection.h"

#include <QJsonArray>
#include <QJsonObject>
#include <utility>

namespace CheckReader {

std::optional<Check> read(const QJsonValue &value, const QString &path, const QSet<QString> &extraKeys,
                          QList<DashboardIssue> *issues)
{
    if (!value.isObject()) {
        issues->append(
            DashboardIssue{path, QStringLiteral("must be an object with \"name\", \"query\" and \"holds\"")});
        return std::nullopt;
    }
    const QJsonObject object = value.toObject();
    static const QSet<QString> keys{QStringLiteral("name"),  QStringLiteral("query"),  QStringLiteral("series"),
                                    QStringLiteral("holds"), QStringLiteral("for"),    QStringLiteral("severity"),
                                    QStringLiteral("unit"),  QStringLiteral("during"), QStringLiteral("after"),
                                    QStringLiteral("settle")};
    const qsizetype before = issues->size();
    for (const QString &key : object.keys()) {
        if (!keys.contains(key) && !extraKeys.contains(key))
            issues->append(DashboardIssue{path + QLatin1Char('.') + key, QStringLiteral("unknown key")});
    }
    Check check;
    check.query = object.value(QStringLiteral("query")).toString().trimmed();
    check.series = object.value(QStringLiteral("series")).toString().trimmed();
    check.name = object.value(QStringLiteral("name")).toString().trimmed();
    if (check.name.isEmpty())
        check.name = check.query.isEmpty() ? check.series : check.query;
    if (check.query.isEmpty() && check.series.isEmpty())
        issues->append(DashboardIssue{
            path + QStringLiteral(".query"),
            QStringLiteral("missing: the PromQL to judge (or \"series\": the id of a dashboard series)")});
    else if (!check.query.isEmpty() && !check.series.isEmpty())
        issues->append(DashboardIssue{path + QStringLiteral(".series"),
                                      QStringLiteral("a check judges either a \"query\" or a \"series\", not both")});
    const QJsonValue holds = object.value(QStringLiteral("holds"));
    if (const std::optional<CheckCondition> condition = CheckCondition::parse(holds.toString()))
        check.condition = *condition;
    else
        issues->append(DashboardIssue{path + QStringLiteral(".holds"),
                                      holds.isUndefined()
                                          ? QStringLiteral("missing: what must hold, like \"< 5000\"")
                                          : QStringLiteral("must be a comparison with a number: \"< 5000\", "
                                                           "\"<= 0.05\", \"> 180\", \">= 1\"")});
    for (const auto &[key, target] :
         {std::pair{QStringLiteral("for"), &check.forMs}, std::pair{QStringLiteral("after"), &check.graceMs},
          std::pair{QStringLiteral("settle"), &check.settleMs}}) {
        if (!object.contains(key))
            continue;
        if (const std::optional<qint64> ms = JsonSection::offsetOf(object.value(key)))
            *target = *ms;
        else
            issues->append(
                DashboardIssue{path + QLatin1Char('.') + key, QStringLiteral("is not a duration like \"10s\"")});
    }
    const QString severity = object.value(QStringLiteral("severity")).toString(QStringLiteral("critical"));
    if (severity == QLatin1String("warning"))
        check.severity = Check::Severity::Warning;
    else if (severity != QLatin1String("critical"))
        issues->append(
            DashboardIssue{path + QStringLiteral(".severity"), QStringLiteral("must be \"critical\" or \"warning\"")});
    check.unit = object.value(QStringLiteral("unit")).toString();
    const QJsonValue during = object.value(QStringLiteral("during"));
    if (during.isString()) {
        check.during << during.toString();
    } else if (during.isArray()) {
        for (const QJsonValue phase : during.toArray())
            check.during << phase.toString();
    } else if (!during.isUndefined()) {
        issues->append(
            DashboardIssue{path + QStringLiteral(".during"), QStringLiteral("must name phases: [\"overload\", …]")});
    }
    if (issues->size() != before)
        return std::nullopt;
    return check;
}

} // namespace CheckReader

void ChecksSection::read(const QJsonValue &value, DashboardDefinition &dashboard)
{
    if (value.isUndefined())
        return;
    if (!value.isArray()) {
        m_json.issue(QStringLiteral("checks"), QStringLiteral("must be an array of checks"));
        return;
    }
    QStringList ids;
    for (const PanelDefinition &panel : dashboard.panels) {
        for (const SeriesDefinition &series : panel.series) {
            if (!series.id.isEmpty())
                ids << series.id;
        }
    }
    const QJsonArray checks = value.toArray();
    for (qsizetype i = 0; i < checks.size(); ++i) {
        const QString path = JsonSection::index(QStringLiteral("checks"), i);
        QList<DashboardIssue> issues;
        std::optional<Check> check = CheckReader::read(checks[i], path, {}, &issues);
        if (check && !check->series.isEmpty() && !ids.contains(check->series)) {
            issues << DashboardIssue{
                path + QStringLiteral(".series"),
                QStringLiteral("no series has the id \"%1\" (ids: %2)")
                    .arg(check->series, ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", ")))};
            check.reset();
        }
        for (const DashboardIssue &issue : issues)
            m_json.issue(issue.path, issue.message + QStringLiteral("; the check is not judged"));
        if (check)
            dashboard.checks.push_back(std::move(*check));
    }
}
