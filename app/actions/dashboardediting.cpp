// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/dashboardediting.h"

#include "dashboard/dashboardwriter.h"

#include <QRegularExpression>
#include <QUndoCommand>
#include <QUndoStack>

namespace {

// One change of the dashboard: the whole definition before and after, so that undo and redo
// give back exactly what was there, however the change was made.
class DashboardChange : public QUndoCommand
{
public:
    DashboardChange(const QString &text, DashboardDefinition before, DashboardDefinition after,
                    std::function<void(const DashboardDefinition &)> apply)
        : QUndoCommand(text), m_before(std::move(before)), m_after(std::move(after)), m_apply(std::move(apply))
    {}
    void undo() override { m_apply(m_before); }
    void redo() override { m_apply(m_after); }

private:
    DashboardDefinition m_before;
    DashboardDefinition m_after;
    std::function<void(const DashboardDefinition &)> m_apply;
};

QString shortQuery(const QString &query)
{
    const QString simplified = query.simplified();
    return simplified.size() <= 40 ? simplified : simplified.left(39) + QChar(0x2026);
}

// A new panel's title: the query's metric (the first name that is no function or keyword), so
// that the file reads "starter_requests_received_total", not a cut-off expression.
QString titleFor(const QString &query)
{
    static const QRegularExpression name(QStringLiteral(R"([a-zA-Z_:][a-zA-Z0-9_:]*)"));
    static const QStringList keywords{
        QStringLiteral("by"),       QStringLiteral("without"),    QStringLiteral("on"),
        QStringLiteral("ignoring"), QStringLiteral("group_left"), QStringLiteral("group_right"),
        QStringLiteral("offset"),   QStringLiteral("bool"),       QStringLiteral("and"),
        QStringLiteral("or"),       QStringLiteral("unless")};
    QString inBraces = query;
    // Label names and values are no metrics: leave out what is inside {…} and quotes.
    inBraces.replace(QRegularExpression(QStringLiteral(R"(\{[^}]*\}|"[^"]*")")), QStringLiteral(" "));
    for (auto it = name.globalMatch(inBraces); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        QString word = match.captured(0);
        const bool isCall = inBraces.mid(match.capturedEnd()).trimmed().startsWith(QLatin1Char('('));
        if (!isCall && !keywords.contains(word))
            return word;
    }
    return shortQuery(query);
}

} // namespace

DashboardEditing::DashboardEditing(QUndoStack *undoStack, Current current, Apply apply, QObject *parent)
    : QObject(parent), m_undoStack(undoStack), m_current(std::move(current)), m_apply(std::move(apply))
{
    m_saved = DashboardWriter::toJson(m_current());
}

void DashboardEditing::change(const QString &text, const DashboardDefinition &after)
{
    m_undoStack->push(new DashboardChange(text, m_current(), after, [this](const DashboardDefinition &now) {
        m_apply(now);
        applied(now);
    }));
}

int DashboardEditing::addQuery(const QString &query, int panel)
{
    DashboardDefinition after = m_current();
    SeriesDefinition series;
    series.query = query;
    if (panel < 0 || panel >= int(after.panels.size())) {
        PanelDefinition added;
        added.title = titleFor(query);
        added.series.push_back(series);
        after.panels.push_back(added);
        change(tr("Add a panel for %1").arg(shortQuery(query)), after);
        return int(after.panels.size()) - 1;
    }
    after.panels[std::size_t(panel)].series.push_back(series);
    change(tr("Add %1 to %2").arg(shortQuery(query), after.panels[std::size_t(panel)].title), after);
    return panel;
}

void DashboardEditing::markSaved(const DashboardDefinition &saved)
{
    m_saved = DashboardWriter::toJson(saved);
    applied(saved);
}

bool DashboardEditing::isModified() const
{
    return m_modified;
}

void DashboardEditing::applied(const DashboardDefinition &now)
{
    const bool modified = DashboardWriter::toJson(now) != m_saved;
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}
