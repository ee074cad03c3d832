// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenarioverdict.h"

#include "base/format.h"

#include <QRegularExpression>

bool ScenarioVerdict::expectationsHeld() const
{
    for (const CheckLine &line : checks) {
        if (line.critical && !line.passed)
            return false;
    }
    return true;
}

int ScenarioVerdict::exitCode() const
{
    // A failed step is the bigger news: the run did not do what it meant to, so its checks say little.
    if (!stepsSucceeded)
        return kExitStepFailed;
    return expectationsHeld() ? kExitPassed : kExitExpectationFailed;
}

QString ScenarioVerdict::summary() const
{
    if (!stepsSucceeded)
        return stepsMessage;
    QStringList failed;
    for (const CheckLine &line : checks) {
        if (!line.critical || line.passed)
            continue;
        QStringList phases;
        for (const QString &phase : line.failedPhases)
            phases << (phase.isEmpty() ? QStringLiteral("before the first phase") : QStringLiteral("phase ") + phase);
        failed << (phases.isEmpty() ? line.name
                                    : QStringLiteral("%1 (%2)").arg(line.name, phases.join(QStringLiteral(", "))));
    }
    if (!failed.isEmpty())
        return QStringLiteral("%1 failed: %2")
            .arg(failed.size() == 1 ? QStringLiteral("expectation") : QStringLiteral("expectations"),
                 failed.join(QStringLiteral("; ")));
    if (checks.empty())
        return stepsMessage;
    return QStringLiteral("%1, %2 held")
        .arg(stepsMessage, Format::counted(qint64(checks.size()), QStringLiteral("check"), QStringLiteral("checks")));
}

namespace {

constexpr char kPrefix[] = "verdict: ";
const QString kPassed = QStringLiteral("\u2713"); // ✓
const QString kFailed = QStringLiteral("\u2717"); // ✗
const QString kSeparator = QStringLiteral(" · expected: ");

} // namespace

QString ScenarioVerdict::toAnnotationText() const
{
    QStringList lines{QLatin1String(kPrefix) + summary()};
    for (const CheckLine &line : checks) {
        QString text = QStringLiteral("%1 %2 %3: %4")
                           .arg(line.passed ? kPassed : kFailed,
                                line.guard      ? QStringLiteral("guard")
                                : line.critical ? QStringLiteral("expectation")
                                                : QStringLiteral("warning"),
                                QString(line.name).replace(QLatin1Char(':'), QLatin1Char(' ')), line.outcome);
        if (!line.expected.isEmpty())
            text += kSeparator + line.expected;
        lines << text.simplified();
    }
    return lines.join(QLatin1Char('\n'));
}

std::optional<ScenarioVerdict> ScenarioVerdict::fromAnnotationText(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    if (lines.isEmpty() || !lines.front().startsWith(QLatin1String(kPrefix)))
        return std::nullopt;
    ScenarioVerdict verdict;
    verdict.stepsMessage = lines.takeFirst().mid(int(qstrlen(kPrefix)));
    // summary() says how many checks held after the steps' message: said again, not kept twice.
    static const QRegularExpression held(QStringLiteral(R"(, \d+ checks? held$)"));
    verdict.stepsMessage.remove(held);
    for (const QString &line : lines) {
        const bool passed = line.startsWith(kPassed);
        if (!passed && !line.startsWith(kFailed))
            continue;
        const QString rest = line.mid(kPassed.size()).trimmed();
        const QString kind = rest.section(QLatin1Char(' '), 0, 0);
        const QString named = rest.section(QLatin1Char(' '), 1);
        const qsizetype colon = named.indexOf(QStringLiteral(": "));
        if (colon < 0)
            continue;
        CheckLine check;
        check.passed = passed;
        check.guard = kind == QLatin1String("guard");
        check.critical = kind != QLatin1String("warning");
        check.name = named.left(colon);
        const QString outcome = named.mid(colon + 2);
        const qsizetype separator = outcome.lastIndexOf(kSeparator);
        check.outcome = separator < 0 ? outcome : outcome.left(separator);
        check.expected = separator < 0 ? QString() : outcome.mid(separator + kSeparator.size());
        verdict.checks.push_back(check);
    }
    // The summary was written whole; a failed step is the only summary no check explains.
    verdict.stepsSucceeded = verdict.checks.empty() ? !verdict.stepsMessage.contains(QLatin1String("failed")) : true;
    return verdict;
}
