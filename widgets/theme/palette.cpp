// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme/palette.h"

#include <algorithm>
#include <array>

namespace Palette {

QColor seriesColor(int index, Background background)
{
    if (background == Background::Dark) {
        static const std::array<QColor, 8> onDark{
            QColor(0x3C, 0x9A, 0xDE), // blue, lifted: the original is too dark on dark grey
            QColor(0xE6, 0x9F, 0x00), // orange
            QColor(0x1F, 0xB5, 0x8A), // bluish green
            QColor(0xF0, 0x73, 0x2A), // vermillion
            QColor(0xCC, 0x79, 0xA7), // reddish purple
            QColor(0x56, 0xB4, 0xE9), // sky blue
            QColor(0xF0, 0xE4, 0x42), // yellow
            QColor(0xD0, 0xD4, 0xDA), // light grey in place of black
        };
        return onDark[std::size_t(index) % onDark.size()];
    }
    static const std::array<QColor, 8> colors{
        QColor(0x00, 0x72, 0xB2), // blue
        QColor(0xE6, 0x9F, 0x00), // orange
        QColor(0x00, 0x9E, 0x73), // bluish green
        QColor(0xD5, 0x5E, 0x00), // vermillion
        QColor(0xCC, 0x79, 0xA7), // reddish purple
        QColor(0x56, 0xB4, 0xE9), // sky blue
        QColor(0xB8, 0xA9, 0x00), // yellow, darkened for contrast on white
        QColor(0x33, 0x33, 0x33), // near black
    };
    return colors[std::size_t(index) % colors.size()];
}

QColor resolve(const QString &color, int index, Background background)
{
    const QColor parsed = QColor::fromString(color);
    if (!parsed.isValid())
        return seriesColor(index, background);
    // A dashboard written for a light background often draws set-points and limits in
    // black, which would vanish on the dark panel: too dark a colour is mirrored in
    // lightness (black becomes light grey), keeping its hue.
    constexpr int kDarkestReadableOnDark = 60; // black and near black; the Okabe–Ito colours are above
    if (background == Background::Dark && parsed.lightness() < kDarkestReadableOnDark) {
        const QColor hsl = parsed.toHsl();
        return QColor::fromHsl(hsl.hslHue(), hsl.hslSaturation(), std::min(215, 255 - hsl.lightness()));
    }
    // And the other way round: Grafana's yellow (#FADE2A) on a white card is a number nobody
    // can read. Too bright a colour is darkened, keeping its hue.
    constexpr double kBrightestReadableOnLight = 0.7; // Rec. 709 luma; Grafana's green is below
    const double luma = 0.2126 * parsed.redF() + 0.7152 * parsed.greenF() + 0.0722 * parsed.blueF();
    if (background == Background::Light && luma > kBrightestReadableOnLight)
        return parsed.darker(150);
    return parsed;
}

QColor annotationColor(Annotation::Source source, bool failed, Background background)
{
    const bool dark = background == Background::Dark;
    if (failed)
        return dark ? QColor(0xFF, 0x6B, 0x6B) : QColor(0xC6, 0x28, 0x28);
    switch (source) {
    case Annotation::Source::Action:
        return dark ? QColor(0xF0, 0x73, 0x2A) : QColor(0xD5, 0x5E, 0x00); // vermillion
    case Annotation::Source::Scenario:
        return dark ? QColor(0xC0, 0x7F, 0xD0) : QColor(0x88, 0x3D, 0x8F); // purple
    case Annotation::Source::Detector:
        return dark ? QColor(0x1F, 0xB5, 0x8A) : QColor(0x00, 0x9E, 0x73); // bluish green
    case Annotation::Source::Kubernetes:
        return dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x72, 0xB2); // blue: the cluster
    case Annotation::Source::Query:
        return dark ? QColor(0xE0, 0x9C, 0xC4) : QColor(0xA8, 0x4E, 0x86); // reddish purple: from the data
    case Annotation::Source::Manual:
        break;
    }
    // What people wrote: slate on light, near white on dark.
    return dark ? QColor(0xDD, 0xE2, 0xE8) : QColor(0x2F, 0x3A, 0x4A);
}

} // namespace Palette
