// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario.h"

#include "base/format.h"
#include "base/jsonsection.h"
#include "base/jsontext.h"
#include "dashboard/loader/checkssection.h"
#include "loadtester/loadtesteraction.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <utility>

QString ScenarioStep::describe() const
{
    switch (kind) {
    // Steps that steer say it in the words of the action they become (the dock, the log).
    case Kind::SetRate:
    case Kind::SetInflightLimit:
    case Kind::Pause:
    case Kind::Resume:
        return loadTesterAction().describe();
    case Kind::Annotate:
        return QStringLiteral("annotate \"%1\"").arg(text);
    case Kind::WaitFor:
        return QStringLiteral("wait for %1 (at most %2)").arg(text, Format::compactDuration(timeoutMs));
    case Kind::Screenshot:
        return QStringLiteral("screenshot %1").arg(text);
    case Kind::ChangeWorkload:
        return change.describe();
    case Kind::WaitForRollout:
        return QStringLiteral("wait for the rollout of %1 (at most %2)").arg(text, Format::compactDuration(timeoutMs));
    case Kind::Shape:
        return shape.describe();
    case Kind::Hold:
        return QStringLiteral("hold the load for %1").arg(Format::compactDuration(holdMs));
    case Kind::FindCeiling:
        return ceiling.describe();
    }
    return {};
}

LoadTesterAction ScenarioStep::loadTesterAction() const
{
    const LoadTesterAction::Kind actionKind = kind == Kind::SetRate ? LoadTesterAction::Kind::SetRate
                                              : kind == Kind::SetInflightLimit
                                                  ? LoadTesterAction::Kind::SetInflightLimit
                                              : kind == Kind::Resume ? LoadTesterAction::Kind::Resume
                                                                     : LoadTesterAction::Kind::Pause;
    return LoadTesterAction{actionKind, value};
}

namespace {

// A scenario file comes from anywhere (a colleague, a download): its screenshots land in the
// chosen output folder and nowhere else.
QString screenshotPathProblem(const QString &path)
{
    if (path.startsWith(QLatin1Char('/')) || path.startsWith(QLatin1Char('\\')) || path.startsWith(QLatin1Char('~')) ||
        (path.size() >= 2 && path.at(1) == QLatin1Char(':')))
        return QStringLiteral("must be a file name inside the output folder (--output-dir), not an absolute path");
    static const QRegularExpression separator(
        QStringLiteral("[/\\\\]")); // static: compiling it on every call is costly
    const QStringList parts = path.split(separator);
    if (parts.contains(QStringLiteral("..")))
        return QStringLiteral("must stay inside the output folder (--output-dir): \"..\" is not allowed");
    for (const QChar c : path) {
        if (c.unicode() < 0x20)
            return QStringLiteral("holds a control character");
    }
    return {};
}

// A string → string map whose values may be written as numbers ("RATE": 40).
std::optional<QMap<QString, QString>> readStrings(const QJsonValue &value)
{
    if (!value.isObject())
        return std::nullopt;
    QMap<QString, QString> strings;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.value().isString())
            strings.insert(it.key(), it.value().toString());
        else if (it.value().isDouble())
            strings.insert(it.key(), QString::number(it.value().toDouble(), 'g', 15));
        else
            return std::nullopt;
    }
    return strings;
}

// The Kubernetes steps: {"scale": {"workload", "replicas"}}, {"setResources": {"workload",
// "container", "requests", "limits"}}, {"setEnv": {"workload", "container", "env"}},
// {"restart": "name"}. The problem in words and where, or nothing.
std::optional<DashboardIssue> readWorkloadChange(const QString &action, const QJsonValue &value, const QString &path,
                                                 WorkloadChange *change)
{
    if (action == QLatin1String("restart") && value.isString()) {
        if (value.toString().trimmed().isEmpty())
            return DashboardIssue{path, QStringLiteral("must name a workload")};
        *change = WorkloadChange::restart(value.toString().trimmed(), QString());
        return std::nullopt;
    }
    if (!value.isObject())
        return DashboardIssue{path, QStringLiteral("must be an object with \"workload\"")};
    const QJsonObject object = value.toObject();
    QSet<QString> allowed{QStringLiteral("workload"), QStringLiteral("container")};
    change->workload = object.value(QStringLiteral("workload")).toString().trimmed();
    change->container = object.value(QStringLiteral("container")).toString().trimmed();
    if (change->workload.isEmpty())
        return DashboardIssue{path + QStringLiteral(".workload"), QStringLiteral("missing: the workload's name")};
    if (action == QLatin1String("scale")) {
        change->kind = WorkloadChange::Kind::Scale;
        allowed.insert(QStringLiteral("replicas"));
        const QJsonValue replicas = object.value(QStringLiteral("replicas"));
        if (!replicas.isDouble() || replicas.toDouble() < 0 || replicas.toDouble() != double(replicas.toInt()))
            return DashboardIssue{path + QStringLiteral(".replicas"), QStringLiteral("must be a whole number ≥ 0")};
        change->replicas = replicas.toInt();
    } else if (action == QLatin1String("setEnv")) {
        change->kind = WorkloadChange::Kind::SetEnv;
        allowed.insert(QStringLiteral("env"));
        const std::optional<QMap<QString, QString>> env = readStrings(object.value(QStringLiteral("env")));
        if (!env || env->isEmpty())
            return DashboardIssue{path + QStringLiteral(".env"),
                                  QStringLiteral("must be an object of names and values: {\"RATE\": \"40\"}")};
        change->env = *env;
    } else if (action == QLatin1String("setResources")) {
        change->kind = WorkloadChange::Kind::SetResources;
        allowed.insert(QStringLiteral("requests"));
        allowed.insert(QStringLiteral("limits"));
        for (const QString &part : {QStringLiteral("requests"), QStringLiteral("limits")}) {
            if (!object.contains(part))
                continue;
            const std::optional<QMap<QString, QString>> values = readStrings(object.value(part));
            if (!values)
                return DashboardIssue{
                    path + QLatin1Char('.') + part,
                    QStringLiteral("must be an object like {\"cpu\": \"500m\", \"memory\": \"256Mi\"}")};
            (part == QLatin1String("requests") ? change->requests : change->limits) = *values;
        }
    } else {
        change->kind = WorkloadChange::Kind::Restart;
    }
    for (const QString &key : object.keys()) {
        if (!allowed.contains(key))
            return DashboardIssue{path + QLatin1Char('.') + key, QStringLiteral("unknown key")};
    }
    // What can be checked without the cluster is checked now, before anything runs.
    Workload anyContainer;
    anyContainer.name = change->workload;
    anyContainer.containers.push_back({change->container, {}, {}, {}, {}, {}, {}});
    if (const std::optional<QString> problem = change->problem(anyContainer))
        return DashboardIssue{path, *problem};
    return std::nullopt;
}

// Reads the keys of a shape's or a search's object: numbers, durations and strings, each
// checked where it is, unknown keys named.
class ObjectReader
{
public:
    ObjectReader(const QJsonValue &value, const QString &path) : m_object(value.toObject()), m_path(path)
    {
        if (!value.isObject())
            m_issue = DashboardIssue{path, QStringLiteral("must be an object")};
    }
    void number(const QString &key, double *target, bool required = false)
    {
        const QJsonValue value = m_object.value(key);
        m_known << key;
        if (value.isUndefined()) {
            if (required)
                fail(key, QStringLiteral("missing: a number"));
        } else if (!value.isDouble() || value.toDouble() < 0) {
            fail(key, QStringLiteral("must be a number ≥ 0"));
        } else {
            *target = value.toDouble();
        }
    }
    void duration(const QString &key, qint64 *target, bool required = false)
    {
        const QJsonValue value = m_object.value(key);
        m_known << key;
        if (value.isUndefined()) {
            if (required)
                fail(key, QStringLiteral("missing: a duration like \"1m\""));
        } else if (const std::optional<qint64> ms = JsonSection::offsetOf(value)) {
            *target = *ms;
        } else {
            fail(key, QStringLiteral("is not a duration like \"30s\""));
        }
    }
    void text(const QString &key, QString *target)
    {
        const QJsonValue value = m_object.value(key);
        m_known << key;
        if (value.isUndefined())
            return;
        if (!value.isString())
            fail(key, QStringLiteral("must be a string"));
        else
            *target = value.toString().trimmed();
    }
    bool has(const QString &key) const { return m_object.contains(key); }
    // The first problem: a wrong key or value, or an unknown key.
    std::optional<DashboardIssue> issue() const
    {
        if (m_issue)
            return m_issue;
        for (const QString &key : m_object.keys()) {
            if (!m_known.contains(key))
                return DashboardIssue{m_path + QLatin1Char('.') + key, QStringLiteral("unknown key")};
        }
        return std::nullopt;
    }
    std::optional<DashboardIssue> whole(const QString &problem) const
    {
        if (problem.isEmpty())
            return std::nullopt;
        return DashboardIssue{m_path, problem};
    }

private:
    void fail(const QString &key, const QString &problem)
    {
        if (!m_issue)
            m_issue = DashboardIssue{m_path + QLatin1Char('.') + key, problem};
    }
    QJsonObject m_object;
    QString m_path;
    QSet<QString> m_known;
    std::optional<DashboardIssue> m_issue;
};

std::optional<DashboardIssue> readShape(const QString &action, const QJsonValue &value, const QString &path,
                                        LoadShape *shape)
{
    ObjectReader reader(value, path);
    shape->kind = action == QLatin1String("ramp") ? LoadShape::Kind::Ramp : LoadShape::Kind::Stairs;
    double from = 0;
    reader.number(QStringLiteral("from"), &from, shape->kind == LoadShape::Kind::Stairs);
    if (reader.has(QStringLiteral("from")))
        shape->from = from;
    if (shape->kind == LoadShape::Kind::Ramp) {
        reader.number(QStringLiteral("to"), &shape->to, true);
        reader.duration(QStringLiteral("over"), &shape->overMs, true);
    } else {
        reader.number(QStringLiteral("step"), &shape->step, true);
        reader.number(QStringLiteral("until"), &shape->to, true);
        reader.duration(QStringLiteral("every"), &shape->everyMs, true);
    }
    if (std::optional<DashboardIssue> issue = reader.issue())
        return issue;
    return reader.whole(shape->problem());
}

std::optional<DashboardIssue> readCeilingSearch(const QJsonValue &value, const QString &path, CeilingSearchPlan *plan)
{
    ObjectReader reader(value.isBool() && value.toBool() ? QJsonValue(QJsonObject()) : value, path);
    reader.number(QStringLiteral("from"), &plan->from);
    reader.number(QStringLiteral("step"), &plan->step);
    reader.number(QStringLiteral("until"), &plan->until);
    reader.duration(QStringLiteral("every"), &plan->everyMs);
    reader.duration(QStringLiteral("settle"), &plan->settleMs);
    reader.number(QStringLiteral("tolerance"), &plan->tolerance);
    reader.number(QStringLiteral("resolution"), &plan->resolution);
    qint64 latencyMs = 0;
    reader.duration(QStringLiteral("latencyBelow"), &latencyMs);
    if (reader.has(QStringLiteral("latencyBelow")))
        plan->latencyBelowSeconds = double(latencyMs) / 1000.0;
    reader.text(QStringLiteral("picture"), &plan->picture);
    reader.text(QStringLiteral("sent"), &plan->sentQuery);
    reader.text(QStringLiteral("completed"), &plan->completedQuery);
    reader.text(QStringLiteral("pending"), &plan->pendingQuery);
    reader.text(QStringLiteral("latency"), &plan->latencyQuery);
    reader.text(QStringLiteral("computed"), &plan->computedQuery);
    if (std::optional<DashboardIssue> issue = reader.issue())
        return issue;
    if (!plan->picture.isEmpty()) {
        if (const QString problem = screenshotPathProblem(plan->picture); !problem.isEmpty())
            return DashboardIssue{path + QStringLiteral(".picture"), problem};
    }
    return reader.whole(plan->problem());
}

// One step's action, {"setRate": 500} and the others; the problem in words and where, or nothing.
std::optional<DashboardIssue> readAction(const QString &action, const QJsonValue &value, const QString &valuePath,
                                         ScenarioStep *step)
{
    if (action == QLatin1String("setRate") || action == QLatin1String("setInflightLimit")) {
        if (!value.isDouble() || value.toDouble() < 0)
            return DashboardIssue{valuePath, QStringLiteral("must be a number ≥ 0")};
        step->kind =
            action == QLatin1String("setRate") ? ScenarioStep::Kind::SetRate : ScenarioStep::Kind::SetInflightLimit;
        step->value = value.toDouble();
    } else if (action == QLatin1String("pause") || action == QLatin1String("resume")) {
        step->kind = action == QLatin1String("pause") ? ScenarioStep::Kind::Pause : ScenarioStep::Kind::Resume;
    } else if (action == QLatin1String("ramp") || action == QLatin1String("stairs")) {
        step->kind = ScenarioStep::Kind::Shape;
        return readShape(action, value, valuePath, &step->shape);
    } else if (action == QLatin1String("findCeiling")) {
        step->kind = ScenarioStep::Kind::FindCeiling;
        return readCeilingSearch(value, valuePath, &step->ceiling);
    } else if (action == QLatin1String("hold")) {
        const std::optional<qint64> ms = JsonSection::offsetOf(value);
        if (!ms || *ms <= 0)
            return DashboardIssue{valuePath, QStringLiteral("must be a duration like \"5m\"")};
        step->kind = ScenarioStep::Kind::Hold;
        step->holdMs = *ms;
    } else if (action == QLatin1String("scale") || action == QLatin1String("setResources") ||
               action == QLatin1String("setEnv") || action == QLatin1String("restart")) {
        if (std::optional<DashboardIssue> issue = readWorkloadChange(action, value, valuePath, &step->change))
            return issue;
        step->kind = ScenarioStep::Kind::ChangeWorkload;
    } else {
        if (!value.isString() || value.toString().trimmed().isEmpty())
            return DashboardIssue{valuePath, QStringLiteral("must be a non-empty string")};
        step->text = value.toString().trimmed();
        step->kind = action == QLatin1String("annotate")         ? ScenarioStep::Kind::Annotate
                     : action == QLatin1String("waitFor")        ? ScenarioStep::Kind::WaitFor
                     : action == QLatin1String("waitForRollout") ? ScenarioStep::Kind::WaitForRollout
                                                                 : ScenarioStep::Kind::Screenshot;
        if (step->kind == ScenarioStep::Kind::Screenshot) {
            if (const QString problem = screenshotPathProblem(step->text); !problem.isEmpty())
                return DashboardIssue{valuePath, problem};
        }
    }
    return std::nullopt;
}

// A guard's "then": one of pause, setRate, setInflightLimit, scale or stop.
std::optional<ScenarioGuard> readGuard(const QJsonValue &value, const QString &path, QList<DashboardIssue> *issues)
{
    static const QSet<QString> extra{QStringLiteral("then"), QStringLiteral("continueScenario")};
    const std::optional<Check> check = CheckReader::read(value, path, extra, issues);
    if (!check)
        return std::nullopt;
    ScenarioGuard guard;
    guard.check = *check;
    const QJsonObject object = value.toObject();
    guard.stopsScenario = !object.value(QStringLiteral("continueScenario")).toBool(false);
    const QString thenPath = path + QStringLiteral(".then");
    const QJsonObject then = object.value(QStringLiteral("then")).toObject();
    static const QSet<QString> actions{QStringLiteral("pause"), QStringLiteral("setRate"),
                                       QStringLiteral("setInflightLimit"), QStringLiteral("scale"),
                                       QStringLiteral("stop")};
    if (then.size() != 1 || !actions.contains(then.keys().first())) {
        issues->append(
            DashboardIssue{thenPath, QStringLiteral("needs one action: {\"pause\": true}, {\"setRate\": 50}, "
                                                    "{\"setInflightLimit\": 20}, {\"scale\": {…}} or "
                                                    "{\"stop\": true}")});
        return std::nullopt;
    }
    const QString action = then.keys().first();
    if (action == QLatin1String("stop")) {
        guard.stopsScenario = true;
        return guard;
    }
    ScenarioStep step;
    if (const std::optional<DashboardIssue> issue =
            readAction(action, then.value(action), thenPath + QLatin1Char('.') + action, &step)) {
        issues->append(*issue);
        return std::nullopt;
    }
    guard.action = step;
    return guard;
}

} // namespace

QString ScenarioGuard::describeAction() const
{
    QString text = action ? action->describe() : QStringLiteral("stop the scenario");
    if (action && stopsScenario)
        text += QStringLiteral(", stop the scenario");
    return text;
}

QStringList Scenario::phaseNames() const
{
    QStringList names;
    for (const ScenarioStep &step : steps) {
        if (step.kind == ScenarioStep::Kind::Annotate && !names.contains(step.text))
            names << step.text;
    }
    return names;
}

namespace ScenarioLoader {

namespace {

// "expect" and "guards": each check located like a step; a phase a check names must be one
// the steps annotate, so a typo is caught before the run and not after it.
void readChecks(const QJsonObject &root, LoadResult *result)
{
    const QStringList phases = result->scenario.phaseNames();
    const auto checkPhases = [&](const Check &check, const QString &path) {
        for (const QString &phase : check.during) {
            if (!phases.contains(phase))
                result->issues << DashboardIssue{
                    path + QStringLiteral(".during"),
                    QStringLiteral("no annotate step is named \"%1\" (phases: %2)")
                        .arg(phase, phases.isEmpty() ? QStringLiteral("none") : phases.join(QStringLiteral(", ")))};
        }
    };
    for (const QString &key : {QStringLiteral("expect"), QStringLiteral("guards")}) {
        const QJsonValue list = root.value(key);
        if (list.isUndefined())
            continue;
        if (!list.isArray()) {
            result->issues << DashboardIssue{key, QStringLiteral("must be an array of checks")};
            continue;
        }
        const QJsonArray checks = list.toArray();
        for (int i = 0; i < checks.size(); ++i) {
            const QString path = QStringLiteral("%1[%2]").arg(key).arg(i);
            if (key == QLatin1String("expect")) {
                if (const std::optional<Check> check = CheckReader::read(checks[i], path, {}, &result->issues)) {
                    checkPhases(*check, path);
                    result->scenario.expectations.push_back(*check);
                }
            } else if (const std::optional<ScenarioGuard> guard = readGuard(checks[i], path, &result->issues)) {
                checkPhases(guard->check, path);
                result->scenario.guards.push_back(*guard);
            }
        }
    }
}

} // namespace

LoadResult fromJson(const QByteArray &json)
{
    LoadResult result;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        result.issues << DashboardIssue{
            QString(), error.error != QJsonParseError::NoError
                           ? QStringLiteral("not valid JSON: %1").arg(JsonText::describeError(json, error))
                           : QStringLiteral("the top level must be an object")};
        return result;
    }
    const QJsonObject root = document.object();
    result.scenario.title = root.value(QStringLiteral("title")).toString();
    for (const QString &key : root.keys()) {
        if (key != QLatin1String("title") && key != QLatin1String("steps") && key != QLatin1String("expect") &&
            key != QLatin1String("guards"))
            result.issues << DashboardIssue{key, QStringLiteral("unknown key")};
    }
    const QJsonValue stepsValue = root.value(QStringLiteral("steps"));
    if (!stepsValue.isArray() || stepsValue.toArray().isEmpty()) {
        result.issues << DashboardIssue{QStringLiteral("steps"), stepsValue.isUndefined()
                                                                     ? QStringLiteral("missing")
                                                                     : QStringLiteral("must be a non-empty array")};
        return result;
    }
    static const QSet<QString> actions{QStringLiteral("setRate"),      QStringLiteral("setInflightLimit"),
                                       QStringLiteral("pause"),        QStringLiteral("resume"),
                                       QStringLiteral("annotate"),     QStringLiteral("waitFor"),
                                       QStringLiteral("screenshot"),   QStringLiteral("scale"),
                                       QStringLiteral("setResources"), QStringLiteral("setEnv"),
                                       QStringLiteral("restart"),      QStringLiteral("waitForRollout"),
                                       QStringLiteral("ramp"),         QStringLiteral("stairs"),
                                       QStringLiteral("hold"),         QStringLiteral("findCeiling")};
    static const QSet<QString> modifiers{QStringLiteral("at"), QStringLiteral("after"), QStringLiteral("tags"),
                                         QStringLiteral("timeout"), QStringLiteral("continueOnError")};
    const QJsonArray steps = stepsValue.toArray();
    qint64 lastAt = -1;
    for (int i = 0; i < steps.size(); ++i) {
        const QString path = QStringLiteral("steps[%1]").arg(i);
        if (!steps[i].isObject()) {
            result.issues << DashboardIssue{path, QStringLiteral("must be an object")};
            continue;
        }
        const QJsonObject object = steps[i].toObject();
        ScenarioStep step;
        QStringList found;
        for (const QString &key : object.keys()) {
            if (actions.contains(key))
                found << key;
            else if (!modifiers.contains(key))
                result.issues << DashboardIssue{path + QLatin1Char('.') + key, QStringLiteral("unknown key")};
        }
        if (found.size() != 1) {
            result.issues << DashboardIssue{
                path,
                found.isEmpty()
                    ? QStringLiteral(
                          "needs one action: setRate, setInflightLimit, pause, resume, annotate, waitFor, "
                          "screenshot, scale, setResources, setEnv, restart, waitForRollout, ramp, stairs, hold or "
                          "findCeiling")
                    : QStringLiteral("has several actions (%1); one per step").arg(found.join(QStringLiteral(", ")))};
            continue;
        }
        const QString action = found.first();
        const QString valuePath = path + QLatin1Char('.') + action;
        if (const std::optional<DashboardIssue> issue = readAction(action, object.value(action), valuePath, &step)) {
            result.issues << *issue;
            continue;
        }
        if (object.contains(QStringLiteral("at"))) {
            const auto at = JsonSection::offsetOf(object.value(QStringLiteral("at")));
            if (!at) {
                result.issues << DashboardIssue{path + QStringLiteral(".at"),
                                                QStringLiteral("is not a duration like \"+2m\"")};
                continue;
            }
            if (*at < lastAt) {
                result.issues << DashboardIssue{path + QStringLiteral(".at"),
                                                QStringLiteral("is earlier than a previous step's")};
                continue;
            }
            step.atMs = *at;
            lastAt = *at;
        }
        if (object.contains(QStringLiteral("after"))) {
            const auto after = JsonSection::offsetOf(object.value(QStringLiteral("after")));
            if (!after || step.atMs) {
                result.issues << DashboardIssue{path + QStringLiteral(".after"),
                                                step.atMs ? QStringLiteral("cannot be combined with \"at\"")
                                                          : QStringLiteral("is not a duration")};
                continue;
            }
            step.afterMs = *after;
        }
        if (object.contains(QStringLiteral("timeout"))) {
            const auto timeout = JsonSection::offsetOf(object.value(QStringLiteral("timeout")));
            if (!timeout || *timeout == 0) {
                result.issues << DashboardIssue{path + QStringLiteral(".timeout"), QStringLiteral("is not a duration")};
                continue;
            }
            step.timeoutMs = *timeout;
        }
        for (const QJsonValue tag : object.value(QStringLiteral("tags")).toArray())
            step.tags << tag.toString();
        step.continueOnError = object.value(QStringLiteral("continueOnError")).toBool(false);
        result.scenario.steps.push_back(step);
    }
    readChecks(root, &result);
    result.usable = result.issues.isEmpty();
    return result;
}

QStringList builtinNames()
{
    return {QStringLiteral("ceiling"), QStringLiteral("seed000"), QStringLiteral("seed000-guarded"),
            QStringLiteral("seed004")};
}

LoadResult load(const QString &nameOrPath)
{
    const QString builtin = QStringLiteral(":/scenarios/%1.json").arg(nameOrPath.toLower());
    QFile file(QFile::exists(builtin) ? builtin : nameOrPath);
    if (!file.open(QIODevice::ReadOnly)) {
        LoadResult result;
        result.issues << DashboardIssue{nameOrPath,
                                        QStringLiteral("cannot be read: %1 (built-in scenarios: %2)")
                                            .arg(file.errorString(), builtinNames().join(QStringLiteral(", ")))};
        return result;
    }
    return fromJson(file.readAll());
}

} // namespace ScenarioLoader
