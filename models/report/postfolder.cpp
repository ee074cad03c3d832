// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/postfolder.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace PostFolder {

namespace {

QByteArray digest(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QByteArray recordedDigest(const QDir &dir)
{
    QFile file(dir.filePath(QLatin1String(kRecord)));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.read(qint64(64) * 1024))
        .object()
        .value(QStringLiteral("index.md"))
        .toString()
        .toLatin1();
}

Result<bool> save(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Error::make(Error::Kind::Io, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

} // namespace

bool isUntouched(const QString &folder)
{
    const QDir dir(folder);
    QFile index(dir.filePath(QLatin1String(kIndex)));
    if (!index.open(QIODevice::ReadOnly))
        return false;
    const QByteArray recorded = recordedDigest(dir);
    return !recorded.isEmpty() && recorded == digest(index.readAll());
}

Result<Written> writeIndex(const QString &folder, const QString &markdown)
{
    QDir dir(folder);
    if (!dir.exists() && !QDir().mkpath(folder))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create the folder %1").arg(folder));
    const QByteArray bytes = markdown.toUtf8();
    const QString index = dir.filePath(QLatin1String(kIndex));
    Written written;
    written.path = index;
    if (QFile::exists(index) && !isUntouched(folder)) {
        written.path = dir.filePath(QLatin1String(kNewIndex));
        written.keptEdited = true;
        if (const Result<bool> saved = save(written.path, bytes); !saved)
            return saved.error();
        written.path = QFileInfo(written.path).absoluteFilePath();
        return written;
    }
    if (const Result<bool> saved = save(index, bytes); !saved)
        return saved.error();
    const QJsonObject record{{QStringLiteral("index.md"), QString::fromLatin1(digest(bytes))},
                             {QStringLiteral("note"), QStringLiteral("Chaoscope's record of the draft it wrote last: "
                                                                     "once index.md differs, it is left as it is")}};
    if (const Result<bool> saved = save(dir.filePath(QLatin1String(kRecord)), QJsonDocument(record).toJson()); !saved)
        return saved.error();
    written.path = QFileInfo(written.path).absoluteFilePath();
    return written;
}

} // namespace PostFolder
