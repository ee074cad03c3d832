// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/querymarks.h"
#include "base/generation.h"
#include "dashboard/dashboarddefinition.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>
#include <functional>
#include <map>
#include <vector>

class AnnotationModel;
class PrometheusClient;

// A dashboard's annotation queries, live: each is asked over the window once when the run
// starts (the marks of the last hour are there at once), then every refresh for what came
// since, and its samples become marks on every timeline (QueryMarks) of source "query",
// authored by the query's name. A query that fails is said (problem) and asked again at the
// next refresh, from where it stopped: nothing between is lost. Marks are recorded with the
// session as every annotation is. When the view reaches back before what was asked (the
// window widened, the view panned back), cover() asks each query again from there: the marks
// it had are kept, the earlier ones are added, and a mark that was only there because the
// first answer began mid-way (a region cut at its start, a "restarted" point where the
// series was already on) is replaced by the one the longer answer shows.
class AnnotationQueryRunner : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>; // UTC ms

    AnnotationQueryRunner(PrometheusClient *client, AnnotationModel *annotations, QObject *parent = nullptr);

    // The queries and the variables they are asked with; marks made so far stay.
    void setQueries(const std::vector<AnnotationQueryDefinition> &queries,
                    const std::vector<VariableDefinition> &variables);
    // A variable took another value: the queries using it start again over the window.
    void setVariables(const std::vector<VariableDefinition> &variables);
    void start(qint64 windowMs, int refreshMs);
    // The view shows from this instant: the queries asked only later are asked again from it.
    void cover(qint64 fromMs);
    void stop();
    void pollNow();
    void setClock(Clock clock) { m_clock = std::move(clock); }
    int queryCount() const { return int(m_running.size()); }

signals:
    // A query failed (message) or works again (empty message).
    void problemChanged(const QString &name, const QString &message);

private:
    struct Running
    {
        AnnotationQueryDefinition definition;
        QString promql;           // with the variables' values
        qint64 fetchedToMs = 0;   // 0: not yet asked: from askFromMs (or the window) next
        qint64 fetchedFromMs = 0; // the first instant asked
        qint64 askFromMs = 0;     // set by cover(): where the next ask from scratch begins
        // While asked again from further back: where the earlier answers began, and the marks
        // the new answer made or found; one of this query's marks at the seam that is not
        // among them was an artefact of beginning there.
        qint64 seamMs = 0;
        QSet<quint64> seenAgain;
        bool inFlight = false;
        QString problem;
        std::map<QString, QueryMarks> series; // by label set
        Generation epoch;                     // advanced when its text changes: older answers are dropped
    };

    void ask(Running &running);
    qint64 stepOf(const Running &running) const;
    // A mark this query made already (same words, same instant) is found, not added twice.
    quint64 addOnce(Running &running, const Annotation &mark);
    void dropSeamArtefacts(Running &running);

    PrometheusClient *m_client;
    AnnotationModel *m_annotations;
    std::vector<std::unique_ptr<Running>> m_running;
    std::vector<VariableDefinition> m_variables;
    Generation m_queries; // advanced by setQueries: answers for the old set are dropped unread
    QTimer m_refresh;
    qint64 m_windowMs = 15LL * 60'000;
    Clock m_clock;
};
