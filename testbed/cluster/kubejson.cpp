// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubejson.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QUuid>

namespace KubeJson {
namespace {

const char safeAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
constexpr int safeAlphabetSize = sizeof(safeAlphabet) - 1;

} // namespace

QJsonValue at(const QJsonObject &object, const QString &dottedPath)
{
    QJsonValue value = object;
    for (const QString &step : dottedPath.split(QLatin1Char('.'))) {
        if (!value.isObject())
            return QJsonValue(QJsonValue::Undefined);
        value = value.toObject().value(step);
    }
    return value;
}

void set(QJsonObject &object, const QString &dottedPath, const QJsonValue &value)
{
    const qsizetype dot = dottedPath.indexOf(QLatin1Char('.'));
    if (dot < 0) {
        object.insert(dottedPath, value);
        return;
    }
    const QString head = dottedPath.left(dot);
    QJsonObject child = object.value(head).toObject();
    set(child, dottedPath.mid(dot + 1), value);
    object.insert(head, child);
}

QString timestamp(const QDateTime &utc)
{
    return utc.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")) + QLatin1Char('Z');
}

QString now()
{
    return timestamp(QDateTime::currentDateTimeUtc());
}

QDateTime parseTimestamp(const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODate);
    time.setTimeSpec(Qt::UTC);
    return time;
}

QString newUid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString randomSuffix(int length)
{
    QString suffix;
    for (int i = 0; i < length; ++i)
        suffix += QLatin1Char(safeAlphabet[QRandomGenerator::global()->bounded(safeAlphabetSize)]);
    return suffix;
}

QString templateHash(const QJsonObject &podTemplate)
{
    quint32 hash = 2166136261u;
    for (const char c : QJsonDocument(podTemplate).toJson(QJsonDocument::Compact)) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 16777619u;
    }
    // As rand.SafeEncodeString does with the decimal digits of the hash.
    QString encoded;
    for (const QChar c : QString::number(hash))
        encoded += QLatin1Char(safeAlphabet[c.unicode() % safeAlphabetSize]);
    return encoded;
}

QString humanDuration(qint64 seconds)
{
    if (seconds < -1)
        return QStringLiteral("<invalid>");
    if (seconds < 0)
        return QStringLiteral("0s");
    if (seconds < 120)
        return QStringLiteral("%1s").arg(seconds);
    const qint64 minutes = seconds / 60;
    if (minutes < 10) {
        const qint64 rest = seconds % 60;
        return rest == 0 ? QStringLiteral("%1m").arg(minutes) : QStringLiteral("%1m%2s").arg(minutes).arg(rest);
    }
    if (minutes < 180)
        return QStringLiteral("%1m").arg(minutes);
    const qint64 hours = seconds / 3600;
    if (hours < 8) {
        const qint64 rest = minutes % 60;
        return rest == 0 ? QStringLiteral("%1h").arg(hours) : QStringLiteral("%1h%2m").arg(hours).arg(rest);
    }
    if (hours < 48)
        return QStringLiteral("%1h").arg(hours);
    if (hours < 24LL * 8) {
        const qint64 rest = hours % 24;
        return rest == 0 ? QStringLiteral("%1d").arg(hours / 24) : QStringLiteral("%1d%2h").arg(hours / 24).arg(rest);
    }
    if (hours < 24LL * 365 * 2)
        return QStringLiteral("%1d").arg(hours / 24);
    if (hours < 24LL * 365 * 8) {
        const qint64 rest = (hours / 24) % 365;
        return rest == 0 ? QStringLiteral("%1y").arg(hours / 24 / 365)
                         : QStringLiteral("%1y%2d").arg(hours / 24 / 365).arg(rest);
    }
    return QStringLiteral("%1y").arg(hours / 24 / 365);
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray compact(const QJsonArray &array)
{
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

} // namespace KubeJson
