// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/grafanaimport.h"

#include "dashboard/dashboardwriter.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <cstdio>

namespace GrafanaImport {

Result<GrafanaImporter::Conversion> readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    Result<GrafanaImporter::Conversion> conversion = GrafanaImporter::fromJson(file.readAll());
    if (!conversion) {
        Error error = conversion.error();
        error.message = QStringLiteral("%1: %2").arg(path, error.message);
        return error;
    }
    return conversion;
}

std::optional<Error> writeFile(const DashboardDefinition &dashboard, const QString &path, const QString &inputPath)
{
    const QFileInfo output(path);
    const QFileInfo input(inputPath);
    // Canonical paths see through "./in.json" and symbolic links; an output that does not
    // exist yet cannot be the input.
    if (output.exists() && input.exists() && output.canonicalFilePath() == input.canonicalFilePath()) {
        return Error::make(
            Error::Kind::Io,
            QStringLiteral("%1 is the Grafana file being imported; choose another output file").arg(path));
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    file.write(DashboardWriter::toJson(dashboard));
    if (!file.commit())
        return Error::make(Error::Kind::Io, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return std::nullopt;
}

QString summary(const GrafanaImporter::Conversion &conversion, const QString &outputPath)
{
    const std::size_t panels = conversion.dashboard.panels.size();
    const std::size_t variables = conversion.dashboard.variableDefinitions.size();
    return QStringLiteral("Converted %1 panel%2, %3 variable%4 to %5")
        .arg(panels)
        .arg(panels == 1 ? "" : "s")
        .arg(variables)
        .arg(variables == 1 ? "" : "s")
        .arg(outputPath);
}

int runCommand(const QString &inputPath, const QString &outputPath)
{
    const Result<GrafanaImporter::Conversion> conversion = readFile(inputPath);
    if (!conversion) {
        std::fprintf(stderr, "chaoscope: %s\n", qPrintable(conversion.error().message));
        return 2;
    }
    if (const std::optional<Error> error = writeFile(conversion->dashboard, outputPath, inputPath)) {
        std::fprintf(stderr, "chaoscope: %s\n", qPrintable(error->message));
        return 3;
    }
    std::printf("%s\n", qPrintable(summary(conversion.value(), outputPath)));
    for (const QString &line : conversion->notConverted)
        std::printf("not converted: %s\n", qPrintable(line));
    return 0;
}

} // namespace GrafanaImport
