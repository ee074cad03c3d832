// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/generation.h"
#include "base/result.h"
#include "dashboard/dashboarddefinition.h"

#include <QByteArray>
#include <QFuture>
#include <QObject>
#include <QStringList>
#include <map>

class PrometheusClient;
struct HttpAnswer;

// The choices of a label-values variable: asks Prometheus which values a label has
// (GET /api/v1/label/<label>/values, with match[] when the variable names a selector), and
// answers with loaded() or failed() — never from inside load(). The request goes through the
// client (its size cap, deadline, turns and retries). A load asking what one still on its
// way asks waits for that answer; a load of the same variable asking something else (its
// selector or value changed) supersedes the older: that one is cancelled, on the wire or in
// its parse, and never answers. The answer is parsed off the UI thread.
class VariableValuesLoader : public QObject
{
    Q_OBJECT
public:
    explicit VariableValuesLoader(PrometheusClient *client, QObject *parent = nullptr);
    ~VariableValuesLoader() override;

    // Does nothing for a variable that is not a label-values one.
    void load(const VariableDefinition &variable);

    // The label values in a /api/v1/label/<label>/values answer, sorted as Prometheus sent
    // them. An error says what was wrong in words a user can act on.
    static Result<QStringList> parseLabelValues(const QByteArray &json, const QString &label);
    // The same for a whole answer: a Prometheus error body, or any other HTTP error, is an
    // Error in the client's words. Pure (runs on a worker thread).
    static Result<QStringList> parseAnswer(const HttpAnswer &answer, const QString &label);

signals:
    // `choices`: Prometheus' values with the variable's current value first when it is not
    // among them (DashboardVariables::choicesWithCurrent).
    void loaded(const QString &name, const QStringList &choices);
    void failed(const QString &name, const QString &message);

private:
    struct Pending
    {
        Generation generation; // advanced by each load of the variable
        QString question;      // the selector and value asked about
        QFuture<Result<QStringList>> values;
    };

    PrometheusClient *m_client;
    std::map<QString, Pending> m_pending; // by variable name; a node-based map: each Generation stays put
};
