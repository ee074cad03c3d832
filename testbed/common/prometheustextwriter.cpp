// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheustextwriter.h"

#include <charconv>
#include <cmath>

void PrometheusTextWriter::family(const QByteArray &name, const QByteArray &type, const QByteArray &help)
{
    m_text += "# HELP " + name + ' ' + help + '\n';
    m_text += "# TYPE " + name + ' ' + type + '\n';
}

void PrometheusTextWriter::writeName(const QByteArray &name, const Labels &labels)
{
    m_text += name;
    if (!labels.isEmpty()) {
        m_text += '{';
        for (qsizetype i = 0; i < labels.size(); ++i) {
            if (i > 0)
                m_text += ',';
            m_text += labels.at(i).first + "=\"" + escapeLabelValue(labels.at(i).second) + '"';
        }
        m_text += '}';
    }
    m_text += ' ';
}

void PrometheusTextWriter::sample(const QByteArray &name, double value, const Labels &labels)
{
    writeName(name, labels);
    m_text += formatValue(value) + '\n';
}

void PrometheusTextWriter::sample(const QByteArray &name, qint64 value, const Labels &labels)
{
    writeName(name, labels);
    m_text += QByteArray::number(value) + '\n';
}

QByteArray PrometheusTextWriter::formatValue(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return QByteArray::number(static_cast<qint64>(value));
    // Shortest text that reads back as the same double: 0.005, not 0.0050000000000000001.
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QByteArray(buffer, result.ptr - buffer);
}

QByteArray PrometheusTextWriter::escapeLabelValue(const QByteArray &value)
{
    QByteArray escaped;
    escaped.reserve(value.size());
    for (const char c : value) {
        if (c == '\\')
            escaped += "\\\\";
        else if (c == '"')
            escaped += "\\\"";
        else if (c == '\n')
            escaped += "\\n";
        else
            escaped += c;
    }
    return escaped;
}
