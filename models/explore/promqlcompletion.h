// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

// Completion of a PromQL expression at the cursor, as the query bar offers it: metric names
// and functions where an expression may start, label names inside a selector's braces, a
// label's values after `label=`, `label!=`, `label=~` and the dashboard's variables after
// `$`. Pure: the names come from a catalog the caller fills from Prometheus (MetadataCatalog),
// so every case is tested without a server.
namespace PromqlCompletion {

// What the completion knows of the Prometheus in use and the dashboard.
struct Catalog
{
    QStringList metrics;
    QStringList labels;                      // every label name (or a metric's, when known)
    QHash<QString, QStringList> labelValues; // by label name
    QStringList variables;                   // the dashboard's, without '$'
};

// Where the cursor is and what it may complete.
struct Context
{
    enum class Kind
    {
        Expression, // a metric name or a function
        LabelName,  // inside {…}, before an operator
        LabelValue, // inside the quotes after `label=`
        Variable,   // after '$'
        None,       // inside a string that is no label value, a number, a duration
    };
    Kind kind = Kind::None;
    QString prefix;      // what is typed of the word so far
    QString label;       // LabelValue: whose values
    QChar quote;         // LabelValue: the quote the value opened with
    QString metric;      // the selector's metric, when one is written before the braces
    int replaceFrom = 0; // the span the chosen item replaces
    int replaceTo = 0;
};

struct Item
{
    QString text;   // shown and inserted
    QString detail; // "metric", "function", "label", "value", "variable"
};

Context contextAt(const QString &query, int cursor);
// The items for a context, best first: those starting with the prefix (any case), then those
// containing it; at most `limit`.
std::vector<Item> complete(const Context &context, const Catalog &catalog, int limit = 50);
// The query with the item put in place of the context's span; `cursor` is set after it (and
// a function's opening parenthesis, a label value's closing quote, written when missing).
QString apply(const QString &query, const Context &context, const Item &item, int *cursor);

// The functions and aggregations of PromQL, by name.
const QStringList &functions();

// The character offset Prometheus names in a parse error ("1:12: parse error: …", line and
// column from 1), for the error marker under the bar; nullopt when the message names none.
std::optional<int> errorPosition(const QString &query, const QString &message);

} // namespace PromqlCompletion
