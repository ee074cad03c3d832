// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <utility>
#include <vector>

// One series of a panel as it appears in the store (one query can yield many).
struct SeriesBinding
{
    int panel = 0;
    int query = 0; // index in PanelDefinition::series
    QString key;   // SampleStore key
    QString legend;

    bool operator==(const SeriesBinding &) const = default;
    // The order a panel draws its series in (and so their colours): by query, then legend.
    bool drawsBefore(const SeriesBinding &other) const;
};

// Which store series each panel draws. A queried series is bound as its query's answer first
// names it; series no query brings (a load tester value, a formula's result) are bound with
// the dashboard. A load tester value is one store key ("loadtester/rate") that several panels
// may draw: bindings are kept per panel and key.
class SeriesBindings
{
public:
    void bindUnqueried(const SeriesBinding &binding);
    // The binding of a query's series, legend from its template and labels; nullopt when the
    // key was bound already (its legend stays as it was).
    std::optional<SeriesBinding> bindQueried(int panel, int query, const QString &key, const QString &legendTemplate,
                                             const QMap<QString, QString> &labels);
    bool contains(int panel, const QString &key) const;
    // Forgets every series of one query (a variable changed it).
    void unbindQuery(int panel, int query);
    void clear() { m_bindings.clear(); }

    std::vector<SeriesBinding> ofPanel(int panel) const; // in drawing order
    // Every panel's, for panels 0 … panelCount-1.
    std::vector<std::vector<SeriesBinding>> byPanel(int panelCount) const;

    // "p0 q1 p0/q1/{} \"legend\"", panel by panel in drawing order.
    QStringList describe() const;

private:
    std::map<std::pair<int, QString>, SeriesBinding> m_bindings; // by panel and key
};
