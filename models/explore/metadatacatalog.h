// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/generation.h"
#include "base/result.h"
#include "explore/promqlcompletion.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

class PrometheusClient;

// What the query bar completes from, asked of the Prometheus in use and kept for a minute:
// its metric names (GET /api/v1/label/__name__/values), label names (/api/v1/labels, of one
// metric with match[]) and a label's values (/api/v1/label/<name>/values, of one metric with
// match[]). Each list is asked once at a time, parsed off the UI thread, and said with
// updated() when it arrives; what is asked for again within the minute is answered from what
// is kept. A failure is said once with failed() and the completion goes on with what it has.
class MetadataCatalog : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kFreshForMs = 60'000;

    explicit MetadataCatalog(PrometheusClient *client, QObject *parent = nullptr);
    ~MetadataCatalog() override;

    // The dashboard's variables, offered after '$' and among a label's values.
    void setVariables(const QStringList &names) { m_variables = names; }
    // Asks for what completing in this context needs and is not kept fresh.
    void prepare(const PromqlCompletion::Context &context);
    // What is known now for this context.
    PromqlCompletion::Catalog catalogFor(const PromqlCompletion::Context &context) const;
    // Forgets what is kept (another Prometheus, or "refresh").
    void clear();
    // How many requests are on their way (for tests and a busy marker).
    int pending() const { return int(m_lists.size()) - m_arrived; }

signals:
    void updated();
    void failed(const QString &message);

private:
    struct List
    {
        QStringList names;
        bool arrived = false;
        QElapsedTimer age;
        QFuture<Result<QStringList>> request;
    };
    // Asks for the list at this API path unless it is kept fresh or on its way.
    void ask(const QString &key, const QString &apiPath, const QString &match, const QString &what);
    QStringList namesOf(const QString &key) const;

    PrometheusClient *m_client;
    QHash<QString, List> m_lists; // by "metrics", "labels:<metric>", "values:<label>:<metric>"
    int m_arrived = 0;
    QStringList m_variables;
    Generation m_generation; // advanced by clear(): older answers are dropped
};
