// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless/screenshot.h"

#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QWidget>

Result<QString> saveScreenshot(QWidget *widget, const QString &path)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create the folder %1").arg(info.absolutePath()));
    const QPixmap pixmap = widget->grab();
    if (!pixmap.save(info.absoluteFilePath(), "PNG"))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot write the screenshot to %1").arg(info.absoluteFilePath()));
    return info.absoluteFilePath();
}
