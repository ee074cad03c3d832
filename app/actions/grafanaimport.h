// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "grafana/grafanaimporter.h"

#include <QString>
#include <optional>

// A Grafana dashboard file in, a Chaoscope dashboard file out: what both
// `chaoscope --import-grafana IN --output OUT` and File ▸ Import Grafana dashboard… do.
namespace GrafanaImport {

// The conversion of the file at `path`; an error names the file and what is wrong with it.
Result<GrafanaImporter::Conversion> readFile(const QString &path);
// Writes the converted dashboard (all or nothing). Refuses to write over `inputPath`: the
// Grafana file is the one thing the user cannot get back from the output.
std::optional<Error> writeFile(const DashboardDefinition &dashboard, const QString &path, const QString &inputPath);
// "Converted 9 panels, 4 variables to out.json"
QString summary(const GrafanaImporter::Conversion &conversion, const QString &outputPath);

// The command line: prints the summary and one "not converted: ..." line per thing left out.
// Exit codes: 0 converted (even with things left out), 2 the input is unreadable or not a
// Grafana dashboard, 3 the output cannot be written (or is the input).
int runCommand(const QString &inputPath, const QString &outputPath);

} // namespace GrafanaImport
