// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

// One time series of a query result: its labels and its samples, columnar.
// For a "vector" result there is exactly one sample; for a "scalar" result the labels are empty.
struct PromSeries
{
    QMap<QString, QString> labels; // includes __name__ when the server sent it
    std::vector<qint64> timestampsMs;
    std::vector<double> values; // NaN, +Inf and -Inf are kept as such

    // Canonical text of the label set, e.g. {__name__="up", job="prometheus"}; stable key.
    QString labelKey() const;
};

struct PromQueryResult
{
    enum class Type
    {
        Matrix,
        Vector,
        Scalar,
        String
    };
    Type type = Type::Matrix;
    std::vector<PromSeries> series;
    QStringList warnings; // the server's "warnings", plus our own (e.g. series cap reached)
    // True when series were dropped because of PrometheusResponseParser::Limits::maxSeries.
    bool truncated = false;
    // For Type::String: the string itself. `series` then holds one sample with its time
    // (value NaN unless the string is a number), so the time is not lost.
    QString text;
};

// Joins the results of consecutive time chunks of one range query (in time order) into one:
// samples of the same label set are concatenated, series keep the order in which they first
// appear, warnings are kept once each. A sample not after the last one kept for its series
// is dropped, so overlapping chunks cannot produce duplicate instants. At most maxSeries
// series are kept (<= 0: no cap); beyond that the result is truncated with a warning.
PromQueryResult mergeRangeChunks(std::vector<PromQueryResult> chunks, int maxSeries);

// The warning added when a result is cut at maxSeries series; one text for every place that
// cuts, so that merged chunks carry it once.
QString seriesCapWarning(int maxSeries);
