// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <optional>

// A Kubernetes resource quantity ("500m", "2", "0.5", "256Mi", "1G", "1e3"), as a pod's
// resources.limits and the testbed's --cpu-limit and --memory-limit flags write them.
class ResourceQuantity
{
public:
    // Empty when `text` is not a quantity (the message says why, as the API server would).
    static std::optional<ResourceQuantity> parse(const QString &text, QString *error = nullptr);

    double value() const { return m_value; } // in base units: cores, bytes
    qint64 milliValue() const;               // value × 1000, rounded up (CPU in millicores)
    qint64 integerValue() const;             // rounded up (memory in bytes)
    // The API server's canonical spelling: the input's family of suffixes (binary or
    // decimal), with the largest suffix that keeps the number whole ("0.5" -> "500m",
    // "1024Mi" -> "1Gi").
    QString canonical() const;

private:
    enum class Format
    {
        Decimal,
        Binary
    };
    ResourceQuantity(double value, Format format) : m_value(value), m_format(format) {}

    double m_value = 0;
    Format m_format = Format::Decimal;
};
