// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/chartexporter.h"

#include "base/filenames.h"
#include "export/figurepainter.h"
#include "store/panelcsv.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTimeZone>

ChartExporter::ChartExporter(const SampleStore &store, ExportTheme theme) : m_store(store), m_theme(std::move(theme)) {}

std::optional<ChartExporter::Format> ChartExporter::formatFor(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return Format::Png;
    if (suffix == QLatin1String("svg"))
        return Format::Svg;
    if (suffix == QLatin1String("csv"))
        return Format::Csv;
    return std::nullopt;
}

QSize ChartExporter::sizeFor(const ExportFigure &figure, QSize requested) const
{
    return FigurePainter(m_store, m_theme).sizeFor(figure, QSizeF(requested)).toSize();
}

QImage ChartExporter::toImage(const ExportFigure &figure, QSize requestedSize, double scale) const
{
    const QSize logicalSize = sizeFor(figure, requestedSize);
    QImage image(logicalSize * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(m_theme.background);
    QPainter painter(&image);
    FigurePainter(m_store, m_theme).paint(painter, QRectF(QPointF(0, 0), QSizeF(logicalSize)), figure);
    painter.end();
    return image;
}

QByteArray ChartExporter::toSvg(const ExportFigure &figure, QSize requestedSize) const
{
    const QSize logicalSize = sizeFor(figure, requestedSize);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(logicalSize);
    generator.setViewBox(QRect(QPoint(0, 0), logicalSize));
    generator.setResolution(96);
    generator.setTitle(figure.title.isEmpty() ? QStringLiteral("Chaoscope chart") : figure.title);
    generator.setDescription(FigurePainter(m_store, m_theme).captionText(figure));
    QPainter painter(&generator);
    FigurePainter(m_store, m_theme).paint(painter, QRectF(QPointF(0, 0), QSizeF(logicalSize)), figure);
    painter.end();
    return bytes;
}

QString ChartExporter::toCsv(const ExportFigure &figure) const
{
    std::vector<PanelCsv::Column> columns;
    for (const ExportFigure::Panel &panel : figure.panels) {
        for (const ExportFigure::Series &series : panel.series) {
            const QString header =
                figure.panels.size() == 1 ? series.name : panel.title + QStringLiteral(": ") + series.name;
            columns.push_back({series.key, header});
        }
    }
    TimeRange range = figure.range;
    if (figure.isComparison()) {
        range = figure.compare.front().range;
        for (const ExportFigure::Window &window : figure.compare)
            range = {std::min(range.startMs, window.range.startMs), std::max(range.endMs, window.range.endMs)};
    }
    return PanelCsv::write(m_store, columns, range);
}

Result<QString> ChartExporter::write(const QString &path, const ExportFigure &figure, QSize logicalSize,
                                     double scale) const
{
    const std::optional<Format> format = formatFor(path);
    if (!format) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("cannot tell the format of \"%1\": the name must end in .png, .svg or .csv").arg(path));
    }
    if (scale != 1 && scale != 2 && scale != 3)
        return Error::make(Error::Kind::Invalid, QStringLiteral("the scale must be 1, 2 or 3, not %1").arg(scale));
    if (logicalSize.width() < 100 || logicalSize.height() < 100 || logicalSize.width() > 10000 ||
        logicalSize.height() > 10000) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("the size must be between 100×100 and 10000×10000, not %1×%2")
                               .arg(logicalSize.width())
                               .arg(logicalSize.height()));
    }
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create the folder %1").arg(info.absolutePath()));

    QByteArray bytes;
    switch (*format) {
    case Format::Png: {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!toImage(figure, logicalSize, scale).save(&buffer, "PNG"))
            return Error::make(Error::Kind::Io,
                               QStringLiteral("cannot encode the PNG for %1").arg(info.absoluteFilePath()));
        break;
    }
    case Format::Svg:
        bytes = toSvg(figure, logicalSize);
        break;
    case Format::Csv:
        bytes = toCsv(figure).toUtf8();
        break;
    }
    // Whole file or nothing: a reader never sees half a picture.
    QSaveFile file(info.absoluteFilePath());
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot write %1: %2").arg(info.absoluteFilePath(), file.errorString()));
    }
    return info.absoluteFilePath();
}

QString ChartExporter::expandPlaceholders(const QString &pattern, qint64 timeMs, const QString &panelTitle)
{
    QString slug = FileNames::slug(panelTitle, 80);
    if (slug.isEmpty())
        slug = QStringLiteral("dashboard");
    QString expanded = pattern;
    expanded.replace(
        QLatin1String("{time}"),
        QDateTime::fromMSecsSinceEpoch(timeMs, QTimeZone::utc()).toString(QStringLiteral("yyyyMMdd-HHmmss")));
    expanded.replace(QLatin1String("{panel}"), slug);
    return expanded;
}
