// SPDX-License-Identifier: GPL-3.0-or-later
#include "grafana/grafanaunit.h"

#include <QHash>
#include <QRegularExpression>
#include <cmath>

GrafanaUnit GrafanaUnit::fromId(const QString &grafanaId)
{
    const QString id = grafanaId.trimmed();
    // Custom units: "suffix: req" and "prefix:$" are text Chaoscope can show as they are.
    if (id.startsWith(QLatin1String("suffix:")))
        return {id.mid(7).trimmed(), 1, true};
    struct Mapping
    {
        const char *unit;
        double factor;
    };
    // Grafana's ids (public/app/core/utils/units, "valueFormats"). KiB etc. are binary,
    // kB etc. decimal; Chaoscope's "bytes" axis always prints binary prefixes.
    static const QHash<QString, Mapping> kUnits{
        {QStringLiteral(""), {"", 1}},
        {QStringLiteral("none"), {"", 1}},
        {QStringLiteral("short"), {"", 1}},
        {QStringLiteral("sishort"), {"", 1}},
        {QStringLiteral("locale"), {"", 1}},
        {QStringLiteral("ops"), {"ops/s", 1}},
        {QStringLiteral("reqps"), {"ops/s", 1}},
        {QStringLiteral("rps"), {"ops/s", 1}},
        {QStringLiteral("wps"), {"ops/s", 1}},
        {QStringLiteral("iops"), {"ops/s", 1}},
        {QStringLiteral("cps"), {"ops/s", 1}},
        {QStringLiteral("opm"), {"ops/s", 1.0 / 60}},
        {QStringLiteral("reqpm"), {"ops/s", 1.0 / 60}},
        {QStringLiteral("s"), {"s", 1}},
        {QStringLiteral("ms"), {"s", 1e-3}},
        {QStringLiteral("µs"), {"s", 1e-6}},
        {QStringLiteral("us"), {"s", 1e-6}},
        {QStringLiteral("ns"), {"s", 1e-9}},
        {QStringLiteral("m"), {"s", 60}},
        {QStringLiteral("h"), {"s", 3600}},
        {QStringLiteral("bytes"), {"bytes", 1}},
        {QStringLiteral("decbytes"), {"bytes", 1}},
        {QStringLiteral("kbytes"), {"bytes", 1024}},
        {QStringLiteral("mbytes"), {"bytes", 1024.0 * 1024}},
        {QStringLiteral("gbytes"), {"bytes", 1024.0 * 1024 * 1024}},
        {QStringLiteral("deckbytes"), {"bytes", 1e3}},
        {QStringLiteral("decmbytes"), {"bytes", 1e6}},
        {QStringLiteral("decgbytes"), {"bytes", 1e9}},
        {QStringLiteral("Bps"), {"B/s", 1}},
        {QStringLiteral("binBps"), {"B/s", 1}},
        {QStringLiteral("percent"), {"%", 1}},
        {QStringLiteral("percentunit"), {"%", 100}},
    };
    const auto it = kUnits.constFind(id);
    if (it == kUnits.constEnd()) {
        // Grafana shows any text that is not one of its ids as a suffix ("%", "req/s", "€"):
        // text with characters no id has is such a suffix. An id Chaoscope does not know
        // ("celsius") is not one: it is listed rather than shown as a word.
        static const QRegularExpression idLike(QStringLiteral("^[A-Za-z0-9_.:-]*$"));
        if (!idLike.match(id).hasMatch())
            return {id, 1, true};
        return {QString(), 1, false};
    }
    return {QString::fromLatin1(it->unit), it->factor, true};
}

QString GrafanaUnit::scaleQuery(const QString &query) const
{
    if (factor == 1 || query.isEmpty())
        return query;
    // A division reads better than "* 0.001" and is exact for the usual powers of ten.
    const double inverse = 1 / factor;
    if (factor < 1 && std::abs(inverse - std::round(inverse)) < 1e-9)
        return QStringLiteral("(%1) / %2").arg(query, QString::number(std::round(inverse), 'g', 15));
    return QStringLiteral("(%1) * %2").arg(query, QString::number(factor, 'g', 15));
}
