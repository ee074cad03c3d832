// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario.h"

#include "base/format.h"
#include "base/jsontext.h"
#include "dashboard/loader/dashboardloader.h"
#include "loadtester/loadtesteraction.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

namespace {

// Reads a duration that may carry a leading "+" ("+2m").
std::optional<qint64> readDuration(const QJsonValue &value)
{
    QString text;
    if (value.isDouble())
        text = QString::number(value.toDouble());
    else if (value.isString())
        text = value.toString().trimmed();
    else
        return std::nullopt;
    if (text.startsWith(QLatin1Char('+')))
        text.remove(0, 1);
    const qint64 ms = DashboardLoader::parseDurationMs(text);
    if (ms < 0)
        return std::nullopt;
    return ms;
}

} // namespace

QString ScenarioStep::describe() const
{
    switch (kind) {
    // Steps that steer say it in the words of the action they become (the dock, the log).
    case Kind::SetRate:
        return LoadTesterAction{LoadTesterAction::Kind::SetRate, value}.describe();
    case Kind::SetInflightLimit:
        return LoadTesterAction{LoadTesterAction::Kind::SetInflightLimit, value}.describe();
    case Kind::Pause:
        return LoadTesterAction{LoadTesterAction::Kind::Pause, 0}.describe();
    case Kind::Resume:
        return LoadTesterAction{LoadTesterAction::Kind::Resume, 0}.describe();
    case Kind::Annotate:
        return QStringLiteral("annotate \"%1\"").arg(text);
    case Kind::WaitFor:
        return QStringLiteral("wait for %1 (at most %2)").arg(text, Format::compactDuration(timeoutMs));
    case Kind::Screenshot:
        return QStringLiteral("screenshot %1").arg(text);
    }
    return {};
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

} // namespace

namespace ScenarioLoader {

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
        if (key != QLatin1String("title") && key != QLatin1String("steps"))
            result.issues << DashboardIssue{key, QStringLiteral("unknown key")};
    }
    const QJsonValue stepsValue = root.value(QStringLiteral("steps"));
    if (!stepsValue.isArray() || stepsValue.toArray().isEmpty()) {
        result.issues << DashboardIssue{QStringLiteral("steps"), stepsValue.isUndefined()
                                                                     ? QStringLiteral("missing")
                                                                     : QStringLiteral("must be a non-empty array")};
        return result;
    }
    static const QSet<QString> actions{QStringLiteral("setRate"),   QStringLiteral("setInflightLimit"),
                                       QStringLiteral("pause"),     QStringLiteral("resume"),
                                       QStringLiteral("annotate"),  QStringLiteral("waitFor"),
                                       QStringLiteral("screenshot")};
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
                          "needs one action: setRate, setInflightLimit, pause, resume, annotate, waitFor or screenshot")
                    : QStringLiteral("has several actions (%1); one per step").arg(found.join(QStringLiteral(", ")))};
            continue;
        }
        const QString action = found.first();
        const QJsonValue value = object.value(action);
        const QString valuePath = path + QLatin1Char('.') + action;
        if (action == QLatin1String("setRate") || action == QLatin1String("setInflightLimit")) {
            if (!value.isDouble() || value.toDouble() < 0) {
                result.issues << DashboardIssue{valuePath, QStringLiteral("must be a number ≥ 0")};
                continue;
            }
            step.kind =
                action == QLatin1String("setRate") ? ScenarioStep::Kind::SetRate : ScenarioStep::Kind::SetInflightLimit;
            step.value = value.toDouble();
        } else if (action == QLatin1String("pause") || action == QLatin1String("resume")) {
            step.kind = action == QLatin1String("pause") ? ScenarioStep::Kind::Pause : ScenarioStep::Kind::Resume;
        } else {
            if (!value.isString() || value.toString().trimmed().isEmpty()) {
                result.issues << DashboardIssue{valuePath, QStringLiteral("must be a non-empty string")};
                continue;
            }
            step.text = value.toString().trimmed();
            step.kind = action == QLatin1String("annotate")  ? ScenarioStep::Kind::Annotate
                        : action == QLatin1String("waitFor") ? ScenarioStep::Kind::WaitFor
                                                             : ScenarioStep::Kind::Screenshot;
            if (step.kind == ScenarioStep::Kind::Screenshot) {
                if (const QString problem = screenshotPathProblem(step.text); !problem.isEmpty()) {
                    result.issues << DashboardIssue{valuePath, problem};
                    continue;
                }
            }
        }
        if (object.contains(QStringLiteral("at"))) {
            const auto at = readDuration(object.value(QStringLiteral("at")));
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
            const auto after = readDuration(object.value(QStringLiteral("after")));
            if (!after || step.atMs) {
                result.issues << DashboardIssue{path + QStringLiteral(".after"),
                                                step.atMs ? QStringLiteral("cannot be combined with \"at\"")
                                                          : QStringLiteral("is not a duration")};
                continue;
            }
            step.afterMs = *after;
        }
        if (object.contains(QStringLiteral("timeout"))) {
            const auto timeout = readDuration(object.value(QStringLiteral("timeout")));
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
    result.usable = result.issues.isEmpty();
    return result;
}

QStringList builtinNames()
{
    return {QStringLiteral("seed000")};
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
