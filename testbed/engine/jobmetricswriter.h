// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobmodel.h"

#include <QByteArray>

// The job model's counters in the names Camunda's dashboards read (zeebe_job_events_total,
// zeebe_log_appender_record_appended_total, ...; see docs/metrics.md), plus the testbed's own
// gauges of what Zeebe does not expose (the activatable backlog per job type).
namespace JobMetricsWriter {

QByteArray render(const JobModel::Counters &counters);

} // namespace JobMetricsWriter
