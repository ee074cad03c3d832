// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/postexpectations.h"

#include "analysis/checkjudgement.h"
#include "analysis/phasestatistics.h"
#include "dashboard/panelchecks.h"
#include "report/postphases.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <QSet>

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
    const std::vector<Phase> phases = PhaseStatistics::phases(run, PostPhases::boundaries(run, annotations));
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
            const CheckVerdict whole = CheckJudgement::perPhase(check.check, series, phases).front();
            PostDraft::Expectation expectation;
            expectation.name = check.check.name;
            expectation.expected = check.check.describe().mid(check.check.name.size() + 2);
            if (whole.applies && whole.samples > 0)
                expectation.passed = !whole.failed();
            expectation.outcome = whole.describe(check.check);
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
