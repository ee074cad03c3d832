// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/postexpectations.h"

#include "analysis/checkjudgement.h"
#include "analysis/phasestatistics.h"
#include "dashboard/panelchecks.h"
#include "report/postphases.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <QSet>

namespace {

// A run of several phases is judged phase by phase, named as the post's sections name them:
// "FAILED at 22:44:45" alone reads as though the fix failed too, when it was the overload
// before it, and the fix held after settling.
QString byPhase(const Check &check, const std::vector<CheckVerdict> &verdicts,
                const std::vector<PostPhases::Titled> &phases)
{
    QStringList parts;
    for (std::size_t i = 0; i < phases.size(); ++i) {
        const std::size_t column = std::size_t(phases[i].column);
        if (column >= verdicts.size() || !verdicts[column].applies || verdicts[column].samples == 0)
            continue;
        parts << QStringLiteral("phase %1 (%2): %3").arg(i + 1).arg(phases[i].title, verdicts[column].describe(check));
    }
    return parts.isEmpty() ? verdicts.front().describe(check) : parts.join(QStringLiteral("; "));
}

} // namespace

namespace PostExpectations {

std::vector<PostDraft::Expectation> fromVerdict(const ScenarioVerdict &verdict)
{
    std::vector<PostDraft::Expectation> expectations;
    for (const ScenarioVerdict::CheckLine &line : verdict.checks) {
        PostDraft::Expectation expectation;
        expectation.name = line.guard ? QStringLiteral("guard %1").arg(line.name) : line.name;
        expectation.expected = line.expected;
        expectation.passed = line.passed;
        expectation.outcome = line.outcome;
        expectations.push_back(expectation);
    }
    return expectations;
}

std::vector<PostDraft::Expectation> fromChecks(const DashboardSnapshot &snapshot, const SampleStore &store,
                                               const TimeRange &run, const std::vector<Annotation> &annotations)
{
    std::vector<PostDraft::Expectation> expectations;
    const DashboardDefinition &dashboard = snapshot.dashboard;
    const std::vector<Phase> phases = Phases::of(run, annotations);
    const std::vector<PostPhases::Titled> titles = PostPhases::titled(run, annotations);
    QSet<QString> judged;
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        for (const PanelCheck &check : PanelChecks::of(dashboard, p, dashboard.checks)) {
            if (judged.contains(check.check.name))
                continue;
            judged.insert(check.check.name);
            std::vector<CheckJudgement::Samples> series;
            for (const SeriesBinding &binding : snapshot.seriesOf(p)) {
                const SampleStore::Series *stored = store.series(binding.key);
                if (stored && SeriesKey::matches(check.reference, binding.key))
                    series.push_back({stored->timestampsMs(), stored->values()});
            }
            const std::vector<CheckVerdict> verdicts = CheckJudgement::perPhase(check.check, series, phases);
            const CheckVerdict &whole = verdicts.front();
            PostDraft::Expectation expectation;
            expectation.name = check.check.name;
            expectation.expected = check.check.describe().mid(check.check.name.size() + 2);
            if (whole.applies && whole.samples > 0)
                expectation.passed = !whole.failed();
            expectation.outcome =
                verdicts.size() > 2 ? byPhase(check.check, verdicts, titles) : whole.describe(check.check);
            expectations.push_back(expectation);
        }
    }
    return expectations;
}

std::optional<ScenarioVerdict> verdictOf(const std::vector<Annotation> &annotations)
{
    std::optional<ScenarioVerdict> newest;
    qint64 newestMs = 0;
    for (const Annotation &annotation : annotations) {
        if (!annotation.tags.contains(QStringLiteral("verdict")) || annotation.timeMs < newestMs)
            continue;
        if (std::optional<ScenarioVerdict> verdict = ScenarioVerdict::fromAnnotationText(annotation.text)) {
            newest = std::move(verdict);
            newestMs = annotation.timeMs;
        }
    }
    return newest;
}

} // namespace PostExpectations
