// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/postphases.h"

#include "base/filenames.h"
#include "base/format.h"
#include "base/markdown.h"

#include <QRegularExpression>
#include <algorithm>

namespace PostPhases {

namespace {

QString firstLine(const Annotation &annotation)
{
    return annotation.text.section(QLatin1Char('\n'), 0, 0).simplified();
}

// What a phase of the post is titled by: the change done, or a #phase note's words.
QString startName(const Annotation &annotation)
{
    return Phases::isDone(annotation) ? actionOf(annotation).change : Phases::phaseName(annotation);
}

} // namespace

std::vector<Annotation> boundaries(const TimeRange &run, const std::vector<Annotation> &annotations)
{
    std::vector<Annotation> marks;
    for (const Annotation &annotation : Phases::boundaries(annotations)) {
        if (annotation.timeMs > run.startMs && annotation.timeMs <= run.endMs)
            marks.push_back(annotation);
    }
    return marks;
}

std::vector<Titled> titled(const TimeRange &run, const std::vector<Annotation> &annotations)
{
    const std::vector<Annotation> marks = boundaries(run, annotations);
    // Column 0 is the whole run; with marks, 1 is the time before the first and 2… start at them.
    if (marks.empty())
        return {{0, QStringLiteral("the whole run")}};
    std::vector<Titled> phases;
    if (marks.front().timeMs - run.startMs >= kShortestFirstMs)
        phases.push_back({1, QStringLiteral("before %1").arg(startName(marks.front()))});
    for (std::size_t i = 0; i < marks.size(); ++i)
        phases.push_back({int(i) + 2, startName(marks[i])});
    return phases;
}

std::vector<Planned> plan(const TimeRange &run, const std::vector<Annotation> &annotations,
                          const PhaseStatisticsTable &table)
{
    std::vector<Planned> planned;
    for (const Titled &titledPhase : titled(run, annotations)) {
        if (titledPhase.column >= int(table.columns.size()))
            continue;
        PostDraft::Phase phase;
        phase.number = int(planned.size()) + 1;
        phase.title = titledPhase.title;
        phase.range = table.columns[std::size_t(titledPhase.column)].range;
        for (const Annotation &annotation : annotations) {
            if (Phases::isDone(annotation) && phase.range.contains(annotation.timeMs))
                phase.actions.push_back(actionOf(annotation));
        }
        std::stable_sort(phase.actions.begin(), phase.actions.end(),
                         [](const PostDraft::Action &a, const PostDraft::Action &b) { return a.timeMs < b.timeMs; });
        planned.push_back({phase, titledPhase.column});
    }
    return planned;
}

PostDraft::Action actionOf(const Annotation &annotation)
{
    PostDraft::Action action;
    action.timeMs = annotation.timeMs;
    action.failed = annotation.failed;
    const QString line = firstLine(annotation);
    // "rate 150 → 400 /s (Chaoscope starter, 1/1 replica)", "worker replicas 1 → 0: kept …",
    // "rate → 400 /s failed on 1 of 1 replica: …", "starter replicas 1 → 0, not by Chaoscope".
    static const QRegularExpression trailingParentheses(QStringLiteral(R"(^(.*\S)\s+\(([^()]*)\)$)"));
    static const QRegularExpression failedOn(QStringLiteral(R"(^(.*?)\s+(failed on .*|refused: .*)$)"));
    static const QRegularExpression colon(QStringLiteral(R"(^([^:]*→[^:]*?):\s+(.*)$)"));
    static const QRegularExpression comma(QStringLiteral(R"(^([^,]*→[^,]*?),\s+(.*)$)"));
    QRegularExpressionMatch match;
    if ((match = failedOn.match(line)).hasMatch() ||
        (line.contains(QChar(0x2192)) && (match = trailingParentheses.match(line)).hasMatch()) ||
        (match = colon.match(line)).hasMatch() || (match = comma.match(line)).hasMatch()) {
        action.change = match.captured(1);
        action.outcome = match.captured(2);
    } else {
        action.change = line;
    }
    if (action.outcome.isEmpty()) {
        switch (annotation.source) {
        case Annotation::Source::Scenario:
            action.outcome = QStringLiteral("scenario step");
            break;
        case Annotation::Source::Kubernetes:
            action.outcome = QStringLiteral("not by Chaoscope");
            break;
        default:
            action.outcome = annotation.failed ? QStringLiteral("failed") : QStringLiteral("applied");
            break;
        }
    }
    return action;
}

QString statisticsMarkdown(const PhaseStatisticsTable &table, int column)
{
    using Statistic = PhaseStatisticsTable::Statistic;
    if (column < 0 || column >= int(table.columns.size()))
        return {};
    // The table's rows come per series and statistic: gather each series' row of numbers.
    std::vector<Statistic> statistics;
    std::vector<QString> series;
    for (const PhaseStatisticsTable::Row &row : table.rows) {
        if (std::find(statistics.begin(), statistics.end(), row.statistic) == statistics.end())
            statistics.push_back(row.statistic);
        if (std::find(series.begin(), series.end(), row.series) == series.end())
            series.push_back(row.series);
    }
    if (series.empty() && table.checks.empty())
        return {};
    QStringList header{QStringLiteral("series")};
    std::vector<bool> right{false};
    for (Statistic statistic : statistics) {
        header << PhaseStatisticsTable::statisticName(statistic);
        right.push_back(true);
    }
    std::vector<QStringList> rows;
    for (const QString &name : series) {
        QStringList fields{name};
        for (Statistic statistic : statistics) {
            QString text = QStringLiteral("–");
            for (const PhaseStatisticsTable::Row &row : table.rows) {
                if (row.series == name && row.statistic == statistic && row.values[std::size_t(column)])
                    text = Format::value(*row.values[std::size_t(column)], row.unit);
            }
            fields << text;
        }
        rows.push_back(fields);
    }
    QString markdown = series.empty() ? QString() : Markdown::table(header, rows, right);
    if (!table.checks.empty()) {
        std::vector<QStringList> checkRows;
        for (const PhaseStatisticsTable::CheckRow &row : table.checks) {
            const CheckVerdict &verdict = row.verdicts[std::size_t(column)];
            const bool judged = verdict.applies && verdict.samples > 0;
            const QString mark = !judged            ? QStringLiteral("–")
                                 : verdict.failed() ? QStringLiteral("❌")
                                                    : QStringLiteral("✅");
            checkRows.push_back({PhaseStatisticsTable::checkTitle(row.check),
                                 QStringLiteral("%1 %2").arg(mark, verdict.describe(row.check))});
        }
        if (!markdown.isEmpty())
            markdown += QLatin1Char('\n');
        markdown += Markdown::table({QStringLiteral("check"), QStringLiteral("in this phase")}, checkRows, {});
    }
    return markdown;
}

QString pictureName(int number, const QString &title)
{
    // "rate 150 → 400 /s": the name of what changed and its new value; otherwise the first words.
    QString shortTitle = title;
    const qsizetype arrow = title.indexOf(QChar(0x2192));
    if (arrow > 0) {
        // The words that name what changed; the value it had before is left out.
        QStringList words = title.left(arrow).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        static const QStringList kBeforeWords{QStringLiteral("unlimited"), QStringLiteral("none"),
                                              QStringLiteral("off"), QStringLiteral("paused"),
                                              QStringLiteral("running")};
        if (words.size() > 1 && (!words.back().front().isLetter() || kBeforeWords.contains(words.back())))
            words.removeLast();
        const QString after = title.mid(arrow + 1).trimmed().section(QLatin1Char(' '), 0, 0);
        shortTitle = words.join(QLatin1Char(' ')) + QLatin1Char(' ') + after;
    } else {
        shortTitle = title.section(QLatin1Char(' '), 0, 4);
    }
    const QString name = FileNames::slug(shortTitle);
    return name.isEmpty() ? QStringLiteral("phase-%1.png").arg(number)
                          : QStringLiteral("phase-%1-%2.png").arg(number).arg(name);
}

} // namespace PostPhases
