// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/prometheusresponseparser.h"

#include "base/jsontext.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QRegularExpression>
#include <cmath>
#include <limits>
#include <optional>

namespace PrometheusResponseParser {
namespace {

// Beyond the year 2286 or before 1683 a "timestamp" is a unit mistake, not a time.
constexpr double kMaxAbsTimestampSeconds = 1e10;
constexpr int kSnippetChars = 160;

bool isSuccess(int httpStatus)
{
    // 0: the caller has no HTTP status (a file, a test); judge the body alone.
    return httpStatus == 0 || (httpStatus >= 200 && httpStatus < 300);
}

bool looksLikeHtml(const QByteArray &body)
{
    const QByteArray start = body.left(512).trimmed().toLower();
    return start.startsWith("<!doctype html") || start.startsWith("<html") || start.contains("<body") ||
           start.contains("<head");
}

// What a person needs to recognise the answer: an HTML page's title, otherwise its first words.
QString bodySnippet(const QByteArray &body)
{
    const QString text = QString::fromUtf8(body.left(qsizetype(64) * 1024));
    static const QRegularExpression title(QStringLiteral("<title[^>]*>(.*?)</title>"),
                                          QRegularExpression::CaseInsensitiveOption |
                                              QRegularExpression::DotMatchesEverythingOption);
    QString snippet;
    const QRegularExpressionMatch match = title.match(text);
    if (match.hasMatch()) {
        snippet = match.captured(1);
    } else {
        static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
        snippet = QString(text).replace(tags, QStringLiteral(" "));
    }
    snippet = snippet.simplified();
    if (snippet.size() > kSnippetChars)
        snippet = snippet.left(kSnippetChars - 1) + QChar(0x2026);
    return snippet;
}

Error httpError(const QByteArray &body, int httpStatus)
{
    const QString snippet = bodySnippet(body);
    QString message = QStringLiteral("The server answered HTTP %1 instead of a Prometheus API answer").arg(httpStatus);
    if (!snippet.isEmpty())
        message += QStringLiteral(": \"%1\"").arg(snippet);
    return Error::make(Error::Kind::Http, message, httpStatus, snippet);
}

Error parseError(const QString &what, int httpStatus)
{
    return Error::make(Error::Kind::Parse, QStringLiteral("The answer is not a Prometheus API answer: %1").arg(what),
                       httpStatus);
}

QString describeJsonError(const QJsonParseError &error, const QByteArray &body)
{
    // A parse error in the last few bytes means the answer ended early (a proxy or the
    // server gave up mid-way); say so, it is the actionable part.
    const bool atEnd = error.offset >= body.size() - 2;
    QString text = QStringLiteral("it is not valid JSON (%1 at byte %2 of %3)")
                       .arg(error.errorString())
                       .arg(error.offset)
                       .arg(body.size());
    if (atEnd && body.size() > 0)
        text += QStringLiteral("; it looks cut off");
    return text;
}

// Parses the answer of one request; the first problem found ends it.
class Reader
{
public:
    Reader(int httpStatus, const Limits &limits) : m_httpStatus(httpStatus), m_limits(limits) {}

    Result<PromQueryResult> read(const QJsonObject &data, const QJsonArray &warnings);

private:
    bool readMatrix(const QJsonArray &result);
    bool readVector(const QJsonArray &result);
    bool readSeriesLabels(const QJsonObject &object, qsizetype index, PromSeries *series);
    // The part every series entry of a matrix or vector shares: an object with "metric".
    bool readSeriesEntry(const QJsonValue &entry, qsizetype index, QJsonObject *object, PromSeries *series);
    bool readSample(const QJsonValue &pair, const QString &where, qint64 *timeMs, double *value,
                    QString *text = nullptr);
    qsizetype cappedCount(qsizetype count);
    void noteHistogramSkipped();
    void fail(const QString &what) { m_error = what; }
    static QString where(const PromSeries &series, qsizetype index);

    int m_httpStatus;
    Limits m_limits;
    PromQueryResult m_result;
    std::optional<QString> m_error;
    bool m_histogramNoted = false;
};

Result<PromQueryResult> Reader::read(const QJsonObject &data, const QJsonArray &warnings)
{
    for (const auto &warning : warnings) {
        if (warning.isString())
            m_result.warnings.append(warning.toString());
    }

    const QJsonValue resultType = data.value(QLatin1String("resultType"));
    const QJsonValue result = data.value(QLatin1String("result"));
    if (!resultType.isString())
        return parseError(
            QStringLiteral("\"data.resultType\" is %1, expected a string").arg(JsonText::typeName(resultType)),
            m_httpStatus);
    const QString type = resultType.toString();

    if (type == QLatin1String("matrix") || type == QLatin1String("vector")) {
        if (!result.isArray())
            return parseError(QStringLiteral("\"data.result\" of a %1 is %2, expected an array")
                                  .arg(type, JsonText::typeName(result)),
                              m_httpStatus);
        const bool isMatrix = type == QLatin1String("matrix");
        m_result.type = isMatrix ? PromQueryResult::Type::Matrix : PromQueryResult::Type::Vector;
        const bool ok = isMatrix ? readMatrix(result.toArray()) : readVector(result.toArray());
        if (!ok)
            return parseError(*m_error, m_httpStatus);
    } else if (type == QLatin1String("scalar") || type == QLatin1String("string")) {
        const bool isScalar = type == QLatin1String("scalar");
        m_result.type = isScalar ? PromQueryResult::Type::Scalar : PromQueryResult::Type::String;
        PromSeries series;
        qint64 t = 0;
        double v = 0;
        QString text;
        if (!readSample(result, QStringLiteral("the %1 result").arg(type), &t, &v, isScalar ? nullptr : &text))
            return parseError(*m_error, m_httpStatus);
        series.timestampsMs.push_back(t);
        series.values.push_back(v);
        m_result.series.push_back(std::move(series));
        m_result.text = text;
    } else {
        return parseError(QStringLiteral("unknown \"data.resultType\" \"%1\" (expected matrix, "
                                         "vector, scalar or string)")
                              .arg(type.left(kSnippetChars)),
                          m_httpStatus);
    }
    return std::move(m_result);
}

qsizetype Reader::cappedCount(qsizetype count)
{
    if (m_limits.maxSeries <= 0 || count <= m_limits.maxSeries)
        return count;
    m_result.truncated = true;
    m_result.warnings.append(seriesCapWarning(m_limits.maxSeries));
    return m_limits.maxSeries;
}

void Reader::noteHistogramSkipped()
{
    if (m_histogramNoted)
        return;
    m_histogramNoted = true;
    m_result.warnings.append(QStringLiteral("Native histogram samples cannot be drawn and were left out; "
                                            "wrap the query in histogram_quantile() or histogram_count()."));
}

QString Reader::where(const PromSeries &series, qsizetype index)
{
    QString key = series.labelKey();
    if (key.size() > kSnippetChars)
        key = key.left(kSnippetChars - 1) + QChar(0x2026);
    return QStringLiteral("series %1 %2").arg(index).arg(key);
}

bool Reader::readSeriesLabels(const QJsonObject &object, qsizetype index, PromSeries *series)
{
    const QJsonValue metric = object.value(QLatin1String("metric"));
    if (metric.isUndefined())
        return true; // some compatible servers leave out an empty label set
    if (!metric.isObject()) {
        fail(QStringLiteral("series %1: \"metric\" is %2, expected an object of labels")
                 .arg(index)
                 .arg(JsonText::typeName(metric)));
        return false;
    }
    const QJsonObject labels = metric.toObject();
    for (auto it = labels.constBegin(); it != labels.constEnd(); ++it) {
        if (!it.value().isString()) {
            fail(QStringLiteral("series %1: label \"%2\" is %3, expected a string")
                     .arg(index)
                     .arg(it.key(), JsonText::typeName(it.value())));
            return false;
        }
        series->labels.insert(it.key(), it.value().toString());
    }
    return true;
}

bool Reader::readSample(const QJsonValue &pair, const QString &where, qint64 *timeMs, double *value, QString *text)
{
    const QJsonArray array = pair.toArray();
    if (!pair.isArray() || array.size() != 2) {
        fail(QStringLiteral("%1 is %2, expected a [time, \"value\"] pair")
                 .arg(where,
                      pair.isArray() ? QStringLiteral("an array of %1").arg(array.size()) : JsonText::typeName(pair)));
        return false;
    }
    const QJsonValue time = array.at(0);
    const double seconds = time.toDouble(std::numeric_limits<double>::quiet_NaN());
    if (!time.isDouble() || !std::isfinite(seconds) || std::abs(seconds) > kMaxAbsTimestampSeconds) {
        fail(QStringLiteral("%1: the time is %2, expected seconds since the epoch")
                 .arg(where, time.isDouble() ? QString::number(seconds) : JsonText::typeName(time)));
        return false;
    }
    // Prometheus times have millisecond resolution; rounding undoes the binary fraction.
    *timeMs = std::llround(seconds * 1000.0);

    const QJsonValue sample = array.at(1);
    if (!sample.isString()) {
        fail(QStringLiteral("%1: the value is %2, expected a number in quotes such as \"1.5\"")
                 .arg(where, JsonText::typeName(sample)));
        return false;
    }
    const QString sampleText = sample.toString();
    if (text) {
        *text = sampleText;
        if (!parseSampleValue(sampleText, value))
            *value = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (!parseSampleValue(sampleText, value)) {
        fail(QStringLiteral("%1: the value \"%2\" is not a number").arg(where, sampleText.left(kSnippetChars)));
        return false;
    }
    return true;
}

bool Reader::readSeriesEntry(const QJsonValue &entry, qsizetype index, QJsonObject *object, PromSeries *series)
{
    if (!entry.isObject()) {
        fail(QStringLiteral("series %1 is %2, expected an object").arg(index).arg(JsonText::typeName(entry)));
        return false;
    }
    *object = entry.toObject();
    return readSeriesLabels(*object, index, series);
}

bool Reader::readMatrix(const QJsonArray &result)
{
    const qsizetype count = cappedCount(result.size());
    m_result.series.reserve(static_cast<size_t>(count));
    for (qsizetype i = 0; i < count; ++i) {
        QJsonObject object;
        PromSeries series;
        if (!readSeriesEntry(result.at(i), i, &object, &series))
            return false;
        if (object.contains(QLatin1String("histograms")))
            noteHistogramSkipped();
        const QJsonValue values = object.value(QLatin1String("values"));
        if (values.isUndefined() && object.contains(QLatin1String("histograms")))
            continue; // a purely native-histogram series has nothing we can draw
        if (!values.isArray()) {
            fail(QStringLiteral("%1: \"values\" is %2, expected an array of samples")
                     .arg(where(series, i), JsonText::typeName(values)));
            return false;
        }
        const QJsonArray samples = values.toArray();
        series.timestampsMs.reserve(static_cast<size_t>(samples.size()));
        series.values.reserve(static_cast<size_t>(samples.size()));
        // Once per series, not per sample: where() escapes every label value, which made a
        // series with long labels cost samples x label bytes.
        const QString seriesWhere = where(series, i);
        qsizetype j = 0;
        for (const auto &pair : samples) {
            qint64 t = 0;
            double v = 0;
            if (!readSample(pair, QStringLiteral("%1, sample %2").arg(seriesWhere).arg(j), &t, &v))
                return false;
            series.timestampsMs.push_back(t);
            series.values.push_back(v);
            ++j;
        }
        m_result.series.push_back(std::move(series));
    }
    return true;
}

bool Reader::readVector(const QJsonArray &result)
{
    const qsizetype count = cappedCount(result.size());
    m_result.series.reserve(static_cast<size_t>(count));
    for (qsizetype i = 0; i < count; ++i) {
        QJsonObject object;
        PromSeries series;
        if (!readSeriesEntry(result.at(i), i, &object, &series))
            return false;
        const QJsonValue value = object.value(QLatin1String("value"));
        if (value.isUndefined() && object.contains(QLatin1String("histogram"))) {
            noteHistogramSkipped();
            continue;
        }
        qint64 t = 0;
        double v = 0;
        if (!readSample(value, QStringLiteral("%1, \"value\"").arg(where(series, i)), &t, &v))
            return false;
        series.timestampsMs.push_back(t);
        series.values.push_back(v);
        m_result.series.push_back(std::move(series));
    }
    return true;
}

} // namespace

Result<PromQueryResult> parse(const QByteArray &body, int httpStatus, const Limits &limits)
{
    const bool success = isSuccess(httpStatus);
    if (body.trimmed().isEmpty()) {
        if (!success)
            return httpError(body, httpStatus);
        return parseError(QStringLiteral("it is empty"), httpStatus);
    }

    QJsonParseError jsonError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &jsonError);
    if (jsonError.error != QJsonParseError::NoError) {
        if (!success)
            return httpError(body, httpStatus);
        if (looksLikeHtml(body))
            return parseError(QStringLiteral("it is an HTML page (\"%1\"), not JSON; does the URL "
                                             "point at the Prometheus API?")
                                  .arg(bodySnippet(body)),
                              httpStatus);
        return parseError(describeJsonError(jsonError, body), httpStatus);
    }
    if (!document.isObject()) {
        if (!success)
            return httpError(body, httpStatus);
        return parseError(QStringLiteral("it is a JSON %1, expected an object")
                              .arg(document.isArray() ? QStringLiteral("array") : QStringLiteral("value")),
                          httpStatus);
    }

    const QJsonObject root = document.object();
    const QJsonValue status = root.value(QLatin1String("status"));
    if (status.toString() == QLatin1String("error")) {
        const QString errorType = root.value(QLatin1String("errorType")).toString();
        const QString error = root.value(QLatin1String("error")).toString();
        QString message = QStringLiteral("Prometheus rejected the query");
        if (!error.isEmpty())
            message += QStringLiteral(": ") + error;
        if (!errorType.isEmpty())
            message += QStringLiteral(" (%1)").arg(errorType);
        return Error::make(Error::Kind::Query, message, httpStatus, errorType);
    }
    if (status.toString() != QLatin1String("success")) {
        if (!success)
            return httpError(body, httpStatus);
        return parseError(QStringLiteral("\"status\" is %1, expected \"success\" or \"error\"")
                              .arg(status.isString()
                                       ? QStringLiteral("\"%1\"").arg(status.toString().left(kSnippetChars))
                                       : JsonText::typeName(status)),
                          httpStatus);
    }

    const QJsonValue data = root.value(QLatin1String("data"));
    if (!data.isObject())
        return parseError(QStringLiteral("\"data\" is %1, expected an object").arg(JsonText::typeName(data)),
                          httpStatus);
    QJsonArray warnings = root.value(QLatin1String("warnings")).toArray();
    // Newer servers (2.45+) add "infos" next to "warnings"; they are worth showing too.
    for (const auto &info : root.value(QLatin1String("infos")).toArray())
        warnings.append(info);

    Reader reader(httpStatus, limits);
    return reader.read(data.toObject(), warnings);
}

bool parseSampleValue(const QString &text, double *out)
{
    double value = 0;
    if (text.compare(QLatin1String("NaN"), Qt::CaseInsensitive) == 0) {
        value = std::numeric_limits<double>::quiet_NaN();
    } else if (text.compare(QLatin1String("+Inf"), Qt::CaseInsensitive) == 0 ||
               text.compare(QLatin1String("Inf"), Qt::CaseInsensitive) == 0) {
        value = std::numeric_limits<double>::infinity();
    } else if (text.compare(QLatin1String("-Inf"), Qt::CaseInsensitive) == 0) {
        value = -std::numeric_limits<double>::infinity();
    } else {
        bool ok = false;
        const QString trimmed = text.trimmed();
        if (trimmed.size() != text.size() || text.isEmpty())
            return false; // Prometheus never pads; padding means this is not its number
        value = text.toDouble(&ok);
        if (!ok)
            return false;
    }
    if (out)
        *out = value;
    return true;
}

Result<PromQueryResult> checkRangeAnswer(PromQueryResult result, const TimeRange &asked, qint64 stepMs)
{
    if (result.type != PromQueryResult::Type::Matrix) {
        static const char *const kNames[] = {"matrix", "vector", "scalar", "string"};
        return parseError(QStringLiteral("a range query was answered with a %1, not a matrix (series over time)")
                              .arg(QLatin1String(kNames[int(result.type)])),
                          200);
    }
    const qint64 slack = std::max<qint64>(stepMs, 0);
    const TimeRange allowed{asked.startMs - slack, asked.endMs + slack};
    qsizetype dropped = 0;
    std::optional<qint64> firstDropped;
    for (PromSeries &series : result.series) {
        qsizetype kept = 0;
        for (qsizetype i = 0; i < qsizetype(series.timestampsMs.size()); ++i) {
            const qint64 t = series.timestampsMs[std::size_t(i)];
            if (!allowed.contains(t)) {
                ++dropped;
                firstDropped = std::min(firstDropped.value_or(t), t);
                continue;
            }
            series.timestampsMs[std::size_t(kept)] = t;
            series.values[std::size_t(kept)] = series.values[std::size_t(i)];
            ++kept;
        }
        series.timestampsMs.resize(std::size_t(kept));
        series.values.resize(std::size_t(kept));
    }
    if (dropped > 0) {
        result.warnings.append(
            QStringLiteral("%1 outside the range asked for %2 dropped (the first at %3)")
                .arg(dropped == 1 ? QStringLiteral("1 sample") : QStringLiteral("%1 samples").arg(dropped),
                     dropped == 1 ? QStringLiteral("was") : QStringLiteral("were"),
                     QDateTime::fromMSecsSinceEpoch(*firstDropped, Qt::UTC).toString(Qt::ISODate)));
    }
    return result;
}

} // namespace PrometheusResponseParser
