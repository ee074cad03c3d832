// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/exporttheme.h"

#include "theme/palette.h"

#include <QApplication>
#include <QFontDatabase>

namespace {

// A font shipped in the resources, so that text in a picture has the same shape and width
// whatever fonts the machine has (the golden-image tests depend on it).
QString registerShippedFont()
{
    QString family;
    for (const QString &file :
         {QStringLiteral(":/fonts/DejaVuSans.ttf"), QStringLiteral(":/fonts/DejaVuSans-Bold.ttf")}) {
        const int id = QFontDatabase::addApplicationFont(file);
        if (id >= 0 && family.isEmpty() && !QFontDatabase::applicationFontFamilies(id).isEmpty())
            family = QFontDatabase::applicationFontFamilies(id).first();
    }
    return family.isEmpty() ? QStringLiteral("DejaVu Sans") : family;
}

} // namespace

QString ExportTheme::blogFontFamily()
{
    static const QString family = registerShippedFont();
    return family;
}

QFont ExportTheme::font(double pixelSize, bool bold) const
{
    QFont font(fontFamily);
    font.setPixelSize(qMax(1, qRound(pixelSize)));
    font.setBold(bold);
    // Same glyph positions at every scale: no hinting, which would snap them differently at 1× and
    // 2×.
    font.setHintingPreference(QFont::PreferNoHinting);
    font.setStyleStrategy(QFont::PreferAntialias);
    return font;
}

QColor ExportTheme::seriesColor(int index)
{
    return Palette::seriesColor(index);
}

ExportTheme ExportTheme::blog()
{
    ExportTheme theme;
    theme.name = QStringLiteral("blog");
    theme.background = Qt::white;
    theme.text = QColor(0x1A, 0x1A, 0x1A);
    theme.mutedText = QColor(0x55, 0x5B, 0x66);
    theme.grid = QColor(0xE3, 0xE6, 0xEA);
    theme.axis = QColor(0x8A, 0x90, 0x99);
    theme.checkLevel = QColor(0xB0, 0x3A, 0x00);
    theme.checkFailed = QColor(0xB0, 0x00, 0x20);
    theme.fontFamily = blogFontFamily();
    return theme;
}

ExportTheme ExportTheme::app()
{
    ExportTheme theme = blog();
    theme.name = QStringLiteral("app");
    theme.text = QColor(0x20, 0x24, 0x2A);
    theme.mutedText = QColor(0x5F, 0x66, 0x70);
    theme.grid = QColor(0xEC, 0xEE, 0xF1);
    theme.fontFamily = QApplication::font().family();
    theme.titlePx = 18;
    theme.subtitlePx = 13;
    theme.panelTitlePx = 13;
    theme.axisPx = 11;
    theme.legendPx = 11;
    theme.annotationPx = 11;
    theme.captionPx = 11;
    theme.lineWidth = 1.5;
    theme.margin = 12;
    return theme;
}

std::optional<ExportTheme> ExportTheme::named(const QString &name)
{
    const QString lower = name.trimmed().toLower();
    if (lower == QLatin1String("blog"))
        return blog();
    if (lower == QLatin1String("app"))
        return app();
    return std::nullopt;
}

QStringList ExportTheme::names()
{
    return {QStringLiteral("blog"), QStringLiteral("app")};
}
