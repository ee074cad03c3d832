// SPDX-License-Identifier: GPL-3.0-or-later
// Any bytes as a Grafana dashboard export: the importer gives a conversion or an error, never
// a crash, and what it converts is a dashboard the writer can write.
#include "dashboard/dashboardwriter.h"
#include "grafana/grafanaimporter.h"
#include "grafana/grafanaunit.h"
#include "grafana/grafanavariables.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    const Result<GrafanaImporter::Conversion> conversion = GrafanaImporter::fromJson(json);
    if (conversion)
        (void)DashboardWriter::toJson(conversion->dashboard);
    // The text parsers on their own, with whatever the bytes say.
    const QString text = QString::fromUtf8(json.left(256));
    QString label, match;
    (void)GrafanaVariables::parseLabelValues(text, &label, &match);
    (void)GrafanaUnit::fromId(text).scaleQuery(text);
    return 0;
}
