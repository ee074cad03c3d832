// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loader/dashboardloader.h"

#include "base/format.h"
#include "base/jsonsection.h"
#include "base/jsontext.h"
#include "dashboard/loader/annotationssection.h"
#include "dashboard/loader/checkssection.h"
#include "dashboard/loader/detectorssection.h"
#include "dashboard/loader/kubernetessection.h"
#include "dashboard/loader/loadtestersection.h"
#include "dashboard/loader/panelssection.h"
#include "dashboard/loader/variablessection.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <optional>

namespace DashboardLoader {
namespace {

const QString kBuiltinDir = QStringLiteral(":/dashboards");
constexpr qint64 kMaxFileBytes = 16LL * 1024 * 1024;
constexpr int kMaxColumns = 12;

// Reads the top level of a dashboard file and hands each section to its reader
// (loader/*section.h); they share the issues found so far.
class DefinitionReader
{
public:
    LoadResult read(const QJsonObject &root)
    {
        LoadResult result;
        result.usable = true;
        readDashboard(root, result.dashboard);
        result.issues = m_json.takeIssues();
        return result;
    }

private:
    void readDashboard(const QJsonObject &root, DashboardDefinition &dashboard)
    {
        dashboard.unknownKeys = m_json.checkKeys(root, {},
                                                 {"title", "refresh", "window", "columns", "variables", "panels",
                                                  "loadTester", "kubernetes", "annotations", "detectors", "checks"});

        if (auto title = m_json.readString(root, {}, QStringLiteral("title")))
            dashboard.title = *title;

        if (auto refreshMs = m_json.readDuration(root, {}, QStringLiteral("refresh"))) {
            if (*refreshMs < 1000) {
                m_json.issue(QStringLiteral("refresh"),
                             QStringLiteral("%1 is shorter than the minimum of 1s; using 1s")
                                 .arg(JsonSection::describe(root.value(QStringLiteral("refresh")))));
                dashboard.refreshSeconds = 1;
            } else {
                // Whole seconds; rounded up so that a refresh never comes sooner than asked.
                dashboard.refreshSeconds = static_cast<int>(std::min<qint64>((*refreshMs + 999) / 1000, 24LL * 3600));
            }
        }

        if (auto windowMs = m_json.readDuration(root, {}, QStringLiteral("window"))) {
            if (*windowMs <= 0)
                m_json.issue(QStringLiteral("window"), QStringLiteral("must be longer than zero"));
            else
                dashboard.windowMs = *windowMs;
        }

        const QJsonValue columns = root.value(QStringLiteral("columns"));
        if (!columns.isUndefined()) {
            const double n = columns.toDouble(-1);
            if (!columns.isDouble() || n != std::floor(n) || n < 1 || n > kMaxColumns)
                m_json.issue(QStringLiteral("columns"),
                             QStringLiteral("must be a whole number from 1 to %1").arg(kMaxColumns));
            else
                dashboard.columns = static_cast<int>(n);
        }

        // Variables first: the panels' queries may use only those declared; detectors last:
        // they name the panels' series.
        VariablesSection variables(m_json);
        variables.read(root.value(QStringLiteral("variables")), dashboard.variableDefinitions);
        LoadTesterSection(m_json).read(root.value(QStringLiteral("loadTester")), dashboard.loadTester);
        KubernetesSection(m_json, variables).read(root.value(QStringLiteral("kubernetes")), dashboard.kubernetes);
        AnnotationsSection annotations(m_json, variables);
        annotations.read(root.value(QStringLiteral("annotations")), dashboard.annotationQueries);
        PanelsSection panels(m_json, variables);
        panels.read(root.value(QStringLiteral("panels")), dashboard.panels);
        panels.checkDerivedInputs(dashboard);
        annotations.checkPanels(dashboard);
        DetectorsSection(m_json).read(root.value(QStringLiteral("detectors")), dashboard);
        ChecksSection(m_json).read(root.value(QStringLiteral("checks")), dashboard);
    }

    JsonSection m_json;
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
            path, QStringLiteral("is larger than %1, too large for a dashboard").arg(Format::bytes(kMaxFileBytes)));
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

bool isBuiltinName(const QString &nameOrPath)
{
    const QStringList names = builtinNames();
    return std::any_of(names.begin(), names.end(),
                       [&](const QString &name) { return name.compare(nameOrPath, Qt::CaseInsensitive) == 0; });
}

LoadResult load(const QString &nameOrPath)
{
    return isBuiltinName(nameOrPath) ? fromBuiltin(nameOrPath) : fromFile(nameOrPath);
}

} // namespace DashboardLoader
