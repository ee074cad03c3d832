// SPDX-License-Identifier: GPL-3.0-or-later
// Any bytes as a Grafana v2 dashboard resource: the v2 reader gives a classic model or an
// error, never a crash, and the importer converts what it gives into a dashboard the
// writer can write. The seeds are v2 resources, so mutations stay inside the v2 reader.
#include "dashboard/dashboardwriter.h"
#include "grafana/grafanaimporter.h"
#include "grafana/grafanav2schema.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    const QJsonDocument document = QJsonDocument::fromJson(json);
    if (document.isObject()) {
        // The reader on its own, whatever the object looks like.
        (void)GrafanaV2Schema::toClassic(document.object());
    }
    const Result<GrafanaImporter::Conversion> conversion = GrafanaImporter::fromJson(json);
    if (conversion)
        (void)DashboardWriter::toJson(conversion->dashboard);
    return 0;
}
