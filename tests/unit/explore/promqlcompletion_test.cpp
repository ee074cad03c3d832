// SPDX-License-Identifier: GPL-3.0-or-later
// Completion in the query bar: what the cursor may complete in an expression, and the query
// once an item is chosen.
#include "explore/promqlcompletion.h"

#include <gtest/gtest.h>

using namespace PromqlCompletion;

namespace {

Catalog catalog()
{
    Catalog c;
    c.metrics = {QStringLiteral("starter_requests_sent_total"), QStringLiteral("starter_rate"),
                 QStringLiteral("http_client_pool_pending"), QStringLiteral("engine_queue_length")};
    c.labels = {QStringLiteral("job"), QStringLiteral("instance"), QStringLiteral("status")};
    c.labelValues.insert(QStringLiteral("job"), {QStringLiteral("starter"), QStringLiteral("engine")});
    c.variables = {QStringLiteral("namespace")};
    return c;
}

QStringList texts(const std::vector<Item> &items)
{
    QStringList result;
    for (const Item &item : items)
        result << item.text;
    return result;
}

// The query with '|' as the cursor: its context.
Context at(const QString &marked)
{
    return contextAt(QString(marked).remove(QLatin1Char('|')), int(marked.indexOf(QLatin1Char('|'))));
}

} // namespace

TEST(PromqlCompletion, AMetricNameOrAFunctionWhereAnExpressionStarts)
{
    const Context context = at(QStringLiteral("sum(rate(star|[10s]))"));
    EXPECT_EQ(context.kind, Context::Kind::Expression);
    EXPECT_EQ(context.prefix, QStringLiteral("star"));
    const std::vector<Item> items = complete(context, catalog());
    EXPECT_EQ(texts(items),
              (QStringList{QStringLiteral("starter_rate"), QStringLiteral("starter_requests_sent_total")}))
        << "shorter first";
    int cursor = 0;
    const QString query = apply(QStringLiteral("sum(rate(star[10s]))"), context, items[1], &cursor);
    EXPECT_EQ(query, QStringLiteral("sum(rate(starter_requests_sent_total[10s]))"));
    EXPECT_EQ(cursor, 36);

    // Functions get their parenthesis; a name containing the prefix comes after those starting with it.
    const Context ra = at(QStringLiteral("ra|"));
    const std::vector<Item> functions = complete(ra, catalog());
    ASSERT_FALSE(functions.empty());
    EXPECT_EQ(functions.front().text, QStringLiteral("rate"));
    EXPECT_EQ(apply(QStringLiteral("ra"), ra, functions.front(), &cursor), QStringLiteral("rate("));
    EXPECT_EQ(cursor, 5);
    EXPECT_TRUE(
        texts(complete(at(QStringLiteral("pend|")), catalog())).contains(QStringLiteral("http_client_pool_pending")));
}

TEST(PromqlCompletion, LabelNamesInsideBracesAndAfterBy)
{
    const Context inside = at(QStringLiteral("starter_rate{jo|}"));
    EXPECT_EQ(inside.kind, Context::Kind::LabelName);
    EXPECT_EQ(inside.metric, QStringLiteral("starter_rate"));
    EXPECT_EQ(texts(complete(inside, catalog())), QStringList{QStringLiteral("job")});
    const Context by = at(QStringLiteral("sum by (st|) (rate(x[1m]))"));
    EXPECT_EQ(by.kind, Context::Kind::LabelName);
    EXPECT_EQ(texts(complete(by, catalog())), (QStringList{QStringLiteral("status"), QStringLiteral("instance")}))
        << "starting with the prefix first, then containing it";
    // With nothing typed, a list to read: in alphabetical order, not the shortest first.
    const Context opened = at(QStringLiteral("{|"));
    EXPECT_EQ(opened.kind, Context::Kind::LabelName);
    EXPECT_EQ(texts(complete(opened, catalog())),
              (QStringList{QStringLiteral("instance"), QStringLiteral("job"), QStringLiteral("status")}));
}

TEST(PromqlCompletion, ALabelsValuesInsideItsQuotesAndTheVariables)
{
    const Context value = at(QStringLiteral("starter_rate{job=\"st|\"}"));
    EXPECT_EQ(value.kind, Context::Kind::LabelValue);
    EXPECT_EQ(value.label, QStringLiteral("job"));
    EXPECT_EQ(value.prefix, QStringLiteral("st"));
    const std::vector<Item> items = complete(value, catalog());
    ASSERT_EQ(texts(items), QStringList{QStringLiteral("starter")});
    int cursor = 0;
    EXPECT_EQ(apply(QStringLiteral("starter_rate{job=\"st\"}"), value, items.front(), &cursor),
              QStringLiteral("starter_rate{job=\"starter\"}"));
    EXPECT_EQ(cursor, 26) << "after the closing quote";
    EXPECT_TRUE(texts(complete(at(QStringLiteral("x{job=~\"|\"}")), catalog())).contains(QStringLiteral("$namespace")));
    // Typed without its closing quote: the value closes it.
    const Context open = at(QStringLiteral("x{job=\"en|"));
    EXPECT_EQ(apply(QStringLiteral("x{job=\"en"), open, {QStringLiteral("engine"), QStringLiteral("value")}, &cursor),
              QStringLiteral("x{job=\"engine\""));
    EXPECT_EQ(cursor, 14);

    const Context variable = at(QStringLiteral("x{namespace=\"$na|\"}"));
    EXPECT_EQ(variable.kind, Context::Kind::LabelValue);
    const Context bare = at(QStringLiteral("x{namespace=$na|}"));
    EXPECT_EQ(bare.kind, Context::Kind::Variable);
    EXPECT_EQ(texts(complete(bare, catalog())), QStringList{QStringLiteral("namespace")});
}

TEST(PromqlCompletion, NothingInADurationANumberOrAnotherString)
{
    EXPECT_EQ(at(QStringLiteral("rate(x[1|m])")).kind, Context::Kind::None);
    EXPECT_EQ(at(QStringLiteral("x > 10|")).kind, Context::Kind::None);
    EXPECT_EQ(at(QStringLiteral("label_replace(x, \"d|\", \"\", \"\", \"\")")).kind, Context::Kind::None);
    EXPECT_TRUE(complete(at(QStringLiteral("rate(x[1|m])")), catalog()).empty());
}

TEST(PromqlCompletion, TheErrorPositionPrometheusNames)
{
    const QString query = QStringLiteral("sum(rate(x[5m])");
    EXPECT_EQ(errorPosition(query, QStringLiteral("invalid parameter \"query\": 1:16: parse error: unclosed left "
                                                  "parenthesis")),
              std::optional<int>(15));
    EXPECT_EQ(errorPosition(QStringLiteral("a\nbc{"), QStringLiteral("2:3: parse error: unexpected end of input")),
              std::optional<int>(4));
    EXPECT_FALSE(errorPosition(query, QStringLiteral("query timed out in expression evaluation")).has_value());
}
