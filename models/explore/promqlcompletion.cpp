// SPDX-License-Identifier: GPL-3.0-or-later
#include "explore/promqlcompletion.h"

#include <QRegularExpression>
#include <algorithm>

namespace PromqlCompletion {

namespace {

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char(':');
}

// The identifier that ends at `end` (exclusive), skipping white space before it.
QString identifierBefore(const QString &text, int end, int *start = nullptr)
{
    int i = end;
    while (i > 0 && text[i - 1].isSpace())
        --i;
    const int last = i;
    while (i > 0 && isWordChar(text[i - 1]))
        --i;
    if (start)
        *start = i;
    return text.mid(i, last - i);
}

} // namespace

const QStringList &functions()
{
    static const QStringList names{
        // aggregations
        QStringLiteral("sum"), QStringLiteral("avg"), QStringLiteral("min"), QStringLiteral("max"),
        QStringLiteral("count"), QStringLiteral("stddev"), QStringLiteral("stdvar"), QStringLiteral("topk"),
        QStringLiteral("bottomk"), QStringLiteral("quantile"), QStringLiteral("count_values"), QStringLiteral("group"),
        // functions
        QStringLiteral("abs"), QStringLiteral("absent"), QStringLiteral("absent_over_time"), QStringLiteral("ceil"),
        QStringLiteral("changes"), QStringLiteral("clamp"), QStringLiteral("clamp_max"), QStringLiteral("clamp_min"),
        QStringLiteral("day_of_month"), QStringLiteral("day_of_week"), QStringLiteral("days_in_month"),
        QStringLiteral("delta"), QStringLiteral("deriv"), QStringLiteral("exp"), QStringLiteral("floor"),
        QStringLiteral("histogram_quantile"), QStringLiteral("holt_winters"), QStringLiteral("hour"),
        QStringLiteral("idelta"), QStringLiteral("increase"), QStringLiteral("irate"), QStringLiteral("label_join"),
        QStringLiteral("label_replace"), QStringLiteral("ln"), QStringLiteral("log10"), QStringLiteral("log2"),
        QStringLiteral("minute"), QStringLiteral("month"), QStringLiteral("predict_linear"), QStringLiteral("rate"),
        QStringLiteral("resets"), QStringLiteral("round"), QStringLiteral("scalar"), QStringLiteral("sgn"),
        QStringLiteral("sort"), QStringLiteral("sort_desc"), QStringLiteral("sqrt"), QStringLiteral("time"),
        QStringLiteral("timestamp"), QStringLiteral("vector"), QStringLiteral("year"), QStringLiteral("avg_over_time"),
        QStringLiteral("min_over_time"), QStringLiteral("max_over_time"), QStringLiteral("sum_over_time"),
        QStringLiteral("count_over_time"), QStringLiteral("quantile_over_time"), QStringLiteral("stddev_over_time"),
        QStringLiteral("stdvar_over_time"), QStringLiteral("last_over_time"), QStringLiteral("present_over_time")};
    return names;
}

Context contextAt(const QString &query, int cursor)
{
    cursor = std::clamp(cursor, 0, int(query.size()));
    Context context;
    // Walk up to the cursor, keeping what matters: inside a string (and which quote), inside
    // braces (and where they opened), inside [ ] (a duration).
    bool inString = false;
    QChar quote;
    int stringStart = -1;
    int braceOpen = -1;
    bool inBrackets = false;
    for (int i = 0; i < cursor; ++i) {
        const QChar c = query[i];
        if (inString) {
            if (c == QLatin1Char('\\')) {
                ++i;
                continue;
            }
            if (c == quote)
                inString = false;
            continue;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'') || c == QLatin1Char('`')) {
            inString = true;
            quote = c;
            stringStart = i;
        } else if (c == QLatin1Char('{')) {
            braceOpen = i;
        } else if (c == QLatin1Char('}')) {
            braceOpen = -1;
        } else if (c == QLatin1Char('[')) {
            inBrackets = true;
        } else if (c == QLatin1Char(']')) {
            inBrackets = false;
        }
    }
    if (braceOpen >= 0)
        context.metric = identifierBefore(query, braceOpen);

    if (inString) {
        // A label value: the string follows `label op` inside braces.
        int opEnd = stringStart;
        while (opEnd > 0 && query[opEnd - 1].isSpace())
            --opEnd;
        int opStart = opEnd;
        while (opStart > 0 && QStringLiteral("=!~").contains(query[opStart - 1]))
            --opStart;
        if (braceOpen >= 0 && opStart < opEnd) {
            context.kind = Context::Kind::LabelValue;
            context.label = identifierBefore(query, opStart);
            context.quote = quote;
            context.replaceFrom = stringStart + 1;
            int end = cursor;
            while (end < query.size() && query[end] != quote)
                ++end;
            context.replaceTo = end;
            context.prefix = query.mid(stringStart + 1, cursor - stringStart - 1);
        }
        return context;
    }
    if (inBrackets)
        return context; // a duration: nothing to offer

    int start = cursor;
    while (start > 0 && isWordChar(query[start - 1]))
        --start;
    int end = cursor;
    while (end < query.size() && isWordChar(query[end]))
        ++end;
    context.replaceFrom = start;
    context.replaceTo = end;
    context.prefix = query.mid(start, cursor - start);
    if (start > 0 && query[start - 1] == QLatin1Char('$')) {
        context.kind = Context::Kind::Variable;
        return context;
    }
    if (!context.prefix.isEmpty() && context.prefix.front().isDigit())
        return context; // a number
    if (braceOpen >= 0) {
        context.kind = Context::Kind::LabelName;
        return context;
    }
    // After "by (" or "without (" come label names too.
    const int open = query.lastIndexOf(QLatin1Char('('), start - 1);
    const int close = query.lastIndexOf(QLatin1Char(')'), start - 1);
    if (open >= 0 && open > close) {
        const QString before = identifierBefore(query, open).toLower();
        if (before == QLatin1String("by") || before == QLatin1String("without")) {
            context.kind = Context::Kind::LabelName;
            return context;
        }
    }
    context.kind = Context::Kind::Expression;
    return context;
}

std::vector<Item> complete(const Context &context, const Catalog &catalog, int limit)
{
    std::vector<Item> starting;
    std::vector<Item> containing;
    const auto offer = [&](const QStringList &names, const QString &detail) {
        for (const QString &name : names) {
            if (name == context.prefix)
                continue; // typed whole already
            if (name.startsWith(context.prefix, Qt::CaseInsensitive))
                starting.push_back({name, detail});
            else if (!context.prefix.isEmpty() && name.contains(context.prefix, Qt::CaseInsensitive))
                containing.push_back({name, detail});
        }
    };
    switch (context.kind) {
    case Context::Kind::Expression:
        offer(functions(), QStringLiteral("function"));
        offer(catalog.metrics, QStringLiteral("metric"));
        break;
    case Context::Kind::LabelName:
        offer(catalog.labels, QStringLiteral("label"));
        break;
    case Context::Kind::LabelValue:
        offer(catalog.labelValues.value(context.label), QStringLiteral("value"));
        for (const QString &variable : catalog.variables)
            if ((QLatin1Char('$') + variable).startsWith(context.prefix))
                starting.push_back({QLatin1Char('$') + variable, QStringLiteral("variable")});
        break;
    case Context::Kind::Variable:
        offer(catalog.variables, QStringLiteral("variable"));
        break;
    case Context::Kind::None:
        return {};
    }
    // Shorter names first among the same kind of match: "rate" before "rate_limit_total";
    // with nothing typed yet, in alphabetical order, as a list to read ("instance" once came
    // 17th after "le", "job", "code").
    const bool typed = !context.prefix.isEmpty();
    const auto order = [typed](const Item &a, const Item &b) {
        if (typed && a.text.size() != b.text.size())
            return a.text.size() < b.text.size();
        return a.text < b.text;
    };
    std::stable_sort(starting.begin(), starting.end(), order);
    std::stable_sort(containing.begin(), containing.end(), order);
    starting.insert(starting.end(), containing.begin(), containing.end());
    if (int(starting.size()) > limit)
        starting.resize(std::size_t(std::max(0, limit)));
    return starting;
}

QString apply(const QString &query, const Context &context, const Item &item, int *cursor)
{
    QString insert = item.text;
    int after = 0;
    if (item.detail == QLatin1String("function") &&
        !query.mid(context.replaceTo).trimmed().startsWith(QLatin1Char('('))) {
        insert += QLatin1Char('(');
        after = int(insert.size());
    } else {
        // A label value: its string closed, and the cursor past the closing quote.
        if (context.kind == Context::Kind::LabelValue && context.replaceTo >= query.size())
            insert += context.quote;
        after = int(insert.size());
        if (context.kind == Context::Kind::LabelValue && context.replaceTo < query.size())
            ++after;
    }
    QString result = query;
    result.replace(context.replaceFrom, context.replaceTo - context.replaceFrom, insert);
    if (cursor)
        *cursor = context.replaceFrom + after;
    return result;
}

std::optional<int> errorPosition(const QString &query, const QString &message)
{
    static const QRegularExpression position(QStringLiteral(R"((?:^|[\s"])(\d+):(\d+):)"));
    const QRegularExpressionMatch match = position.match(message);
    if (!match.hasMatch())
        return std::nullopt;
    const int line = match.captured(1).toInt();
    const int column = match.captured(2).toInt();
    if (line < 1 || column < 1)
        return std::nullopt;
    int offset = 0;
    for (int l = 1; l < line; ++l) {
        const int newline = int(query.indexOf(QLatin1Char('\n'), offset));
        if (newline < 0)
            return std::nullopt;
        offset = newline + 1;
    }
    return std::min(int(query.size()), offset + column - 1);
}

} // namespace PromqlCompletion
