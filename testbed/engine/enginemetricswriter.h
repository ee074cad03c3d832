// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engineconfig.h"
#include "enginemodel.h"
#include "processstats.h"

#include <QByteArray>

// Renders the engine's state in the Prometheus text exposition format 0.0.4, every family
// with its HELP and TYPE line (names as in docs/metrics.md).
class EngineMetricsWriter
{
public:
    static constexpr const char *contentType = "text/plain; version=0.0.4; charset=utf-8";

    static QByteArray render(const EngineModel::Counters &counters, const EngineConfig &config,
                             const ProcessStats &process);

private:
    EngineMetricsWriter() = default;

    void family(const char *name, const char *type, const char *help);
    void sample(const char *name, double value, const QByteArray &labels = {});

    QByteArray m_text;
};
