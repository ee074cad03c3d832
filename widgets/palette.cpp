// SPDX-License-Identifier: GPL-3.0-or-later
#include "palette.h"

#include <array>

namespace Palette {

QColor seriesColor(int index)
{
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

QColor resolve(const QString &color, int index)
{
    const QColor parsed = QColor::fromString(color);
    return parsed.isValid() ? parsed : seriesColor(index);
}

QColor annotationColor(Annotation::Source source, bool failed)
{
    if (failed)
        return QColor(0xC6, 0x28, 0x28);
    switch (source) {
    case Annotation::Source::Action: return QColor(0xD5, 0x5E, 0x00);   // vermillion
    case Annotation::Source::Scenario: return QColor(0x88, 0x3D, 0x8F); // purple
    case Annotation::Source::Detector: return QColor(0x00, 0x9E, 0x73); // bluish green
    case Annotation::Source::Manual: break;
    }
    return QColor(0x2F, 0x3A, 0x4A); // slate: what people wrote
}

} // namespace Palette
