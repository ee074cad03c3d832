// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/dashboardedits.h"

#include "dashboard/dashboardwriter.h"
#include "store/derivedexpression.h"
#include "store/serieskey.h"

#include <QSet>
#include <algorithm>

namespace DashboardEdits {

namespace {

// Whether two series ask the same thing, so that the samples of one are the other's.
bool sameSource(const SeriesDefinition &a, const SeriesDefinition &b)
{
    return a.query == b.query && a.loadTester == b.loadTester && a.kubernetes == b.kubernetes &&
           a.workload == b.workload && a.env == b.env && a.derive == b.derive && a.deriveInputs == b.deriveInputs;
}

const SeriesDefinition *seriesAt(const DashboardDefinition &dashboard, int panel, int series)
{
    if (panel < 0 || panel >= int(dashboard.panels.size()))
        return nullptr;
    const auto &all = dashboard.panels[std::size_t(panel)].series;
    return series >= 0 && series < int(all.size()) ? &all[std::size_t(series)] : nullptr;
}

bool validPanel(const DashboardDefinition &dashboard, int panel)
{
    return panel >= 0 && panel < int(dashboard.panels.size());
}

QString titleOf(const DashboardDefinition &dashboard, int panel)
{
    const QString &title = dashboard.panels[std::size_t(panel)].title;
    return title.isEmpty() ? QStringLiteral("panel %1").arg(panel + 1) : title;
}

// The ids of every series of the dashboard.
QSet<QString> idsOf(const DashboardDefinition &dashboard)
{
    QSet<QString> ids;
    for (const PanelDefinition &panel : dashboard.panels) {
        for (const SeriesDefinition &series : panel.series) {
            if (!series.id.isEmpty())
                ids.insert(series.id);
        }
    }
    return ids;
}

} // namespace

Origins unmoved(const DashboardDefinition &dashboard)
{
    Origins origins(dashboard.panels.size());
    for (std::size_t p = 0; p < dashboard.panels.size(); ++p) {
        for (std::size_t s = 0; s < dashboard.panels[p].series.size(); ++s)
            origins[p].push_back({int(p), int(s)});
    }
    return origins;
}

Renames keyRenames(const DashboardDefinition &before, const DashboardDefinition &after, const Origins &origins,
                   int edit)
{
    Renames renames;
    const auto both = [&renames](const QString &from, const QString &to) {
        renames.redo.push_back({from, to});
        renames.undo.push_back({to, from});
    };
    const QString parked = SeriesKey::parkedPrefix(edit);
    const QString parkedNew = parked + QStringLiteral("new/");
    QSet<std::pair<int, int>> carried;
    for (int p = 0; p < int(after.panels.size()); ++p) {
        for (int s = 0; s < int(after.panels[std::size_t(p)].series.size()); ++s) {
            const SeriesOrigin origin =
                std::size_t(p) < origins.size() && std::size_t(s) < origins[std::size_t(p)].size()
                    ? origins[std::size_t(p)][std::size_t(s)]
                    : SeriesOrigin{};
            const SeriesDefinition *was = seriesAt(before, origin.panel, origin.series);
            if (!was || !sameSource(*was, after.panels[std::size_t(p)].series[std::size_t(s)])) {
                // New, or asks something else now: fetched (or computed) afresh; what it
                // gathered is parked on undo and back on redo.
                renames.undo.push_back({SeriesKey::queryPrefix(p, s), parkedNew + SeriesKey::queryPrefix(p, s)});
                renames.undo.push_back({SeriesKey::derived(p, s), parkedNew + SeriesKey::derived(p, s)});
                renames.redo.push_back({parkedNew + SeriesKey::queryPrefix(p, s), SeriesKey::queryPrefix(p, s)});
                renames.redo.push_back({parkedNew + SeriesKey::derived(p, s), SeriesKey::derived(p, s)});
                continue;
            }
            carried.insert({origin.panel, origin.series});
            if (origin.panel == p && origin.series == s)
                continue;
            both(SeriesKey::queryPrefix(origin.panel, origin.series), SeriesKey::queryPrefix(p, s));
            both(SeriesKey::derived(origin.panel, origin.series), SeriesKey::derived(p, s));
        }
    }
    for (int p = 0; p < int(before.panels.size()); ++p) {
        for (int s = 0; s < int(before.panels[std::size_t(p)].series.size()); ++s) {
            if (carried.contains({p, s}))
                continue;
            both(SeriesKey::queryPrefix(p, s), parked + SeriesKey::queryPrefix(p, s));
            both(SeriesKey::derived(p, s), parked + SeriesKey::derived(p, s));
        }
    }
    return renames;
}

Edit edited(const DashboardDefinition &before, DashboardDefinition after, const Origins &origins, const QString &text,
            int edit)
{
    Edit result;
    result.text = text;
    result.renames = keyRenames(before, after, origins, edit);
    result.after = std::move(after);
    return result;
}

namespace {

// The panels in a new order: order[i] is the index before of the panel now at i.
Edit reordered(const DashboardDefinition &before, const std::vector<int> &order, const QString &text, int edit)
{
    DashboardDefinition after = before;
    Origins origins(order.size());
    for (std::size_t p = 0; p < order.size(); ++p) {
        after.panels[p] = before.panels[std::size_t(order[p])];
        for (int s = 0; s < int(after.panels[p].series.size()); ++s)
            origins[p].push_back({order[p], s});
    }
    return edited(before, std::move(after), origins, text, edit);
}

std::vector<int> identityOrder(const DashboardDefinition &dashboard)
{
    std::vector<int> order(dashboard.panels.size());
    for (int i = 0; i < int(order.size()); ++i)
        order[std::size_t(i)] = i;
    return order;
}

} // namespace

std::optional<Edit> movePanel(const DashboardDefinition &before, int from, int to, int edit)
{
    if (!validPanel(before, from) || !validPanel(before, to) || from == to)
        return std::nullopt;
    std::vector<int> order = identityOrder(before);
    order.erase(order.begin() + from);
    order.insert(order.begin() + to, from);
    return reordered(before, order, QStringLiteral("Move %1 to place %2").arg(titleOf(before, from)).arg(to + 1), edit);
}

std::optional<Edit> swapPanels(const DashboardDefinition &before, int a, int b, int edit)
{
    if (!validPanel(before, a) || !validPanel(before, b) || a == b)
        return std::nullopt;
    std::vector<int> order = identityOrder(before);
    std::swap(order[std::size_t(a)], order[std::size_t(b)]);
    return reordered(before, order, QStringLiteral("Swap %1 and %2").arg(titleOf(before, a), titleOf(before, b)), edit);
}

std::optional<Edit> removePanel(const DashboardDefinition &before, int panel, int edit)
{
    if (!validPanel(before, panel))
        return std::nullopt;
    std::vector<int> order = identityOrder(before);
    order.erase(order.begin() + panel);
    DashboardDefinition after = before;
    after.panels.erase(after.panels.begin() + panel);
    Origins origins(order.size());
    for (std::size_t p = 0; p < order.size(); ++p) {
        for (int s = 0; s < int(after.panels[p].series.size()); ++s)
            origins[p].push_back({order[p], s});
    }
    return edited(before, std::move(after), origins, QStringLiteral("Remove %1").arg(titleOf(before, panel)), edit);
}

std::optional<Edit> renamePanel(const DashboardDefinition &before, int panel, const QString &title)
{
    const QString trimmed = title.trimmed();
    if (!validPanel(before, panel) || trimmed.isEmpty() || trimmed == before.panels[std::size_t(panel)].title)
        return std::nullopt;
    Edit result;
    result.after = before;
    result.after.panels[std::size_t(panel)].title = trimmed;
    result.text = QStringLiteral("Rename %1 to %2").arg(titleOf(before, panel), trimmed);
    return result;
}

std::optional<Edit> setColumns(const DashboardDefinition &before, int columns)
{
    if (columns < 1 || columns > 6 || columns == before.columns)
        return std::nullopt;
    Edit result;
    result.after = before;
    result.after.columns = columns;
    result.text = columns == 1 ? QStringLiteral("Show panels in 1 column")
                               : QStringLiteral("Show panels in %1 columns").arg(columns);
    return result;
}

Edit addPanel(const DashboardDefinition &before, const PanelDefinition &panel, int edit)
{
    DashboardDefinition after = before;
    after.panels.push_back(panel);
    return edited(before, std::move(after), unmoved(before), QStringLiteral("Add panel %1").arg(panel.title), edit);
}

std::optional<Edit> replacePanel(const DashboardDefinition &before, int panel, const PanelDefinition &changed,
                                 const std::vector<int> &rows, int edit)
{
    if (!validPanel(before, panel) || rows.size() != changed.series.size())
        return std::nullopt;
    DashboardDefinition after = before;
    after.panels[std::size_t(panel)] = changed;
    if (DashboardWriter::toJson(before) == DashboardWriter::toJson(after))
        return std::nullopt;
    Origins origins = unmoved(after);
    for (std::size_t s = 0; s < rows.size(); ++s)
        origins[std::size_t(panel)][s] = rows[s] < 0 ? SeriesOrigin{} : SeriesOrigin{panel, rows[s]};
    return edited(before, std::move(after), origins, QStringLiteral("Edit %1").arg(titleOf(before, panel)), edit);
}

std::optional<Edit> addDerived(const DashboardDefinition &before, int panel, const QString &formula,
                               const QString &legend, const std::vector<DerivedInput> &inputs, int edit, QString *error)
{
    const auto fail = [error](const QString &message) -> std::optional<Edit> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!validPanel(before, panel))
        return fail(QStringLiteral("no such panel"));
    const Result<DerivedExpression> expression = DerivedExpression::parse(formula.trimmed());
    if (!expression)
        return fail(expression.error().message);
    Edit result;
    result.after = before;
    QSet<QString> ids = idsOf(before);
    SeriesDefinition derived;
    derived.derive = formula.trimmed();
    derived.legend = legend.trimmed();
    for (const QString &name : expression->inputs()) {
        const auto input =
            std::find_if(inputs.begin(), inputs.end(), [&](const DerivedInput &i) { return i.name == name; });
        if (input == inputs.end() || !seriesAt(before, input->panel, input->series))
            return fail(QStringLiteral("choose the series \"%1\" stands for").arg(name));
        SeriesDefinition &series = result.after.panels[std::size_t(input->panel)].series[std::size_t(input->series)];
        if (series.id.isEmpty()) {
            // Named after the formula's word for it; a number added when another series has it.
            QString id = name;
            for (int n = 2; ids.contains(id); ++n)
                id = QStringLiteral("%1_%2").arg(name).arg(n);
            series.id = id;
            ids.insert(id);
        }
        derived.deriveInputs.insert(name, series.id);
    }
    const Origins origins = unmoved(before); // the derived series, at the end, has none
    result.after.panels[std::size_t(panel)].series.push_back(derived);
    return edited(before, std::move(result.after), origins,
                  QStringLiteral("Add %1 to %2")
                      .arg(derived.legend.isEmpty() ? derived.derive : derived.legend, titleOf(before, panel)),
                  edit);
}

} // namespace DashboardEdits
