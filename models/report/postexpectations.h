// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "base/timerange.h"
#include "fetching/dashboardsnapshot.h"
#include "report/postdraft.h"
#include "scenario/scenarioverdict.h"

#include <vector>

class SampleStore;

// What a post says was expected and how it went: a scenario's expectations and guards with
// their verdicts, and the dashboard's checks judged over the run from its samples (as the
// legend and the phase statistics judge them).
namespace PostExpectations {

std::vector<PostDraft::Expectation> fromVerdict(const ScenarioVerdict &verdict);

// Each check of the dashboard once (on the first panel that shows it), judged over the run,
// each phase between the things done on its own.
std::vector<PostDraft::Expectation> fromChecks(const DashboardSnapshot &snapshot, const SampleStore &store,
                                               const TimeRange &run, const std::vector<Annotation> &annotations);

// The newest verdict a scenario left among the marks; nullopt when none did.
std::optional<ScenarioVerdict> verdictOf(const std::vector<Annotation> &annotations);

} // namespace PostExpectations
