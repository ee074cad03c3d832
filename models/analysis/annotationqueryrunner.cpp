// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/annotationqueryrunner.h"

#include "annotations/annotationmodel.h"
#include "dashboard/dashboardvariables.h"
#include "prometheus/prometheusclient.h"

#include <QDateTime>
#include <algorithm>

AnnotationQueryRunner::AnnotationQueryRunner(PrometheusClient *client, AnnotationModel *annotations, QObject *parent)
    : QObject(parent), m_client(client), m_annotations(annotations),
      m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    connect(&m_refresh, &QTimer::timeout, this, &AnnotationQueryRunner::pollNow);
}

void AnnotationQueryRunner::setQueries(const std::vector<AnnotationQueryDefinition> &queries,
                                       const std::vector<VariableDefinition> &variables)
{
    m_variables = variables;
    m_queries.advance();
    m_running.clear();
    for (const AnnotationQueryDefinition &query : queries) {
        auto running = std::make_unique<Running>();
        running->definition = query;
        running->promql = DashboardVariables::substitute(query.query, variables);
        m_running.push_back(std::move(running));
    }
}

void AnnotationQueryRunner::setVariables(const std::vector<VariableDefinition> &variables)
{
    m_variables = variables;
    for (const std::unique_ptr<Running> &running : m_running) {
        const QString promql = DashboardVariables::substitute(running->definition.query, variables);
        if (promql == running->promql)
            continue;
        // Another question: its series start again, over the window; what was marked stays.
        running->promql = promql;
        running->epoch.advance();
        running->inFlight = false;
        running->fetchedToMs = 0;
        running->fetchedFromMs = 0;
        running->seamMs = 0;
        running->seenAgain.clear();
        running->series.clear();
    }
    if (m_refresh.isActive())
        pollNow();
}

void AnnotationQueryRunner::cover(qint64 fromMs)
{
    bool again = false;
    for (const std::unique_ptr<Running> &running : m_running) {
        if (running->fetchedFromMs == 0) { // not asked yet: its first ask reaches back as far
            running->askFromMs = running->askFromMs == 0 ? fromMs : std::min(running->askFromMs, fromMs);
            continue;
        }
        if (fromMs >= running->fetchedFromMs - stepOf(*running))
            continue;
        // Asked again from scratch, from further back; the marks made so far stay (addOnce
        // finds them again). A replay that had no answer yet keeps the seam it was to mend.
        if (running->fetchedToMs != 0)
            running->seamMs = running->fetchedFromMs;
        running->seenAgain.clear();
        running->askFromMs = fromMs;
        running->epoch.advance();
        running->inFlight = false;
        running->fetchedToMs = 0;
        running->fetchedFromMs = 0;
        running->series.clear();
        again = true;
    }
    if (again && m_refresh.isActive())
        pollNow();
}

quint64 AnnotationQueryRunner::addOnce(Running &running, const Annotation &mark)
{
    quint64 id = 0;
    for (const Annotation &made : m_annotations->annotations()) {
        if (made.source == Annotation::Source::Query && made.author == mark.author && made.timeMs == mark.timeMs &&
            made.isRegion() == mark.isRegion() && made.text == mark.text) {
            id = made.id;
            break;
        }
    }
    if (id == 0)
        id = m_annotations->add(mark);
    if (running.seamMs != 0)
        running.seenAgain.insert(id);
    return id;
}

void AnnotationQueryRunner::dropSeamArtefacts(Running &running)
{
    std::vector<quint64> artefacts;
    for (const Annotation &made : m_annotations->annotations()) {
        if (made.source == Annotation::Source::Query && made.author == running.definition.name &&
            made.timeMs == running.seamMs && !running.seenAgain.contains(made.id))
            artefacts.push_back(made.id);
    }
    for (const quint64 id : artefacts)
        m_annotations->remove(id);
    running.seamMs = 0;
    running.seenAgain.clear();
}

void AnnotationQueryRunner::start(qint64 windowMs, int refreshMs)
{
    m_windowMs = windowMs;
    m_refresh.start(std::max(1000, refreshMs));
    pollNow();
}

void AnnotationQueryRunner::stop()
{
    m_refresh.stop();
}

void AnnotationQueryRunner::pollNow()
{
    for (const std::unique_ptr<Running> &running : m_running) {
        if (!running->inFlight)
            ask(*running);
    }
}

qint64 AnnotationQueryRunner::stepOf(const Running &running) const
{
    return running.definition.stepMs > 0 ? running.definition.stepMs : std::max(1000, m_refresh.interval());
}

void AnnotationQueryRunner::ask(Running &running)
{
    const qint64 step = stepOf(running);
    const qint64 now = m_clock();
    // On the step's grid, so that each fetch's samples fall on the same instants; one step
    // back, so that a sample the last fetch saw half-written is asked again.
    const qint64 window = running.askFromMs != 0 ? std::min(running.askFromMs, now - m_windowMs) : now - m_windowMs;
    const qint64 from = running.fetchedToMs == 0 ? window : running.fetchedToMs - step;
    const TimeRange range{from - from % step, now - now % step};
    if (range.isEmpty())
        return;
    running.inFlight = true;
    if (running.fetchedToMs == 0)
        running.fetchedFromMs = range.startMs;
    const QString promql = DashboardVariables::substituteBuiltins(running.promql, {step, step});
    Running *target = &running;
    whenFinishedIfCurrent(
        m_client->rangeQuery(promql, range, step), this, m_queries,
        [this, target, ticket = running.epoch.current(), step, range](const Result<PromQueryResult> &answer) {
            if (!target->epoch.isCurrent(ticket))
                return; // its text changed meanwhile (a variable): asked again already
            target->inFlight = false;
            if (!answer) {
                if (target->problem != answer.error().message) {
                    target->problem = answer.error().message;
                    emit problemChanged(target->definition.name, target->problem);
                }
                return; // asked again at the next refresh, from where it stopped
            }
            if (!target->problem.isEmpty()) {
                target->problem.clear();
                emit problemChanged(target->definition.name, QString());
            }
            for (const PromSeries &series : answer->series) {
                const QString key = series.labelKey();
                auto found = target->series.find(key);
                if (found == target->series.end()) {
                    QMap<QString, QString> labels = series.labels;
                    labels.remove(QStringLiteral("__name__"));
                    // Absent for more than one step and a half: it stopped matching.
                    found = target->series.emplace(key, QueryMarks(target->definition, labels, step + step / 2)).first;
                }
                found->second.feed(
                    series.timestampsMs, series.values,
                    [this, target](const Annotation &mark) { return addOnce(*target, mark); },
                    [this](const Annotation &mark) { m_annotations->update(mark); });
            }
            target->fetchedToMs = range.endMs;
            if (target->seamMs != 0)
                dropSeamArtefacts(*target);
        });
}
