// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/postdraft.h"

#include "base/format.h"
#include "base/markdown.h"

#include <QDateTime>

namespace {

// A YAML flow sequence of plain words: [chaos_experiment, availability].
QString yamlList(const QStringList &items)
{
    QStringList quoted;
    for (const QString &item : items) {
        const QString trimmed = item.trimmed();
        if (trimmed.isEmpty())
            continue;
        static const QString plain =
            QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.");
        const bool isPlain = std::all_of(trimmed.begin(), trimmed.end(), [](QChar c) { return plain.contains(c); });
        quoted << (isPlain ? trimmed
                           : QStringLiteral("\"%1\"").arg(
                                 QString(trimmed).replace(QLatin1Char('"'), QStringLiteral("\\\""))));
    }
    return QStringLiteral("[%1]").arg(quoted.join(QStringLiteral(", ")));
}

QString yamlString(const QString &text)
{
    QString escaped = text.simplified();
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

// A picture and the sentence under it.
QString picture(const PostDraft::Picture &picture)
{
    const QString alt = QString(picture.caption)
                            .replace(QLatin1Char(']'), QLatin1Char(')'))
                            .replace(QLatin1Char('['), QLatin1Char('('));
    return QStringLiteral("![%1](%2)\n").arg(alt.simplified(), picture.file);
}

QString mark(const std::optional<bool> &passed)
{
    if (!passed)
        return QStringLiteral("–");
    return *passed ? QStringLiteral("✅") : QStringLiteral("❌");
}

} // namespace

QString PostDraft::timeText(qint64 ms) const
{
    return QDateTime::fromMSecsSinceEpoch(ms, timeZone).toString(QStringLiteral("HH:mm:ss"));
}

QString PostDraft::zoneName(qint64 ms) const
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(ms, timeZone);
    if (at.offsetFromUtc() == 0 && (timeZone == QTimeZone::utc() || timeZone.id().contains("UTC")))
        return QStringLiteral("UTC");
    const QString abbreviation = timeZone.abbreviation(at);
    return abbreviation.isEmpty() ? QString::fromUtf8(timeZone.id()) : abbreviation;
}

QString PostDraft::toMarkdown() const
{
    QStringList out;
    out << QStringLiteral("---") << QStringLiteral("title: %1").arg(yamlString(title))
        << QStringLiteral("date: %1").arg(date.toString(Qt::ISODate))
        << QStringLiteral("categories: %1").arg(yamlList(categories)) << QStringLiteral("tags: %1").arg(yamlList(tags))
        << QStringLiteral("authors: %1").arg(yamlList(authors)) << QStringLiteral("---") << QString();

    // The summary: what ran, the TL;DR the author writes, the headline picture.
    out << Markdown::plainLine(description) << QString();
    out << QStringLiteral("**TL;DR;** _What did we learn? Two or three sentences for the reader who stops here._")
        << QString();
    if (!headline.file.isEmpty())
        out << picture(headline);
    out << QStringLiteral("<!--truncate-->") << QString();

    out << QStringLiteral("## Chaos Experiment") << QString();
    out << QStringLiteral("_Why we ran it and what the setup was: fill in._") << QString();
    if (!actions.empty()) {
        out << QStringLiteral("What we did (times in %1):").arg(zoneName(actions.front().timeMs)) << QString();
        std::vector<QStringList> rows;
        for (const Action &action : actions)
            rows.push_back({timeText(action.timeMs), action.change,
                            action.failed ? QStringLiteral("❌ %1").arg(action.outcome) : action.outcome});
        out << Markdown::table({QStringLiteral("time"), QStringLiteral("action"), QStringLiteral("outcome")}, rows, {});
    }

    out << QStringLiteral("### Expected") << QString();
    if (expectations.empty()) {
        out << QStringLiteral("_What did we expect to happen? Fill in._") << QString();
    } else {
        for (const Expectation &expectation : expectations)
            out << QStringLiteral("- **%1**: `%2`")
                       .arg(Markdown::cell(expectation.name), Markdown::cell(expectation.expected));
        out << QString();
    }

    out << QStringLiteral("### Actual") << QString();
    for (const Phase &phase : phases) {
        out << QStringLiteral("#### Phase %1: %2").arg(phase.number).arg(Markdown::cell(phase.title)) << QString();
        out << QStringLiteral("From %1 to %2 (%3).")
                   .arg(timeText(phase.range.startMs), timeText(phase.range.endMs),
                        Format::duration(phase.range.length()))
            << QString();
        if (!phase.actions.empty()) {
            for (const Action &action : phase.actions)
                out << QStringLiteral("- %1 %2 (%3)")
                           .arg(timeText(action.timeMs), Markdown::cell(action.change),
                                action.failed ? QStringLiteral("failed: ") + action.outcome : action.outcome);
            out << QString();
        }
        if (!phase.picture.file.isEmpty())
            out << picture(phase.picture);
        out << QStringLiteral("_What this picture shows: fill in._") << QString();
        if (!phase.statistics.isEmpty())
            out << phase.statistics;
    }
    if (!comparison.isEmpty())
        out << comparison;

    out << QStringLiteral("### Result") << QString();
    if (expectations.empty()) {
        out << QStringLiteral("_Did it hold? ✅ or ❌ per expectation: fill in._") << QString();
    } else {
        std::vector<QStringList> rows;
        for (const Expectation &expectation : expectations)
            rows.push_back(
                {expectation.name, QStringLiteral("%1 %2").arg(mark(expectation.passed), expectation.outcome)});
        out << Markdown::table({QStringLiteral("expectation"), QStringLiteral("result")}, rows, {});
    }
    if (!verdict.isEmpty())
        out << QStringLiteral("The scenario's verdict: %1.").arg(verdict) << QString();

    if (!notes.empty()) {
        out << QStringLiteral("## Notes from the run") << QString();
        for (const Note &note : notes)
            out << QStringLiteral("- %1 %2").arg(timeText(note.timeMs), Markdown::cell(note.text));
        out << QString();
    }

    out << QStringLiteral("## Found bugs") << QString();
    out << QStringLiteral("- _None yet: list each with its issue link._");
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}
