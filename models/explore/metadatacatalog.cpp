// SPDX-License-Identifier: GPL-3.0-or-later
#include "explore/metadatacatalog.h"

#include "base/whenfinished.h"
#include "fetching/variablevaluesloader.h"
#include "net/parseoffthread.h"
#include "prometheus/prometheusclient.h"

#include <QRegularExpression>

namespace {

const QString kMetrics = QStringLiteral("metrics");

QString labelsKey(const QString &metric)
{
    return QStringLiteral("labels:") + metric;
}

QString valuesKey(const QString &label, const QString &metric)
{
    return QStringLiteral("values:%1:%2").arg(label, metric);
}

bool isName(const QString &text)
{
    static const QRegularExpression name(QStringLiteral("^[a-zA-Z_:][a-zA-Z0-9_:]*$"));
    return name.match(text).hasMatch();
}

} // namespace

MetadataCatalog::MetadataCatalog(PrometheusClient *client, QObject *parent) : QObject(parent), m_client(client) {}

MetadataCatalog::~MetadataCatalog()
{
    for (List &list : m_lists)
        list.request.cancel();
}

void MetadataCatalog::clear()
{
    m_generation.advance();
    for (List &list : m_lists)
        list.request.cancel();
    m_lists.clear();
    m_arrived = 0;
}

void MetadataCatalog::ask(const QString &key, const QString &apiPath, const QString &match, const QString &what)
{
    const auto found = m_lists.constFind(key);
    if (found != m_lists.constEnd() && (!found->arrived || found->age.elapsed() < kFreshForMs))
        return; // on its way, or fresh
    if (found != m_lists.constEnd() && found->arrived)
        --m_arrived;
    List &list = m_lists[key];
    list.arrived = false;
    PrometheusClient::Params params;
    if (!match.isEmpty())
        params.append({QStringLiteral("match[]"), match});
    list.request = parseOffThread<QStringList>(m_client->get(apiPath, params), this, [what](const HttpAnswer &answer) {
        return VariableValuesLoader::parseAnswer(answer, what);
    });
    whenFinished(list.request, this,
                 [this, key, what, token = m_generation.current()](const Result<QStringList> &names) {
                     if (!m_generation.isCurrent(token) || !m_lists.contains(key))
                         return;
                     List &arrived = m_lists[key];
                     arrived.arrived = true;
                     arrived.age.start();
                     ++m_arrived;
                     if (!names) {
                         emit failed(tr("Completion of %1: %2").arg(what, names.error().message));
                         return;
                     }
                     arrived.names = names.value();
                     emit updated();
                 });
}

void MetadataCatalog::prepare(const PromqlCompletion::Context &context)
{
    using Kind = PromqlCompletion::Context::Kind;
    const QString metric = isName(context.metric) ? context.metric : QString();
    switch (context.kind) {
    case Kind::Expression:
        ask(kMetrics, QStringLiteral("api/v1/label/__name__/values"), {}, QStringLiteral("metric names"));
        break;
    case Kind::LabelName:
        ask(labelsKey(metric), QStringLiteral("api/v1/labels"), metric, QStringLiteral("label names"));
        break;
    case Kind::LabelValue:
        // The label name came from the query: only a name is put into the path.
        if (isName(context.label))
            ask(valuesKey(context.label, metric), QStringLiteral("api/v1/label/%1/values").arg(context.label), metric,
                QStringLiteral("the values of %1").arg(context.label));
        break;
    case Kind::Variable:
    case Kind::None:
        break;
    }
}

QStringList MetadataCatalog::namesOf(const QString &key) const
{
    const auto found = m_lists.constFind(key);
    return found == m_lists.constEnd() ? QStringList() : found->names;
}

PromqlCompletion::Catalog MetadataCatalog::catalogFor(const PromqlCompletion::Context &context) const
{
    PromqlCompletion::Catalog catalog;
    const QString metric = isName(context.metric) ? context.metric : QString();
    catalog.metrics = namesOf(kMetrics);
    // A metric's own labels when they have come, else every label known.
    catalog.labels = namesOf(labelsKey(metric));
    if (catalog.labels.isEmpty())
        catalog.labels = namesOf(labelsKey(QString()));
    catalog.labels.removeAll(QStringLiteral("__name__"));
    if (context.kind == PromqlCompletion::Context::Kind::LabelValue) {
        QStringList values = namesOf(valuesKey(context.label, metric));
        if (values.isEmpty())
            values = namesOf(valuesKey(context.label, QString()));
        catalog.labelValues.insert(context.label, values);
    }
    catalog.variables = m_variables;
    return catalog;
}
