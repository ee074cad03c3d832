// SPDX-License-Identifier: GPL-3.0-or-later
// The parser against answers captured from the real Prometheus 2.42 and hand-made broken
// ones (tests/fixtures/prometheus/README.md says which is which and how they were made).
#include "prometheus/prometheusresponseparser.h"
#include "testpaths.h"

#include <QFile>
#include <QSet>
#include <cmath>
#include <gtest/gtest.h>

namespace {

using Kind = Error::Kind;
using PrometheusResponseParser::Limits;
using PrometheusResponseParser::parse;

QByteArray fixture(const QString &name)
{
    QFile file(sourcePath(QStringLiteral("tests/fixtures/prometheus/") + name));
    if (!file.open(QIODevice::ReadOnly))
        ADD_FAILURE() << "missing fixture " << name.toStdString();
    return file.readAll();
}

Result<PromQueryResult> parseFixture(const QString &name, int httpStatus = 200, Limits limits = {})
{
    return parse(fixture(name), httpStatus, limits);
}

std::string describe(const Result<PromQueryResult> &result)
{
    return result.ok() ? std::string("ok") : result.error().message.toStdString();
}

} // namespace

TEST(PrometheusResponseParser, VectorKeepsLabelsValueAndMillisecondTime)
{
    const auto result = parseFixture(QStringLiteral("vector_up.json"));
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->type, PromQueryResult::Type::Vector);
    ASSERT_EQ(result->series.size(), 1u);
    const PromSeries &up = result->series.front();
    EXPECT_EQ(up.labels.value(QStringLiteral("__name__")), QStringLiteral("up"));
    EXPECT_EQ(up.labels.value(QStringLiteral("job")), QStringLiteral("prometheus"));
    EXPECT_EQ(up.labels.value(QStringLiteral("instance")), QStringLiteral("127.0.0.1:41519"));
    ASSERT_EQ(up.timestampsMs.size(), 1u);
    EXPECT_EQ(up.timestampsMs.front(), 1795979009219); // 1795979009.219 s, not ...218
    EXPECT_EQ(up.values.front(), 1.0);
    EXPECT_TRUE(result->warnings.isEmpty());
    EXPECT_FALSE(result->truncated);
}

TEST(PrometheusResponseParser, MatrixHasOneSamplePerStepInOrder)
{
    const auto result = parseFixture(QStringLiteral("matrix_up.json"));
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->type, PromQueryResult::Type::Matrix);
    ASSERT_EQ(result->series.size(), 1u);
    const PromSeries &up = result->series.front();
    ASSERT_EQ(up.timestampsMs.size(), 21u);
    ASSERT_EQ(up.values.size(), 21u);
    EXPECT_EQ(up.timestampsMs.front(), 1795978989000);
    for (size_t i = 1; i < up.timestampsMs.size(); ++i)
        EXPECT_EQ(up.timestampsMs[i] - up.timestampsMs[i - 1], 1000);
    for (double v : up.values)
        EXPECT_EQ(v, 1.0);
}

TEST(PrometheusResponseParser, ManySeriesKeepTheirOwnLabels)
{
    const auto vector = parseFixture(QStringLiteral("vector_many_series.json"));
    ASSERT_TRUE(vector.ok()) << describe(vector);
    EXPECT_EQ(vector->series.size(), 360u);
    QSet<QString> keys;
    for (const PromSeries &series : vector->series) {
        EXPECT_FALSE(series.labels.value(QStringLiteral("__name__")).isEmpty());
        keys.insert(series.labelKey());
    }
    EXPECT_EQ(keys.size(), 360); // no two series collapse into one key

    const auto matrix = parseFixture(QStringLiteral("matrix_many_series.json"));
    ASSERT_TRUE(matrix.ok()) << describe(matrix);
    EXPECT_EQ(matrix->series.size(), 13u);
    int quantiles = 0;
    for (const PromSeries &series : matrix->series) {
        EXPECT_EQ(series.timestampsMs.size(), series.values.size());
        if (series.labels.contains(QStringLiteral("quantile")))
            ++quantiles;
    }
    EXPECT_GT(quantiles, 0);
}

TEST(PrometheusResponseParser, SeriesCapTruncatesAndWarns)
{
    Limits limits;
    limits.maxSeries = 100;
    const auto result = parseFixture(QStringLiteral("vector_many_series.json"), 200, limits);
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->series.size(), 100u);
    EXPECT_TRUE(result->truncated);
    EXPECT_TRUE(result->warnings.contains(seriesCapWarning(100)));

    limits.maxSeries = 0; // no cap
    const auto all = parseFixture(QStringLiteral("vector_many_series.json"), 200, limits);
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->series.size(), 360u);
    EXPECT_FALSE(all->truncated);

    limits.maxSeries = 360; // exactly at the cap is not truncated
    const auto exact = parseFixture(QStringLiteral("vector_many_series.json"), 200, limits);
    ASSERT_TRUE(exact.ok());
    EXPECT_FALSE(exact->truncated);
    EXPECT_TRUE(exact->warnings.isEmpty());
}

TEST(PrometheusResponseParser, ScalarAndString)
{
    const auto scalar = parseFixture(QStringLiteral("scalar.json"));
    ASSERT_TRUE(scalar.ok()) << describe(scalar);
    EXPECT_EQ(scalar->type, PromQueryResult::Type::Scalar);
    ASSERT_EQ(scalar->series.size(), 1u);
    EXPECT_TRUE(scalar->series.front().labels.isEmpty());
    EXPECT_EQ(scalar->series.front().values.front(), 42.5);
    EXPECT_EQ(scalar->series.front().timestampsMs.front(), 1795979009321);

    const auto text = parseFixture(QStringLiteral("string.json"));
    ASSERT_TRUE(text.ok()) << describe(text);
    EXPECT_EQ(text->type, PromQueryResult::Type::String);
    EXPECT_EQ(text->text, QStringLiteral("hello"));
    ASSERT_EQ(text->series.size(), 1u);
    EXPECT_EQ(text->series.front().timestampsMs.front(), 1795979009355);
    EXPECT_TRUE(std::isnan(text->series.front().values.front()));
}

// A range query is answered with a matrix within the range asked, or it is not an answer:
// a string taken as a sample at its own time, or a sample dated 1970, once drew as data and
// stretched every later query of the panel back to that instant.
TEST(PrometheusResponseParser, ARangeAnswerIsAMatrixWithinTheRangeAsked)
{
    const TimeRange asked{1795978989000, 1795979009000};
    const auto matrix = parseFixture(QStringLiteral("matrix_up.json"));
    ASSERT_TRUE(matrix.ok()) << describe(matrix);
    const auto within = PrometheusResponseParser::checkRangeAnswer(matrix.value(), asked, 1000);
    ASSERT_TRUE(within.ok()) << describe(within);
    EXPECT_EQ(within->series.front().timestampsMs.size(), 21u);
    EXPECT_TRUE(within->warnings.isEmpty());

    for (const QString &name : {QStringLiteral("string.json"), QStringLiteral("scalar.json")}) {
        const auto other = parseFixture(name);
        ASSERT_TRUE(other.ok()) << describe(other);
        const auto checked = PrometheusResponseParser::checkRangeAnswer(other.value(), asked, 1000);
        ASSERT_FALSE(checked.ok()) << name.toStdString() << " was taken as samples";
        EXPECT_EQ(checked.error().kind, Kind::Parse);
        EXPECT_TRUE(checked.error().message.contains(QStringLiteral("not a matrix")))
            << checked.error().message.toStdString();
    }

    // A step of slack on each side (servers align the range to the step); beyond it, dropped
    // and said.
    PromQueryResult stray = matrix.value();
    PromSeries &up = stray.series.front();
    up.timestampsMs.front() = 5000; // 1970
    up.timestampsMs.back() = asked.endMs + 60'000;
    up.timestampsMs[1] = asked.startMs - 1000;
    const auto dropped = PrometheusResponseParser::checkRangeAnswer(stray, asked, 1000);
    ASSERT_TRUE(dropped.ok()) << describe(dropped);
    EXPECT_EQ(dropped->series.front().timestampsMs.size(), 19u);
    EXPECT_EQ(dropped->series.front().values.size(), 19u);
    EXPECT_EQ(dropped->series.front().timestampsMs.front(), asked.startMs - 1000);
    EXPECT_EQ(dropped->warnings,
              QStringList{QStringLiteral(
                  "2 samples outside the range asked for were dropped (the first at 1970-01-01T00:00:05Z)")});
}

TEST(PrometheusResponseParser, NaNAndInfinitiesAreKept)
{
    const auto nan = parseFixture(QStringLiteral("scalar_nan.json"));
    const auto inf = parseFixture(QStringLiteral("scalar_inf.json"));
    const auto negInf = parseFixture(QStringLiteral("scalar_neg_inf.json"));
    ASSERT_TRUE(nan.ok() && inf.ok() && negInf.ok());
    EXPECT_TRUE(std::isnan(nan->series.front().values.front()));
    EXPECT_TRUE(std::isinf(inf->series.front().values.front()));
    EXPECT_GT(inf->series.front().values.front(), 0);
    EXPECT_TRUE(std::isinf(negInf->series.front().values.front()));
    EXPECT_LT(negInf->series.front().values.front(), 0);

    const auto vector = parseFixture(QStringLiteral("vector_nan_inf.json"));
    ASSERT_TRUE(vector.ok()) << describe(vector);
    ASSERT_EQ(vector->series.size(), 4u);
    QMap<QString, double> byLabel;
    for (const PromSeries &series : vector->series)
        byLabel.insert(series.labels.value(QStringLiteral("v")), series.values.front());
    EXPECT_TRUE(std::isnan(byLabel.value(QStringLiteral("nan"))));
    EXPECT_EQ(byLabel.value(QStringLiteral("+inf")), std::numeric_limits<double>::infinity());
    EXPECT_EQ(byLabel.value(QStringLiteral("-inf")), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(byLabel.value(QStringLiteral("finite")), 1.5);

    const auto matrix = parseFixture(QStringLiteral("matrix_nan_inf.json"));
    ASSERT_TRUE(matrix.ok()) << describe(matrix);
    ASSERT_EQ(matrix->series.size(), 3u);
    for (const PromSeries &series : matrix->series) {
        ASSERT_EQ(series.values.size(), 6u);
        const QString v = series.labels.value(QStringLiteral("v"));
        for (double value : series.values) {
            if (v == QLatin1String("nan"))
                EXPECT_TRUE(std::isnan(value));
            else if (v == QLatin1String("inf"))
                EXPECT_EQ(value, std::numeric_limits<double>::infinity());
            else
                EXPECT_EQ(value, -std::numeric_limits<double>::infinity());
        }
    }
}

TEST(PrometheusResponseParser, EmptyResultsAreNotErrors)
{
    const auto vector = parseFixture(QStringLiteral("vector_empty.json"));
    ASSERT_TRUE(vector.ok()) << describe(vector);
    EXPECT_EQ(vector->type, PromQueryResult::Type::Vector);
    EXPECT_TRUE(vector->series.empty());
    const auto matrix = parseFixture(QStringLiteral("matrix_empty.json"));
    ASSERT_TRUE(matrix.ok()) << describe(matrix);
    EXPECT_EQ(matrix->type, PromQueryResult::Type::Matrix);
    EXPECT_TRUE(matrix->series.empty());
}

TEST(PrometheusResponseParser, WarningsArePassedOn)
{
    const auto result = parseFixture(QStringLiteral("warnings.json"));
    ASSERT_TRUE(result.ok()) << describe(result);
    ASSERT_EQ(result->warnings.size(), 2);
    EXPECT_EQ(result->warnings.at(1), QStringLiteral("remote read partially failed"));
    EXPECT_EQ(result->series.size(), 1u);
}

TEST(PrometheusResponseParser, ServerErrorsBecomeQueryErrorsWithTheServersWords)
{
    const auto badData = parseFixture(QStringLiteral("error_bad_data.json"), 400);
    ASSERT_FALSE(badData.ok());
    EXPECT_EQ(badData.error().kind, Kind::Query);
    EXPECT_EQ(badData.error().httpStatus, 400);
    EXPECT_EQ(badData.error().detail, QStringLiteral("bad_data"));
    EXPECT_EQ(badData.error().message,
              QStringLiteral("Prometheus rejected the query: invalid parameter \"query\": 1:4: parse "
                             "error: unexpected end of input inside braces (bad_data)"));
    EXPECT_FALSE(badData.error().isSourceDown());

    const auto execution = parseFixture(QStringLiteral("error_execution.json"), 422);
    ASSERT_FALSE(execution.ok());
    EXPECT_EQ(execution.error().kind, Kind::Query);
    EXPECT_EQ(execution.error().httpStatus, 422);
    EXPECT_TRUE(execution.error().message.contains(QStringLiteral("many-to-many matching not allowed")));
    EXPECT_TRUE(execution.error().message.endsWith(QStringLiteral("(execution)")));

    const auto points = parseFixture(QStringLiteral("error_too_many_points.json"), 400);
    ASSERT_FALSE(points.ok());
    EXPECT_EQ(points.error().kind, Kind::Query);
    EXPECT_TRUE(points.error().message.contains(QStringLiteral("11,000 points")));
}

TEST(PrometheusResponseParser, HtmlFromAProxyIsAnHttpErrorWithItsTitle)
{
    const auto result = parseFixture(QStringLiteral("proxy_502.html"), 502);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Http);
    EXPECT_EQ(result.error().httpStatus, 502);
    EXPECT_EQ(result.error().detail, QStringLiteral("502 Bad Gateway"));
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("HTTP 502")));

    // The same page with 200 (a login page, a wrong URL) is not a Prometheus answer.
    const auto ok200 = parseFixture(QStringLiteral("proxy_502.html"), 200);
    ASSERT_FALSE(ok200.ok());
    EXPECT_EQ(ok200.error().kind, Kind::Parse);
    EXPECT_TRUE(ok200.error().message.contains(QStringLiteral("HTML page"))) << describe(ok200);
}

TEST(PrometheusResponseParser, NotJson)
{
    const auto ok200 = parseFixture(QStringLiteral("malformed_not_json.txt"), 200);
    ASSERT_FALSE(ok200.ok());
    EXPECT_EQ(ok200.error().kind, Kind::Parse);
    EXPECT_TRUE(ok200.error().message.contains(QStringLiteral("not valid JSON"))) << describe(ok200);

    const auto unavailable = parseFixture(QStringLiteral("malformed_not_json.txt"), 503);
    ASSERT_FALSE(unavailable.ok());
    EXPECT_EQ(unavailable.error().kind, Kind::Http);
    EXPECT_EQ(unavailable.error().httpStatus, 503);
    EXPECT_TRUE(unavailable.error().detail.startsWith(QStringLiteral("Service temporarily unavailable")));

    const auto empty = parse(QByteArray(), 200);
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.error().kind, Kind::Parse);
    EXPECT_TRUE(empty.error().message.contains(QStringLiteral("empty")));

    const auto emptyError = parse(QByteArray("  \n"), 500);
    ASSERT_FALSE(emptyError.ok());
    EXPECT_EQ(emptyError.error().kind, Kind::Http);
    EXPECT_EQ(emptyError.error().httpStatus, 500);

    const auto array = parse(QByteArray("[1,2]"), 200);
    ASSERT_FALSE(array.ok());
    EXPECT_EQ(array.error().kind, Kind::Parse);
    EXPECT_TRUE(array.error().message.contains(QStringLiteral("array")));
}

TEST(PrometheusResponseParser, CutOffAnswerSaysSo)
{
    const auto result = parseFixture(QStringLiteral("malformed_truncated.json"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Parse);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("cut off"))) << describe(result);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("of 300"))) << describe(result);
}

TEST(PrometheusResponseParser, WrongShapesSayWhatWasWrong)
{
    struct Case
    {
        const char *file;
        const char *expected;
    };
    const Case cases[] = {
        {"malformed_wrong_resulttype.json", "unknown \"data.resultType\" \"tensor\""},
        {"malformed_value_not_number.json", "sample 3: the value \"abc\" is not a number"},
        {"malformed_value_bare_number.json", "\"value\": the value is a number, expected a number in quotes"},
        {"malformed_result_not_array.json", "\"data.result\" of a vector is an object"},
        {"malformed_no_status.json", "\"status\" is missing"},
        {"malformed_label_not_string.json", "label \"job\" is a number"},
    };
    for (const Case &c : cases) {
        const auto result = parseFixture(QString::fromLatin1(c.file));
        ASSERT_FALSE(result.ok()) << c.file;
        EXPECT_EQ(result.error().kind, Kind::Parse) << c.file;
        EXPECT_TRUE(result.error().message.contains(QString::fromLatin1(c.expected)))
            << c.file << ": " << describe(result);
    }
    // Where it was wrong: the failing series is named by its labels.
    const auto value = parseFixture(QStringLiteral("malformed_value_not_number.json"));
    EXPECT_TRUE(value.error().message.contains(QStringLiteral("job=\"prometheus\""))) << describe(value);
}

TEST(PrometheusResponseParser, MoreShapes)
{
    const auto missingData = parse(QByteArray(R"({"status":"success"})"), 200);
    ASSERT_FALSE(missingData.ok());
    EXPECT_TRUE(missingData.error().message.contains(QStringLiteral("\"data\" is missing")));

    const auto badTime =
        parse(QByteArray(R"({"status":"success","data":{"resultType":"scalar","result":["x","1"]}})"), 200);
    ASSERT_FALSE(badTime.ok());
    EXPECT_TRUE(badTime.error().message.contains(QStringLiteral("the time is a string")));

    const auto shortPair = parse(
        QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}})"), 200);
    ASSERT_FALSE(shortPair.ok());
    EXPECT_TRUE(shortPair.error().message.contains(QStringLiteral("an array of 1")));

    // A native-histogram series cannot be drawn: it is left out with a warning, not an error.
    const auto histogram = parse(QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[)"
                                            R"({"metric":{"a":"1"},"histogram":[1,{"count":"2"}]},)"
                                            R"({"metric":{"a":"2"},"value":[1,"3"]}]}})"),
                                 200);
    ASSERT_TRUE(histogram.ok()) << describe(histogram);
    ASSERT_EQ(histogram->series.size(), 1u);
    EXPECT_EQ(histogram->series.front().values.front(), 3.0);
    EXPECT_EQ(histogram->warnings.size(), 1);

    // An unknown "status" on an error status is the server's HTTP error, not a parse problem.
    const auto weird = parse(QByteArray(R"({"message":"rate limited"})"), 429);
    ASSERT_FALSE(weird.ok());
    EXPECT_EQ(weird.error().kind, Kind::Http);
    EXPECT_EQ(weird.error().httpStatus, 429);
}

TEST(PrometheusResponseParser, SampleValues)
{
    double v = 0;
    EXPECT_TRUE(PrometheusResponseParser::parseSampleValue(QStringLiteral("1.5"), &v));
    EXPECT_EQ(v, 1.5);
    EXPECT_TRUE(PrometheusResponseParser::parseSampleValue(QStringLiteral("-0.25"), &v));
    EXPECT_EQ(v, -0.25);
    EXPECT_TRUE(PrometheusResponseParser::parseSampleValue(QStringLiteral("1e-9"), &v));
    EXPECT_EQ(v, 1e-9);
    EXPECT_TRUE(PrometheusResponseParser::parseSampleValue(QStringLiteral("123456789012345678"), &v));
    EXPECT_EQ(v, 123456789012345678.0);
    EXPECT_TRUE(PrometheusResponseParser::parseSampleValue(QStringLiteral("NaN"), &v));
    EXPECT_TRUE(std::isnan(v));
    EXPECT_TRUE(PrometheusResponseParser::parseSampleValue(QStringLiteral("+Inf"), &v));
    EXPECT_EQ(v, std::numeric_limits<double>::infinity());
    EXPECT_TRUE(PrometheusResponseParser::parseSampleValue(QStringLiteral("-Inf"), &v));
    EXPECT_EQ(v, -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(PrometheusResponseParser::parseSampleValue(QStringLiteral("Inf"), &v));
    EXPECT_EQ(v, std::numeric_limits<double>::infinity());
    for (const char *bad : {"", "abc", "1.5x", " 1", "1 ", "0x10", "--1"})
        EXPECT_FALSE(PrometheusResponseParser::parseSampleValue(QString::fromLatin1(bad), &v)) << bad;
}

TEST(PromSeries, LabelKeyIsCanonicalAndEscaped)
{
    PromSeries a;
    a.labels.insert(QStringLiteral("job"), QStringLiteral("prometheus"));
    a.labels.insert(QStringLiteral("__name__"), QStringLiteral("up"));
    EXPECT_EQ(a.labelKey(), QStringLiteral("{__name__=\"up\", job=\"prometheus\"}"));
    EXPECT_EQ(PromSeries{}.labelKey(), QStringLiteral("{}"));

    // A value that looks like two labels must not equal the two labels.
    PromSeries tricky;
    tricky.labels.insert(QStringLiteral("a"), QStringLiteral("1\", b=\"2"));
    PromSeries two;
    two.labels.insert(QStringLiteral("a"), QStringLiteral("1"));
    two.labels.insert(QStringLiteral("b"), QStringLiteral("2"));
    EXPECT_NE(tricky.labelKey(), two.labelKey());
    EXPECT_EQ(tricky.labelKey(), QStringLiteral("{a=\"1\\\", b=\\\"2\"}"));
}

namespace {

PromSeries makeSeries(const QString &name, std::vector<qint64> times)
{
    PromSeries series;
    series.labels.insert(QStringLiteral("__name__"), name);
    for (qint64 t : times) {
        series.timestampsMs.push_back(t);
        series.values.push_back(static_cast<double>(t) / 1000.0);
    }
    return series;
}

} // namespace

TEST(MergeRangeChunks, ConcatenatesPerLabelSetInTimeOrder)
{
    PromQueryResult first;
    first.series.push_back(makeSeries(QStringLiteral("a"), {1000, 2000}));
    first.series.push_back(makeSeries(QStringLiteral("b"), {2000}));
    first.warnings << QStringLiteral("w1");
    PromQueryResult second;
    // "c" appears only later; "a" overlaps at 2000 (dropped), "b" continues.
    second.series.push_back(makeSeries(QStringLiteral("c"), {3000}));
    second.series.push_back(makeSeries(QStringLiteral("a"), {2000, 3000, 4000}));
    second.series.push_back(makeSeries(QStringLiteral("b"), {4000}));
    second.warnings << QStringLiteral("w1") << QStringLiteral("w2");

    std::vector<PromQueryResult> chunks;
    chunks.push_back(std::move(first));
    chunks.push_back(std::move(second));
    const PromQueryResult merged = mergeRangeChunks(std::move(chunks), 0);
    ASSERT_EQ(merged.series.size(), 3u);
    EXPECT_EQ(merged.series[0].labels.value(QStringLiteral("__name__")), QStringLiteral("a"));
    EXPECT_EQ(merged.series[0].timestampsMs, (std::vector<qint64>{1000, 2000, 3000, 4000}));
    EXPECT_EQ(merged.series[0].values, (std::vector<double>{1, 2, 3, 4}));
    EXPECT_EQ(merged.series[1].timestampsMs, (std::vector<qint64>{2000, 4000}));
    EXPECT_EQ(merged.series[2].labels.value(QStringLiteral("__name__")), QStringLiteral("c"));
    EXPECT_EQ(merged.warnings, (QStringList{QStringLiteral("w1"), QStringLiteral("w2")}));
    EXPECT_FALSE(merged.truncated);
}

TEST(MergeRangeChunks, CapsSeriesAcrossChunks)
{
    std::vector<PromQueryResult> chunks(2);
    chunks[0].series.push_back(makeSeries(QStringLiteral("a"), {1000}));
    chunks[0].series.push_back(makeSeries(QStringLiteral("b"), {1000}));
    chunks[1].series.push_back(makeSeries(QStringLiteral("c"), {2000}));
    chunks[1].series.push_back(makeSeries(QStringLiteral("a"), {2000}));
    const PromQueryResult merged = mergeRangeChunks(std::move(chunks), 2);
    ASSERT_EQ(merged.series.size(), 2u);
    EXPECT_EQ(merged.series[0].timestampsMs.size(), 2u); // known series still grow
    EXPECT_TRUE(merged.truncated);
    EXPECT_EQ(merged.warnings, QStringList{seriesCapWarning(2)});
}
