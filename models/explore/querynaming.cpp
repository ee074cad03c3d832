// SPDX-License-Identifier: GPL-3.0-or-later
#include "explore/querynaming.h"

#include "explore/promqlcompletion.h"

#include <QRegularExpression>
#include <QStringList>

namespace QueryNaming {

namespace {

const QStringList &keywords()
{
    static const QStringList words{
        QStringLiteral("by"),       QStringLiteral("without"),    QStringLiteral("on"),
        QStringLiteral("ignoring"), QStringLiteral("group_left"), QStringLiteral("group_right"),
        QStringLiteral("offset"),   QStringLiteral("bool"),       QStringLiteral("and"),
        QStringLiteral("or"),       QStringLiteral("unless")};
    return words;
}

// The query's parts a title and a unit are made of.
struct Reading
{
    QString metric;    // the first name that is no function, keyword, label or value
    QString filters;   // its selector's matchers, as written: outcome="timeout"
    QString rate;      // "rate" (rate, irate), "increase", or empty
    QString quantile;  // "p99" of a histogram_quantile(0.99, …)
    QString aggregate; // an outer aggregation other than sum: "max", "avg", …
    QString by;        // the labels it is split by: "pod"
};

Reading read(const QString &query)
{
    Reading reading;
    static const QRegularExpression name(QStringLiteral(R"([a-zA-Z_:][a-zA-Z0-9_:]*)"));
    // Label names and values are no metrics: leave out what is inside {…} and quotes (the
    // same length, so that offsets still point into the query).
    QString bare = query;
    static const QRegularExpression hidden(
        QStringLiteral(R"(\{[^}]*\}|"[^"]*"|\[[^\]]*\]|\b(?:by|without|on|ignoring)\s*\([^)]*\))"));
    for (auto it = hidden.globalMatch(query); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        bare.replace(match.capturedStart(), match.capturedLength(), QString(match.capturedLength(), QLatin1Char(' ')));
    }
    for (auto it = name.globalMatch(bare); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        const QString word = match.captured(0);
        const bool isCall = bare.mid(match.capturedEnd()).trimmed().startsWith(QLatin1Char('('));
        if (isCall || keywords().contains(word) || PromqlCompletion::functions().contains(word))
            continue;
        reading.metric = word;
        const QString after = query.mid(match.capturedEnd());
        if (after.startsWith(QLatin1Char('{')))
            reading.filters = after.mid(1, after.indexOf(QLatin1Char('}')) - 1).trimmed();
        break;
    }
    static const QRegularExpression rate(QStringLiteral(R"(\b(i?rate|increase)\s*\()"));
    if (const QRegularExpressionMatch match = rate.match(query); match.hasMatch())
        reading.rate =
            match.captured(1) == QLatin1String("increase") ? QStringLiteral("increase") : QStringLiteral("rate");
    static const QRegularExpression quantile(QStringLiteral(R"(\bhistogram_quantile\s*\(\s*([0-9.]+))"));
    if (const QRegularExpressionMatch match = quantile.match(query); match.hasMatch()) {
        const double q = match.captured(1).toDouble();
        reading.quantile = QStringLiteral("p%1").arg(q * 100, 0, 'g', 4);
    }
    static const QRegularExpression outer(QStringLiteral(R"(^\s*(sum|avg|min|max|count|stddev|stdvar|group)\b)"));
    if (const QRegularExpressionMatch match = outer.match(query);
        match.hasMatch() && match.captured(1) != QLatin1String("sum"))
        reading.aggregate = match.captured(1);
    // The outermost split: the first "by (…)" that is not a histogram's "le".
    static const QRegularExpression by(QStringLiteral(R"(\bby\s*\(([^)]*)\))"));
    for (auto it = by.globalMatch(query); it.hasNext();) {
        QStringList labels = it.next().captured(1).split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (QString &label : labels)
            label = label.trimmed();
        labels.removeAll(QStringLiteral("le"));
        if (!labels.isEmpty()) {
            reading.by = labels.join(QStringLiteral(", "));
            break;
        }
    }
    return reading;
}

QString shortened(const QString &query)
{
    const QString simplified = query.simplified();
    return simplified.size() <= 60 ? simplified : simplified.left(59) + QChar(0x2026);
}

} // namespace

QString title(const QString &query)
{
    const Reading reading = read(query);
    if (reading.metric.isEmpty())
        return shortened(query);
    QString metric = reading.metric;
    if (!reading.quantile.isEmpty() && metric.endsWith(QLatin1String("_bucket")))
        metric.chop(int(qstrlen("_bucket")));
    QString selector = reading.filters.isEmpty() ? metric : QStringLiteral("%1{%2}").arg(metric, reading.filters);
    QString text = selector;
    if (!reading.rate.isEmpty() && reading.quantile.isEmpty())
        text = QStringLiteral("%1 of %2").arg(reading.rate, text);
    if (!reading.quantile.isEmpty())
        text = QStringLiteral("%1 of %2").arg(reading.quantile, text);
    else if (!reading.aggregate.isEmpty())
        text = QStringLiteral("%1 of %2").arg(reading.aggregate, text);
    if (!reading.by.isEmpty())
        text += QStringLiteral(" by ") + reading.by;
    return text;
}

QString unit(const QString &query)
{
    const Reading reading = read(query);
    QString metric = reading.metric;
    if (metric.isEmpty() || reading.aggregate == QLatin1String("count"))
        return {};
    if (!reading.quantile.isEmpty()) {
        if (metric.endsWith(QLatin1String("_seconds_bucket")))
            return QStringLiteral("s");
        if (metric.endsWith(QLatin1String("_bytes_bucket")))
            return QStringLiteral("bytes");
        return {};
    }
    if (reading.rate == QLatin1String("rate")) {
        // A counter per second: events, or bytes; seconds per second is a share, no unit.
        for (const char *suffix : {"_total", "_count", "_sum"}) {
            if (metric.endsWith(QLatin1String(suffix))) {
                metric.chop(int(qstrlen(suffix)));
                break;
            }
        }
        if (metric.endsWith(QLatin1String("_bytes")))
            return QStringLiteral("bytes/s");
        if (metric.endsWith(QLatin1String("_seconds")))
            return {};
        return QStringLiteral("ops/s");
    }
    if (!reading.rate.isEmpty())
        return metric.endsWith(QLatin1String("_bytes_total")) ? QStringLiteral("bytes") : QString();
    if (metric.endsWith(QLatin1String("_seconds")))
        return QStringLiteral("s");
    if (metric.endsWith(QLatin1String("_bytes")))
        return QStringLiteral("bytes");
    return {};
}

} // namespace QueryNaming
