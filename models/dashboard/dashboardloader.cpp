// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/dashboardloader.h"

#include "base/jsontext.h"
#include "dashboard/dashboardvariables.h"
#include "dashboard/loadtesterfield.h"
#include "store/derivedseries.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QRegularExpression>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>

namespace DashboardLoader {
namespace {

const QString kBuiltinDir = QStringLiteral(":/dashboards");
constexpr qint64 kMaxFileBytes = 16LL * 1024 * 1024;
// Far beyond any sensible window, far below where qint64 milliseconds overflow.
constexpr qint64 kMaxDurationMs = 1'000'000'000'000'000;
constexpr int kMaxColumns = 12;
// A bound that lets any finite number through (a detector's floor or threshold).
constexpr double kUnbounded = 1e300;

QString joinPath(const QString &base, const QString &key)
{
    return base.isEmpty() ? key : base + QLatin1Char('.') + key;
}

QString indexPath(const QString &base, qsizetype index)
{
    return base + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

// How a value appears in a message: strings quoted, numbers as written, others by type.
QString describe(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    case QJsonValue::Double:
        return QString::number(value.toDouble());
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

int editDistance(const QString &a, const QString &b)
{
    std::vector<int> previous(static_cast<std::size_t>(b.size()) + 1);
    std::vector<int> current(previous.size());
    for (std::size_t j = 0; j < previous.size(); ++j)
        previous[j] = static_cast<int>(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = static_cast<int>(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int substitution = a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1;
            const auto uj = static_cast<std::size_t>(j);
            current[uj] = std::min({previous[uj] + 1, current[uj - 1] + 1, previous[uj - 1] + substitution});
        }
        std::swap(previous, current);
    }
    return previous.back();
}

// Walks the JSON tree, filling a definition and collecting issues with their paths.
class DefinitionReader
{
public:
    LoadResult read(const QJsonObject &root)
    {
        LoadResult result;
        result.usable = true;
        readDashboard(root, result.dashboard);
        result.issues = std::move(m_issues);
        return result;
    }

private:
    using Keys = std::initializer_list<const char *>;

    void issue(const QString &path, const QString &message) { m_issues.append(DashboardIssue{path, message}); }

    void checkKeys(const QJsonObject &object, const QString &path, Keys known)
    {
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QString key = it.key();
            const bool isKnown =
                std::any_of(known.begin(), known.end(), [&](const char *k) { return key == QLatin1String(k); });
            if (isKnown)
                continue;
            QString closest;
            int closestDistance = 3; // suggest only when at most two edits away
            QStringList names;
            for (const char *k : known) {
                const QString name = QLatin1String(k);
                names.append(name);
                // The distance is at least the length difference: a long unknown key (a typo is
                // never one) cannot be close, and its O(n*m) distance is not worth computing.
                if (std::abs(key.size() - name.size()) >= closestDistance)
                    continue;
                const int distance = editDistance(key, name);
                if (distance < closestDistance) {
                    closestDistance = distance;
                    closest = name;
                }
            }
            issue(joinPath(path, key),
                  closest.isEmpty()
                      ? QStringLiteral("unknown key, ignored (known keys: %1)").arg(names.join(QStringLiteral(", ")))
                      : QStringLiteral("unknown key, ignored (did you mean \"%1\"?)").arg(closest));
        }
    }

    // The string at object[key]; nullopt (and an issue when present but not a string) else.
    std::optional<QString> readString(const QJsonObject &object, const QString &path, const QString &key)
    {
        const QJsonValue value = object.value(key);
        if (value.isUndefined())
            return std::nullopt;
        if (!value.isString()) {
            issue(joinPath(path, key), QStringLiteral("must be a string"));
            return std::nullopt;
        }
        return value.toString();
    }

    std::optional<qint64> readDuration(const QJsonObject &object, const QString &path, const QString &key)
    {
        const QJsonValue value = object.value(key);
        if (value.isUndefined())
            return std::nullopt;
        qint64 ms = -1;
        if (value.isString()) {
            ms = parseDurationMs(value.toString());
        } else if (value.isDouble()) {
            const double seconds = value.toDouble();
            if (seconds >= 0 && seconds * 1000.0 <= static_cast<double>(kMaxDurationMs))
                ms = std::llround(seconds * 1000.0);
        }
        if (ms < 0) {
            issue(joinPath(path, key), value.isString() || value.isDouble()
                                           ? QStringLiteral("%1 is not a duration").arg(describe(value))
                                           : QStringLiteral("must be a duration such as \"30s\" or \"5m\""));
            return std::nullopt;
        }
        return ms;
    }

    void readDashboard(const QJsonObject &root, DashboardDefinition &dashboard)
    {
        checkKeys(root, {},
                  {"title", "refresh", "window", "columns", "variables", "panels", "loadTester", "detectors"});

        if (auto title = readString(root, {}, QStringLiteral("title")))
            dashboard.title = *title;

        if (auto refreshMs = readDuration(root, {}, QStringLiteral("refresh"))) {
            if (*refreshMs < 1000) {
                issue(QStringLiteral("refresh"), QStringLiteral("%1 is shorter than the minimum of 1s; using 1s")
                                                     .arg(describe(root.value(QStringLiteral("refresh")))));
                dashboard.refreshSeconds = 1;
            } else {
                // Whole seconds; rounded up so that a refresh never comes sooner than asked.
                dashboard.refreshSeconds = static_cast<int>(std::min<qint64>((*refreshMs + 999) / 1000, 24LL * 3600));
            }
        }

        if (auto windowMs = readDuration(root, {}, QStringLiteral("window"))) {
            if (*windowMs <= 0)
                issue(QStringLiteral("window"), QStringLiteral("must be longer than zero"));
            else
                dashboard.windowMs = *windowMs;
        }

        const QJsonValue columns = root.value(QStringLiteral("columns"));
        if (!columns.isUndefined()) {
            const double n = columns.toDouble(-1);
            if (!columns.isDouble() || n != std::floor(n) || n < 1 || n > kMaxColumns)
                issue(QStringLiteral("columns"),
                      QStringLiteral("must be a whole number from 1 to %1").arg(kMaxColumns));
            else
                dashboard.columns = static_cast<int>(n);
        }

        readVariables(root.value(QStringLiteral("variables")), dashboard.variableDefinitions);
        readLoadTester(root.value(QStringLiteral("loadTester")), dashboard.loadTester);
        readPanels(root.value(QStringLiteral("panels")), dashboard.panels);
        checkDerivedInputs(dashboard);
        readDetectors(root.value(QStringLiteral("detectors")), dashboard);
    }

    // "detectors": [{"kind": "throughputDrop", "series": "completed", "dropPercent": 30}, ...]
    // A detector without a usable kind or series is dropped; a bad threshold keeps its default.
    void readDetectors(const QJsonValue &value, DashboardDefinition &dashboard)
    {
        const QString path = QStringLiteral("detectors");
        if (value.isUndefined())
            return;
        if (!value.isArray()) {
            issue(path, QStringLiteral(
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
            const QString itemPath = indexPath(path, i);
            if (!array[i].isObject()) {
                issue(itemPath, QStringLiteral("must be an object; detector dropped"));
                continue;
            }
            if (auto detector = readDetector(array[i].toObject(), itemPath, ids))
                dashboard.detectors.push_back(std::move(*detector));
        }
    }

    std::optional<DetectorDefinition> readDetector(const QJsonObject &object, const QString &path,
                                                   const QStringList &ids)
    {
        using Kind = DetectorDefinition::Kind;
        DetectorDefinition detector;
        const QString kindPath = joinPath(path, QStringLiteral("kind"));
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
            issue(kindPath, QStringLiteral("%1; must be one of %2; detector dropped")
                                .arg(kind.isUndefined() ? QStringLiteral("missing")
                                                        : describe(kind) + QStringLiteral(" is not a detector"),
                                     DetectorDefinition::kindNames().join(QStringLiteral(", "))));
            return std::nullopt;
        }
        bool usable = true;
        const auto seriesId = [&](const char *key, QString *out) {
            const QString keyPath = joinPath(path, QLatin1String(key));
            const QJsonValue id = object.value(QLatin1String(key));
            if (!id.isString() || id.toString().isEmpty()) {
                issue(keyPath, QStringLiteral("%1; must be the id of a series; detector dropped")
                                   .arg(id.isUndefined() ? QStringLiteral("missing")
                                                         : describe(id) + QStringLiteral(" is not an id")));
                usable = false;
            } else if (!ids.contains(id.toString())) {
                issue(keyPath,
                      QStringLiteral("no series has the id \"%1\" (ids: %2); detector dropped")
                          .arg(id.toString(), ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", "))));
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
            issue(joinPath(path, QLatin1String(key)),
                  QStringLiteral("%1 must be a number%2; using %3").arg(describe(v), range, QString::number(*out)));
        };
        DetectorThresholds &t = detector.thresholds;
        switch (detector.kind) {
        case Kind::ThroughputDrop: {
            checkKeys(object, path, {"kind", "series", "dropPercent", "withinSeconds", "floor"});
            seriesId("series", &detector.series);
            number("dropPercent", 0, 100, &t.dropPercent);
            double seconds = double(t.dropWithinMs) / 1000;
            number("withinSeconds", 0, 86400, &seconds);
            t.dropWithinMs = std::llround(seconds * 1000);
            number("floor", -kUnbounded, kUnbounded, &t.dropFloor);
            break;
        }
        case Kind::TargetDown:
            checkKeys(object, path, {"kind", "series"});
            seriesId("series", &detector.series);
            break;
        case Kind::BacklogGrowsWhileFlat: {
            checkKeys(object, path, {"kind", "backlog", "throughput", "minutes", "flatPercent"});
            seriesId("backlog", &detector.backlog);
            seriesId("throughput", &detector.throughput);
            double minutes = double(t.backlogGrowthMs) / 60'000;
            number("minutes", 0, 24 * 60, &minutes);
            t.backlogGrowthMs = std::llround(minutes * 60'000);
            number("flatPercent", 0, 100, &t.flatPercent);
            break;
        }
        case Kind::RateAbove:
            checkKeys(object, path, {"kind", "series", "threshold"});
            seriesId("series", &detector.series);
            number("threshold", -kUnbounded, kUnbounded, &t.rateAbove);
            break;
        }
        if (!usable)
            return std::nullopt;
        return detector;
    }

    void readLoadTester(const QJsonValue &value, LoadTesterDefinition &loadTester)
    {
        const QString path = QStringLiteral("loadTester");
        if (value.isUndefined())
            return;
        if (!value.isObject()) {
            issue(path,
                  QStringLiteral(
                      "must be an object such as {\"kind\": \"starter\", \"admin\": [\"http://127.0.0.1:9091\"]}"));
            return;
        }
        const QJsonObject object = value.toObject();
        checkKeys(object, path, {"kind", "admin", "discover", "tokenFile", "tokenEnv", "spawnRate"});
        if (object.contains(QStringLiteral("token")) || object.contains(QStringLiteral("adminToken")))
            issue(path, QStringLiteral("a token is never kept in a dashboard file; name a "
                                       "\"tokenFile\" or \"tokenEnv\" instead"));
        if (auto kind = readString(object, path, QStringLiteral("kind"))) {
            const QString name = kind->toLower();
            if (name == QLatin1String("starter") || name == QLatin1String("locust") || name == QLatin1String("k6"))
                loadTester.kind = name;
            else
                issue(joinPath(path, QStringLiteral("kind")),
                      QStringLiteral("%1 must be \"starter\", \"locust\" or \"k6\"").arg(describe(QJsonValue(*kind))));
        }
        const QJsonValue admin = object.value(QStringLiteral("admin"));
        const QString adminPath = joinPath(path, QStringLiteral("admin"));
        const QJsonArray urls = admin.isString() ? QJsonArray{admin} : admin.toArray();
        if (!admin.isUndefined() && !admin.isString() && !admin.isArray())
            issue(adminPath, QStringLiteral("must be a URL or an array of URLs"));
        for (int i = 0; i < urls.size(); ++i) {
            const QString itemPath = admin.isString() ? adminPath : QStringLiteral("%1[%2]").arg(adminPath).arg(i);
            const QUrl url(urls[i].toString(), QUrl::StrictMode);
            if (!urls[i].isString() || !url.isValid() || url.host().isEmpty() ||
                (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
                issue(itemPath, QStringLiteral("%1 is not an http(s) URL").arg(describe(urls[i])));
            else
                loadTester.adminUrls.append(url.toString());
        }
        const QJsonValue discover = object.value(QStringLiteral("discover"));
        const QString discoverPath = joinPath(path, QStringLiteral("discover"));
        if (discover.isObject()) {
            const QJsonObject d = discover.toObject();
            checkKeys(d, discoverPath, {"job", "scheme"});
            if (auto job = readString(d, discoverPath, QStringLiteral("job")))
                loadTester.discoverJob = job->trimmed();
            if (auto scheme = readString(d, discoverPath, QStringLiteral("scheme"))) {
                if (*scheme == QLatin1String("http") || *scheme == QLatin1String("https"))
                    loadTester.discoverScheme = *scheme;
                else
                    issue(joinPath(discoverPath, QStringLiteral("scheme")),
                          QStringLiteral("must be \"http\" or \"https\""));
            }
            if (loadTester.discoverJob.isEmpty())
                issue(joinPath(discoverPath, QStringLiteral("job")),
                      QStringLiteral("missing: the Prometheus job whose targets are the replicas"));
        } else if (!discover.isUndefined()) {
            issue(discoverPath, QStringLiteral("must be an object such as {\"job\": \"starter\"}"));
        }
        if (object.contains(QStringLiteral("spawnRate"))) {
            const QString spawnPath = joinPath(path, QStringLiteral("spawnRate"));
            const QJsonValue spawn = object.value(QStringLiteral("spawnRate"));
            if (!spawn.isDouble() || !(spawn.toDouble() > 0) || spawn.toDouble() > 1e6)
                issue(spawnPath,
                      QStringLiteral("%1 must be a number of users per second above 0").arg(describe(spawn)));
            else if (loadTester.kind != QLatin1String("locust"))
                issue(spawnPath, QStringLiteral("is for Locust (\"kind\": \"locust\"): the other load testers start "
                                                "what they are told at once"));
            else
                loadTester.spawnRate = spawn.toDouble();
        }
        if (auto file = readString(object, path, QStringLiteral("tokenFile")))
            loadTester.tokenFile = *file;
        if (auto env = readString(object, path, QStringLiteral("tokenEnv"))) {
            static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
            if (envName.match(*env).hasMatch())
                loadTester.tokenEnv = *env;
            else
                issue(joinPath(path, QStringLiteral("tokenEnv")),
                      QStringLiteral("%1 is not an environment variable name").arg(describe(QJsonValue(*env))));
        }
    }

    // "variables": {"job": "starter", "namespace": {"labelValues": {...}, "default": "x"}}, or
    // the same as an array of objects with a "name", which keeps the toolbar in file order.
    void readVariables(const QJsonValue &value, std::vector<VariableDefinition> &variables)
    {
        const QString path = QStringLiteral("variables");
        if (value.isUndefined())
            return;
        std::vector<std::pair<QString, QJsonValue>> entries; // path, definition
        if (value.isObject()) {
            const QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it)
                entries.emplace_back(it.key(), it.value());
        } else if (value.isArray()) {
            const QJsonArray array = value.toArray();
            for (qsizetype i = 0; i < array.size(); ++i) {
                const QString itemPath = indexPath(path, i);
                const QJsonObject item = array[i].toObject();
                if (!array[i].isObject() || !item.value(QStringLiteral("name")).isString()) {
                    issue(joinPath(itemPath, QStringLiteral("name")),
                          QStringLiteral("missing; each variable of the array needs a \"name\""));
                    continue;
                }
                entries.emplace_back(item.value(QStringLiteral("name")).toString(), item);
            }
        } else {
            issue(path, QStringLiteral("must be an object of names and values"));
            return;
        }
        for (qsizetype i = 0; i < qsizetype(entries.size()); ++i) {
            const auto &[name, definition] = entries[std::size_t(i)];
            const QString variablePath = value.isArray() ? indexPath(path, i) : joinPath(path, name);
            if (!DashboardVariables::isValidName(name)) {
                issue(variablePath, QStringLiteral("is not a variable name (letters, digits and _, not "
                                                   "starting with a digit or __, without the $)"));
                continue;
            }
            if (DashboardVariables::find(variables, name)) {
                issue(variablePath, QStringLiteral("\"%1\" is declared twice; the first one is used").arg(name));
                continue;
            }
            if (auto variable = readVariable(name, definition, variablePath, value.isArray()))
                variables.push_back(std::move(*variable));
        }
        for (const VariableDefinition &variable : variables)
            m_declaredVariables.append(variable.name);
    }

    std::optional<VariableDefinition> readVariable(const QString &name, const QJsonValue &value, const QString &path,
                                                   bool inArray)
    {
        VariableDefinition variable;
        variable.name = name;
        if (value.isString()) { // the first syntax: a fixed value
            variable.value = value.toString();
            return variable;
        }
        if (!value.isObject()) {
            issue(path, QStringLiteral("must be a string (a fixed value) or an object with \"values\" or "
                                       "\"labelValues\""));
            return std::nullopt;
        }
        const QJsonObject object = value.toObject();
        if (inArray)
            checkKeys(object, path, {"name", "title", "values", "labelValues", "default", "includeAll"});
        else
            checkKeys(object, path, {"title", "values", "labelValues", "default", "includeAll"});
        if (auto title = readString(object, path, QStringLiteral("title")))
            variable.title = *title;
        const QJsonValue includeAll = object.value(QStringLiteral("includeAll"));
        if (includeAll.isBool())
            variable.includeAll = includeAll.toBool();
        else if (!includeAll.isUndefined())
            issue(joinPath(path, QStringLiteral("includeAll")), QStringLiteral("must be true or false"));

        const QJsonValue values = object.value(QStringLiteral("values"));
        const QString valuesPath = joinPath(path, QStringLiteral("values"));
        if (values.isArray()) {
            const QJsonArray array = values.toArray();
            for (qsizetype i = 0; i < array.size(); ++i) {
                if (array[i].isString())
                    variable.choices.append(array[i].toString());
                else
                    issue(indexPath(valuesPath, i), QStringLiteral("must be a string"));
            }
            variable.choices.removeDuplicates();
            if (variable.choices.isEmpty())
                issue(valuesPath, QStringLiteral("has no value to choose from"));
        } else if (!values.isUndefined()) {
            issue(valuesPath, QStringLiteral("must be an array of strings such as [\"1\", \"2\"]"));
        }

        const QJsonValue labelValues = object.value(QStringLiteral("labelValues"));
        const QString labelPath = joinPath(path, QStringLiteral("labelValues"));
        if (labelValues.isObject()) {
            const QJsonObject label = labelValues.toObject();
            checkKeys(label, labelPath, {"label", "match"});
            static const QRegularExpression labelName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
            const QJsonValue labelValue = label.value(QStringLiteral("label"));
            if (labelValue.isUndefined())
                issue(joinPath(labelPath, QStringLiteral("label")), QStringLiteral("missing"));
            else if (!labelValue.isString() || !labelName.match(labelValue.toString()).hasMatch())
                issue(joinPath(labelPath, QStringLiteral("label")),
                      QStringLiteral("%1 is not a label name").arg(describe(labelValue)));
            else
                variable.labelName = labelValue.toString();
            if (auto match = readString(label, labelPath, QStringLiteral("match")))
                variable.labelMatch = match->trimmed();
            if (!variable.choices.isEmpty() && !variable.labelName.isEmpty()) {
                issue(path, QStringLiteral("has both \"values\" and \"labelValues\"; the fixed values are used"));
                variable.labelName.clear();
                variable.labelMatch.clear();
            }
        } else if (!labelValues.isUndefined()) {
            issue(labelPath, QStringLiteral("must be an object such as {\"label\": \"namespace\", \"match\": \"up\"}"));
        }

        if (auto fallback = readString(object, path, QStringLiteral("default")))
            variable.value = *fallback == QLatin1String("$__all") ? DashboardVariables::kAllValue : *fallback;
        else if (variable.includeAll)
            variable.value = DashboardVariables::kAllValue;
        else if (!variable.choices.isEmpty())
            variable.value = variable.choices.first();
        // A label-values variable without a default takes the first value Prometheus lists.
        if (!variable.isChoosable() && !object.contains(QStringLiteral("default"))) {
            issue(path, QStringLiteral("needs \"default\", \"values\" or \"labelValues\"; variable dropped"));
            return std::nullopt;
        }
        return variable;
    }

    // Every $name a query uses must be declared: an undeclared one would reach Prometheus as
    // written and fail there, far from the typo.
    void checkVariablesOf(const QString &query, const QString &path)
    {
        QStringList undeclared;
        for (const QString &name : DashboardVariables::referencedNames(query)) {
            if (!m_declaredVariables.contains(name))
                undeclared.append(QLatin1Char('$') + name);
        }
        if (!undeclared.isEmpty())
            issue(path, QStringLiteral("uses %1, not declared in \"variables\" (declared: %2)")
                            .arg(undeclared.join(QStringLiteral(", ")),
                                 m_declaredVariables.isEmpty() ? QStringLiteral("none")
                                                               : m_declaredVariables.join(QStringLiteral(", "))));
    }

    void readPanels(const QJsonValue &value, std::vector<PanelDefinition> &panels)
    {
        const QString path = QStringLiteral("panels");
        if (value.isUndefined()) {
            issue(path, QStringLiteral("missing; the dashboard has no panels"));
            return;
        }
        if (!value.isArray()) {
            issue(path, QStringLiteral("must be an array"));
            return;
        }
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString panelPath = indexPath(path, i);
            if (!array[i].isObject()) {
                issue(panelPath, QStringLiteral("must be an object; panel dropped"));
                continue;
            }
            panels.push_back(readPanel(array[i].toObject(), panelPath));
        }
    }

    PanelDefinition readPanel(const QJsonObject &object, const QString &path)
    {
        checkKeys(object, path, {"title", "unit", "rightUnit", "series"});
        PanelDefinition panel;
        if (auto title = readString(object, path, QStringLiteral("title")))
            panel.title = *title;
        if (auto unit = readString(object, path, QStringLiteral("unit")))
            panel.unit = *unit;
        if (auto rightUnit = readString(object, path, QStringLiteral("rightUnit")))
            panel.rightUnit = *rightUnit;

        const QString seriesPath = joinPath(path, QStringLiteral("series"));
        const QJsonValue series = object.value(QStringLiteral("series"));
        if (series.isUndefined()) {
            issue(seriesPath, QStringLiteral("missing; the panel stays empty"));
            return panel;
        }
        if (!series.isArray()) {
            issue(seriesPath, QStringLiteral("must be an array; the panel stays empty"));
            return panel;
        }
        const QJsonArray array = series.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString itemPath = indexPath(seriesPath, i);
            if (!array[i].isObject()) {
                issue(itemPath, QStringLiteral("must be an object; series dropped"));
                continue;
            }
            if (auto definition = readSeries(array[i].toObject(), itemPath))
                panel.series.push_back(std::move(*definition));
        }
        if (panel.series.empty()) {
            issue(seriesPath, array.isEmpty() ? QStringLiteral("is empty; the panel stays empty")
                                              : QStringLiteral("no usable series; the panel stays empty"));
        }
        return panel;
    }

    // The look of a series: legend, axis, style and colour, the same for every kind of series.
    void readLook(const QJsonObject &object, const QString &path, SeriesDefinition &series)
    {
        if (auto legend = readString(object, path, QStringLiteral("legend")))
            series.legend = *legend;

        if (auto axis = readString(object, path, QStringLiteral("axis"))) {
            const QString side = axis->toLower();
            if (side == QLatin1String("left"))
                series.axis = AxisSide::Left;
            else if (side == QLatin1String("right"))
                series.axis = AxisSide::Right;
            else
                issue(joinPath(path, QStringLiteral("axis")), QStringLiteral("must be \"left\" or \"right\""));
        }

        if (auto style = readString(object, path, QStringLiteral("style"))) {
            const QString name = style->toLower();
            if (name == QLatin1String("line"))
                series.style = SeriesStyle::Line;
            else if (name == QLatin1String("step"))
                series.style = SeriesStyle::Step;
            else if (name == QLatin1String("area"))
                series.style = SeriesStyle::Area;
            else
                issue(joinPath(path, QStringLiteral("style")),
                      QStringLiteral("must be \"line\", \"step\" or \"area\""));
        }

        if (auto color = readString(object, path, QStringLiteral("color"))) {
            static const QRegularExpression rgb(QStringLiteral("^#[0-9A-Fa-f]{6}$"));
            if (rgb.match(*color).hasMatch())
                series.color = color->toUpper();
            else
                issue(joinPath(path, QStringLiteral("color")),
                      QStringLiteral("%1 must be \"#RRGGBB\", e.g. \"#0072B2\"; using the palette")
                          .arg(describe(QJsonValue(*color))));
        }
    }

    // {"derive": "littles_law" | "a / b", "inputs": {"pending": "queueLength", "rate": "completed"}}
    std::optional<SeriesDefinition> readDerived(const QJsonObject &object, const QString &path, SeriesDefinition series)
    {
        const QString derivePath = joinPath(path, QStringLiteral("derive"));
        const QJsonValue derive = object.value(QStringLiteral("derive"));
        if (!derive.isString() || derive.toString().trimmed().isEmpty()) {
            issue(derivePath, QStringLiteral("must be a formula such as \"pending / rate\" or a built-in name (%1)")
                                  .arg(builtinDerivationNames()));
            return std::nullopt;
        }
        QString formula = derive.toString().trimmed();
        if (const DerivedSeries::Builtin *builtin = DerivedSeries::builtin(formula)) {
            formula = QString::fromUtf8(builtin->formula);
            if (!object.contains(QStringLiteral("legend")))
                series.legend = QString::fromUtf8(builtin->title);
        }
        const Result<DerivedExpression> expression = DerivedExpression::parse(formula);
        if (!expression) {
            issue(derivePath, QStringLiteral("%1 (in \"%2\")").arg(expression.error().message, formula));
            return std::nullopt;
        }
        series.derive = formula;
        const QJsonValue inputs = object.value(QStringLiteral("inputs"));
        const QString inputsPath = joinPath(path, QStringLiteral("inputs"));
        if (inputs.isObject()) {
            const QJsonObject map = inputs.toObject();
            for (auto it = map.begin(); it != map.end(); ++it) {
                if (!expression->inputs().contains(it.key()))
                    issue(joinPath(inputsPath, it.key()),
                          QStringLiteral("the formula \"%1\" has no input of that name").arg(formula));
                else if (!it.value().isString())
                    issue(joinPath(inputsPath, it.key()), QStringLiteral("must be the id of a series"));
                else
                    series.deriveInputs.insert(it.key(), it.value().toString());
            }
        } else if (!inputs.isUndefined()) {
            issue(inputsPath, QStringLiteral("must map the formula's names to series ids"));
        }
        for (const QString &name : expression->inputs()) {
            if (!series.deriveInputs.contains(name))
                series.deriveInputs.insert(name, name);
        }
        if (object.contains(QStringLiteral("query")) || object.contains(QStringLiteral("loadTester")))
            issue(path, QStringLiteral("a derived series has no \"query\" or \"loadTester\"; they are ignored"));
        readLook(object, path, series);
        m_derivedPaths.append(path); // in the order they end up in the dashboard
        return series;
    }

    static QString builtinDerivationNames()
    {
        QStringList names;
        for (const DerivedSeries::Builtin &b : DerivedSeries::builtins())
            names.append(QString::fromLatin1(b.name));
        return names.join(QStringLiteral(", "));
    }

    std::optional<SeriesDefinition> readSeries(const QJsonObject &object, const QString &path)
    {
        // Keys are checked even when the series is dropped: a typo such as "qeury" is the
        // likely reason the query is missing, and the suggestion says so.
        checkKeys(object, path, {"query", "loadTester", "id", "derive", "inputs", "legend", "axis", "style", "color"});
        SeriesDefinition series;

        const QString queryPath = joinPath(path, QStringLiteral("query"));
        const QJsonValue query = object.value(QStringLiteral("query"));
        const QJsonValue field = object.value(QStringLiteral("loadTester"));
        bool usable = true;
        if (auto id = readString(object, path, QStringLiteral("id"))) {
            static const QRegularExpression validId(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
            if (validId.match(*id).hasMatch())
                series.id = *id;
            else
                issue(joinPath(path, QStringLiteral("id")),
                      QStringLiteral("%1 is not a name (letters, digits and _, not starting with a digit)")
                          .arg(describe(QJsonValue(*id))));
        }
        if (object.contains(QStringLiteral("derive")))
            return readDerived(object, path, std::move(series));
        if (!field.isUndefined()) {
            // The load tester's own status value, e.g. "rate": the set-point beside the
            // observation. Drawn as a step line unless the file says otherwise.
            const QString fieldPath = joinPath(path, QStringLiteral("loadTester"));
            series.loadTester = LoadTesterFields::fromName(field.toString());
            series.style = SeriesStyle::Step;
            if (series.loadTester == LoadTesterField::None) {
                issue(fieldPath, QStringLiteral("%1 must be one of \"rate\", \"inflightLimit\", "
                                                "\"inflight\", \"pending\", \"paused\"")
                                     .arg(describe(field)));
                usable = false;
            }
            if (!query.isUndefined())
                issue(queryPath, QStringLiteral("ignored: a series is either a query or a load tester value"));
        } else if (query.isUndefined()) {
            issue(queryPath, QStringLiteral("missing"));
            usable = false;
        } else if (!query.isString()) {
            issue(queryPath, QStringLiteral("must be a string"));
            usable = false;
        } else if (query.toString().trimmed().isEmpty()) {
            issue(queryPath, QStringLiteral("is empty"));
            usable = false;
        } else {
            series.query = query.toString().trimmed();
            checkVariablesOf(series.query, queryPath);
        }

        readLook(object, path, series);

        if (!usable)
            return std::nullopt;
        return series;
    }

    // Every input of a derived series must name a series id of this dashboard, and an id is
    // used once; a derived series with an unknown input is dropped (it could never be drawn).
    void checkDerivedInputs(DashboardDefinition &dashboard)
    {
        QMap<QString, int> idCount;
        for (const PanelDefinition &panel : dashboard.panels) {
            for (const SeriesDefinition &series : panel.series) {
                if (!series.id.isEmpty())
                    ++idCount[series.id];
            }
        }
        for (auto it = idCount.begin(); it != idCount.end(); ++it) {
            if (it.value() > 1)
                issue(QStringLiteral("panels"),
                      QStringLiteral("the series id \"%1\" is used %2 times; formulas use the first")
                          .arg(it.key())
                          .arg(it.value()));
        }
        int derivedIndex = 0;
        for (PanelDefinition &panel : dashboard.panels) {
            for (auto series = panel.series.begin(); series != panel.series.end();) {
                if (series->derive.isEmpty()) {
                    ++series;
                    continue;
                }
                const QString path = m_derivedPaths.value(derivedIndex++);
                QStringList unknown;
                for (auto input = series->deriveInputs.begin(); input != series->deriveInputs.end(); ++input) {
                    if (!idCount.contains(input.value()))
                        unknown.append(input.value());
                }
                if (unknown.isEmpty()) {
                    ++series;
                    continue;
                }
                issue(joinPath(path, QStringLiteral("inputs")),
                      QStringLiteral("no series has the id %1 (ids: %2); the derived series is left out")
                          .arg(unknown.join(QStringLiteral(", ")),
                               idCount.isEmpty() ? QStringLiteral("none") : idCount.keys().join(QStringLiteral(", "))));
                series = panel.series.erase(series);
            }
        }
    }

    QList<DashboardIssue> m_issues;
    QStringList m_derivedPaths;
    QStringList m_declaredVariables;
};

LoadResult failure(const QString &path, const QString &message)
{
    LoadResult result;
    result.usable = false;
    result.issues.append(DashboardIssue{path, message});
    return result;
}

} // namespace

LoadResult fromJson(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        return failure({}, QStringLiteral("not valid JSON: %1").arg(JsonText::describeError(json, error)));
    }
    if (!document.isObject())
        return failure({}, QStringLiteral("the top level must be a JSON object with \"panels\""));
    return DefinitionReader().read(document.object());
}

LoadResult fromFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return failure(path, QStringLiteral("cannot be read: %1").arg(file.errorString()));
    if (file.size() > kMaxFileBytes)
        return failure(
            path,
            QStringLiteral("is larger than %1 MiB, too large for a dashboard").arg(kMaxFileBytes / (1024LL * 1024)));
    const QByteArray json = file.read(kMaxFileBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return failure(path, QStringLiteral("cannot be read: %1").arg(file.errorString()));
    return fromJson(json);
}

QStringList builtinNames()
{
    QStringList names;
    const QFileInfoList files = QDir(kBuiltinDir).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QFileInfo &file : files)
        names.append(file.completeBaseName());
    return names;
}

LoadResult fromBuiltin(const QString &name)
{
    const QStringList names = builtinNames();
    for (const QString &candidate : names) {
        if (candidate.compare(name, Qt::CaseInsensitive) == 0)
            return fromFile(kBuiltinDir + QLatin1Char('/') + candidate + QStringLiteral(".json"));
    }
    return failure({}, QStringLiteral("unknown built-in dashboard \"%1\"; available: %2")
                           .arg(name, names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "))));
}

LoadResult load(const QString &nameOrPath)
{
    const QStringList names = builtinNames();
    const bool isBuiltin = std::any_of(names.begin(), names.end(), [&](const QString &name) {
        return name.compare(nameOrPath, Qt::CaseInsensitive) == 0;
    });
    return isBuiltin ? fromBuiltin(nameOrPath) : fromFile(nameOrPath);
}

qint64 parseDurationMs(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return -1;

    static const QRegularExpression seconds(QStringLiteral("^[0-9]+(\\.[0-9]+)?$"));
    if (seconds.match(trimmed).hasMatch()) {
        const double value = trimmed.toDouble();
        if (value * 1000.0 > static_cast<double>(kMaxDurationMs))
            return -1;
        return std::llround(value * 1000.0);
    }

    // Prometheus' own grammar: each unit at most once, largest first.
    static const QRegularExpression units(
        QStringLiteral("^(?:([0-9]+)y)?(?:([0-9]+)w)?(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?"
                       "(?:([0-9]+)ms)?$"));
    static constexpr qint64 unitMs[] = {
        365ll * 24 * 3600 * 1000, 7ll * 24 * 3600 * 1000, 24ll * 3600 * 1000, 3600ll * 1000, 60ll * 1000, 1000, 1};
    const QRegularExpressionMatch match = units.match(trimmed);
    if (!match.hasMatch())
        return -1;
    qint64 total = 0;
    for (int group = 1; group <= 7; ++group) {
        const QStringView digits = match.capturedView(group);
        if (digits.isEmpty())
            continue;
        if (digits.size() > 15)
            return -1;
        const qint64 count = digits.toLongLong();
        const qint64 factor = unitMs[group - 1];
        if (count > (kMaxDurationMs - total) / factor)
            return -1;
        total += count * factor;
    }
    return total;
}

} // namespace DashboardLoader
