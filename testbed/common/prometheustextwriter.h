// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

// Prometheus text exposition format 0.0.4: a HELP and TYPE header per family, then samples.
class PrometheusTextWriter
{
public:
    using Labels = QList<QPair<QByteArray, QByteArray>>;

    static constexpr const char *contentType = "text/plain; version=0.0.4; charset=utf-8";

    void family(const QByteArray &name, const QByteArray &type, const QByteArray &help);
    void sample(const QByteArray &name, double value, const Labels &labels = {});
    void sample(const QByteArray &name, qint64 value, const Labels &labels = {});

    // Number formatting as Prometheus reads it: integers without exponent, +Inf, NaN.
    static QByteArray formatValue(double value);
    static QByteArray escapeLabelValue(const QByteArray &value);

    const QByteArray &text() const { return m_text; }

private:
    void writeName(const QByteArray &name, const Labels &labels);

    QByteArray m_text;
};
