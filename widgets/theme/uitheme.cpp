// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme/uitheme.h"

#include <QApplication>
#include <QHash>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace {

QPalette paletteFor(const UiTheme::Colors &c, bool dark)
{
    QPalette p;
    p.setColor(QPalette::Window, c.window);
    p.setColor(QPalette::WindowText, c.text);
    p.setColor(QPalette::Base, c.panel);
    p.setColor(QPalette::AlternateBase, dark ? QColor(0x2C, 0x31, 0x39) : QColor(0xF6, 0xF7, 0xF9));
    p.setColor(QPalette::ToolTipBase, dark ? QColor(0x33, 0x38, 0x41) : QColor(0xFF, 0xFF, 0xF2));
    p.setColor(QPalette::ToolTipText, c.text);
    p.setColor(QPalette::PlaceholderText, c.muted);
    p.setColor(QPalette::Text, c.text);
    p.setColor(QPalette::Button, dark ? QColor(0x30, 0x35, 0x3D) : QColor(0xF0, 0xF1, 0xF3));
    p.setColor(QPalette::ButtonText, c.text);
    p.setColor(QPalette::BrightText, dark ? QColor(0xFF, 0x8A, 0x80) : QColor(0xB0, 0x00, 0x20));
    p.setColor(QPalette::Highlight, dark ? QColor(0x2F, 0x6F, 0xAE) : QColor(0x00, 0x72, 0xB2));
    p.setColor(QPalette::HighlightedText, QColor(0xFF, 0xFF, 0xFF));
    p.setColor(QPalette::Link, dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x5A, 0x9C));
    p.setColor(QPalette::Light, dark ? QColor(0x4A, 0x50, 0x5A) : QColor(0xFF, 0xFF, 0xFF));
    p.setColor(QPalette::Midlight, dark ? QColor(0x3A, 0x3F, 0x48) : QColor(0xE3, 0xE6, 0xEA));
    p.setColor(QPalette::Mid, c.panelBorder);
    p.setColor(QPalette::Dark, dark ? QColor(0x14, 0x16, 0x1A) : QColor(0xA0, 0xA6, 0xAF));
    p.setColor(QPalette::Shadow, QColor(0, 0, 0));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, c.muted);
    return p;
}

// Widget classes the platform theme may give palettes of their own (QPlatformTheme's
// MenuBarPalette, ComboBoxPalette, ...). Those win over the application palette, so a theme
// must set them too, or a dark window keeps a light menu bar.
const char *const kThemedClasses[] = {
    "QMenuBar",        "QMenu",  "QComboBox", "QAbstractItemView", "QHeaderView", "QTabBar",         "QToolButton",
    "QAbstractButton", "QLabel", "QGroupBox", "QLineEdit",         "QTextEdit",   "QMessageBoxLabel"};

void setPaletteEverywhere(const QPalette &palette, const QHash<QByteArray, QPalette> &perClass = {})
{
    QApplication::setPalette(palette);
    for (const char *name : kThemedClasses)
        QApplication::setPalette(perClass.value(name, palette), name);
}

} // namespace

UiTheme::UiTheme()
{
    m_systemStyle = QApplication::style() ? QApplication::style()->name() : QString();
    m_dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    m_colors = m_dark ? darkColors() : lightColors();
}

UiTheme *UiTheme::instance()
{
    // Created on first use, after the QApplication: it reads the platform's palette.
    static UiTheme *theme = new UiTheme;
    return theme;
}

void UiTheme::apply(Choice choice)
{
    // What the platform gave, before our first override.
    static const QPalette systemPalette = QApplication::palette();
    static const QHash<QByteArray, QPalette> systemClassPalettes = [] {
        QHash<QByteArray, QPalette> palettes;
        for (const char *name : kThemedClasses)
            palettes.insert(name, QApplication::palette(name));
        return palettes;
    }();
    m_choice = choice;
    switch (choice) {
    case Choice::System:
        if (!m_systemStyle.isEmpty() && QApplication::style()->name() != m_systemStyle)
            QApplication::setStyle(QStyleFactory::create(m_systemStyle));
        setPaletteEverywhere(systemPalette, systemClassPalettes);
        m_dark = systemPalette.color(QPalette::Window).lightness() < 128;
        m_colors = m_dark ? darkColors() : lightColors();
        break;
    case Choice::Light:
    case Choice::Dark:
        m_dark = choice == Choice::Dark;
        m_colors = m_dark ? darkColors() : lightColors();
        if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
            QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        setPaletteEverywhere(paletteFor(m_colors, m_dark));
        break;
    }
    emit changed();
}

QString UiTheme::choiceName(Choice choice)
{
    switch (choice) {
    case Choice::System:
        return QStringLiteral("system");
    case Choice::Light:
        return QStringLiteral("light");
    case Choice::Dark:
        return QStringLiteral("dark");
    }
    return {};
}

std::optional<UiTheme::Choice> UiTheme::choiceFromName(const QString &name)
{
    for (Choice choice : {Choice::System, Choice::Light, Choice::Dark}) {
        if (name.compare(choiceName(choice), Qt::CaseInsensitive) == 0)
            return choice;
    }
    return std::nullopt;
}

UiTheme::Colors UiTheme::lightColors()
{
    Colors c;
    c.window = QColor(0xF2, 0xF4, 0xF7);
    c.panel = QColor(0xFF, 0xFF, 0xFF);
    c.panelBorder = QColor(0xD9, 0xDD, 0xE3);
    c.grid = QColor(0xE4, 0xE7, 0xEB);
    c.axisText = QColor(0x55, 0x5B, 0x66);
    c.text = QColor(0x22, 0x28, 0x30);
    c.muted = QColor(0x7A, 0x80, 0x8A);
    c.crosshair = QColor(0x6E, 0x75, 0x80);
    c.zoomBand = QColor(0, 114, 178, 40);
    c.labelBackground = QColor(255, 255, 255, 235);
    c.labelBorder = QColor(0xC9, 0xCE, 0xD6);
    c.error = QColor(0xB0, 0x00, 0x20);
    c.warning = QColor(0xB0, 0x3A, 0x00);
    c.ok = QColor(0x00, 0x73, 0x4F);
    c.bannerBackground = QColor(0xFF, 0xF4, 0xE0);
    c.bannerText = QColor(0x6B, 0x3E, 0x00);
    c.bannerBorder = QColor(0xE6, 0xB8, 0x66);
    return c;
}

UiTheme::Colors UiTheme::darkColors()
{
    // Not inverted light: a blue-grey dark with enough contrast for thin lines (WCAG AA for
    // the text colours on the panel colour), and signal colours lifted so that they read on it.
    Colors c;
    c.window = QColor(0x17, 0x1A, 0x1F);
    c.panel = QColor(0x22, 0x26, 0x2D);
    c.panelBorder = QColor(0x38, 0x3D, 0x46);
    c.grid = QColor(0x33, 0x38, 0x41);
    c.axisText = QColor(0xA9, 0xB0, 0xBA);
    c.text = QColor(0xE3, 0xE6, 0xEA);
    c.muted = QColor(0x8C, 0x93, 0x9E);
    c.crosshair = QColor(0xA0, 0xA7, 0xB1);
    c.zoomBand = QColor(86, 180, 233, 55);
    c.labelBackground = QColor(0x2B, 0x30, 0x38, 235);
    c.labelBorder = QColor(0x4A, 0x50, 0x5A);
    c.error = QColor(0xFF, 0x6B, 0x6B);
    c.warning = QColor(0xF0, 0xA0, 0x50);
    c.ok = QColor(0x4C, 0xC3, 0x8A);
    c.bannerBackground = QColor(0x3A, 0x2E, 0x14);
    c.bannerText = QColor(0xF5, 0xD9, 0xA8);
    c.bannerBorder = QColor(0x7A, 0x5A, 0x20);
    return c;
}
