// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/seriesbindings.h"

#include "prometheus/legendformatter.h"
#include "store/serieskey.h"

#include <algorithm>

bool SeriesBinding::drawsBefore(const SeriesBinding &other) const
{
    if (query != other.query)
        return query < other.query;
    if (legend != other.legend)
        return legend < other.legend;
    return key < other.key; // equal legends still keep one order
}

void SeriesBindings::bindUnqueried(const SeriesBinding &binding)
{
    m_bindings.insert_or_assign({binding.panel, binding.key}, binding);
}

std::optional<SeriesBinding> SeriesBindings::bindQueried(int panel, int query, const QString &key,
                                                         const QString &legendTemplate,
                                                         const QMap<QString, QString> &labels)
{
    if (contains(panel, key))
        return std::nullopt;
    SeriesBinding binding{panel, query, key, LegendFormatter::format(legendTemplate, labels)};
    m_bindings.emplace(std::make_pair(panel, key), binding);
    return binding;
}

bool SeriesBindings::contains(int panel, const QString &key) const
{
    return m_bindings.count({panel, key}) > 0;
}

void SeriesBindings::unbindQuery(int panel, int query)
{
    const QString prefix = SeriesKey::queryPrefix(panel, query);
    for (auto it = m_bindings.lower_bound({panel, QString()}); it != m_bindings.end() && it->first.first == panel;) {
        if (SeriesKey::matches(prefix, it->second.key))
            it = m_bindings.erase(it);
        else
            ++it;
    }
}

std::vector<SeriesBinding> SeriesBindings::ofPanel(int panel) const
{
    std::vector<SeriesBinding> out;
    for (auto it = m_bindings.lower_bound({panel, QString()}); it != m_bindings.end() && it->first.first == panel; ++it)
        out.push_back(it->second);
    std::sort(out.begin(), out.end(), [](const SeriesBinding &a, const SeriesBinding &b) { return a.drawsBefore(b); });
    return out;
}

std::vector<std::vector<SeriesBinding>> SeriesBindings::byPanel(int panelCount) const
{
    std::vector<std::vector<SeriesBinding>> out;
    out.reserve(std::size_t(std::max(panelCount, 0)));
    for (int panel = 0; panel < panelCount; ++panel)
        out.push_back(ofPanel(panel));
    return out;
}

QStringList SeriesBindings::describe() const
{
    QStringList lines;
    const int panels = m_bindings.empty() ? 0 : m_bindings.rbegin()->first.first + 1;
    for (const std::vector<SeriesBinding> &panel : byPanel(panels)) {
        for (const SeriesBinding &b : panel)
            lines << QStringLiteral("p%1 q%2 %3 \"%4\"").arg(b.panel).arg(b.query).arg(b.key, b.legend);
    }
    return lines;
}
