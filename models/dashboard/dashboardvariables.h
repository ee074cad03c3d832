// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "store/serieskey.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

// The $variables of a dashboard's queries: which names a query uses, and the query with the
// values put in. Three forms, as Grafana writes them: $name, ${name} and [[name]]. Only a $
// followed by a letter or _ starts a name, so label_replace's "$1" stays as it is.
//
// Two built-ins need no declaration, because queries imported from Grafana keep them:
//  - $__interval: the step of the request, as a Prometheus duration ("15s");
//  - $__rate_interval: max(step + scrape interval, 4 × scrape interval), the shortest range
//    a rate() can take without gaps (Grafana's definition).
namespace DashboardVariables {

// "All" of a variable offering it: the regex that matches every value, put into queries as
// it is (for a =~ matcher). The Grafana importer writes it so too.
inline const QString kAllValue = QStringLiteral(".*");

// What the built-ins are made of, known only when a request is planned.
struct Timing
{
    qint64 stepMs = 0;
    qint64 scrapeIntervalMs = 0;
};

// The names a query uses, each once, in order of first use, without the built-ins.
QStringList referencedNames(const QString &query);
bool isBuiltin(const QString &name);
// A name a file may declare: letters, digits and _, not starting with a digit, not "__…".
bool isValidName(const QString &name);

// Puts in the declared variables' values. Built-ins and undeclared names are
// left as they are.
QString substitute(const QString &query, const std::vector<VariableDefinition> &variables);
// Puts in the built-ins for one request.
QString substituteBuiltins(const QString &query, const Timing &timing);
qint64 rateIntervalMs(const Timing &timing);

// The values of choosable variables a query is asked with, as its store keys name them, so
// that series of different values never share a key: a session keeps what each value
// showed, and reopened shows the last one. Empty when it uses none (a fixed value never
// changes: keys stay as they were).
SeriesKey::Variables keyValues(const QString &query, const std::vector<VariableDefinition> &variables);
// Their part of a store key: "$namespace=prod/" (SeriesKey::valuesSegment); empty without.
QString keySegment(const QString &query, const std::vector<VariableDefinition> &variables);

const VariableDefinition *find(const std::vector<VariableDefinition> &variables, const QString &name);

// The choices a combo box offers for a label-values variable: Prometheus' values, with the
// current value first when it is not among them (chosen by hand, or the file's default, it
// is kept rather than silently replaced).
QStringList choicesWithCurrent(const QStringList &values, const QString &current);

} // namespace DashboardVariables
