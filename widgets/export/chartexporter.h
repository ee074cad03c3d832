// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "export/exportfigure.h"
#include "export/exporttheme.h"

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>
#include <optional>

class SampleStore;

// Writes a figure to a file for a blog post: PNG at a logical size and a pixel ratio (a 2×
// PNG of 1200×675 is 2400×1350 pixels, the same picture drawn finer), SVG (vectors, text
// as text) or the CSV of the samples behind it. The format follows the file's suffix.
class ChartExporter
{
public:
    enum class Format
    {
        Png,
        Svg,
        Csv
    };
    static constexpr QSize kDefaultSize{1200, 675};

    ChartExporter(const SampleStore &store, ExportTheme theme);

    static std::optional<Format> formatFor(const QString &path);

    // The picture's logical size for a requested one: the same, or taller when the panels need
    // it to keep each plot at least half its panel (FigurePainter::sizeFor). The width stays.
    QSize sizeFor(const ExportFigure &figure, QSize requested) const;
    QImage toImage(const ExportFigure &figure, QSize logicalSize = kDefaultSize, double scale = 1) const;
    QByteArray toSvg(const ExportFigure &figure, QSize logicalSize = kDefaultSize) const;
    // One "time" column, then one per series; with several panels a header is "Panel: legend".
    QString toCsv(const ExportFigure &figure) const;

    // Writes by suffix (.png, .svg, .csv) and creates the folder; the absolute path on success.
    // Refuses, with the reason and nothing written, an unknown suffix, a scale other than
    // 1, 2 or 3, a size outside 100…10000 px, or a path that cannot be written.
    Result<QString> write(const QString &path, const ExportFigure &figure, QSize logicalSize = kDefaultSize,
                          double scale = 1) const;

    // Fills in "{time}" (the given instant as UTC yyyyMMdd-HHmmss) and "{panel}" (the title
    // made safe for a file name: "Pool (leased)" → "pool-leased").
    static QString expandPlaceholders(const QString &pattern, qint64 timeMs, const QString &panelTitle);

private:
    const SampleStore &m_store;
    ExportTheme m_theme;
};
