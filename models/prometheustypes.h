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
    enum class Type { Matrix, Vector, Scalar, String };
    Type type = Type::Matrix;
    std::vector<PromSeries> series;
    QStringList warnings; // the server's "warnings", plus our own (e.g. series cap reached)
};
