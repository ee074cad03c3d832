// SPDX-License-Identifier: GPL-3.0-or-later
#include "engineconfigpatch.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <cmath>

namespace {

const QString kWorkers = QStringLiteral("workers");
const QString kServiceTime = QStringLiteral("serviceTime");
const QString kExportRate = QStringLiteral("exportRate");
const QString kAcceptableBacklog = QStringLiteral("acceptableBacklog");

// Upper bounds keep a typo ("workers": 1e9) from turning into a hang or an overflow.
constexpr double kMaxWorkers = 100000;
constexpr double kMaxServiceTime = 3600;
constexpr double kMaxExportRate = 1e9;
constexpr double kMaxBacklog = 1e15;

struct NumberCheck
{
    double value = 0;
    QString error;
};

NumberCheck readNumber(const QJsonObject &object, const QString &key, double min, bool minExclusive, double max,
                       bool integral)
{
    const QJsonValue value = object.value(key);
    if (!value.isDouble())
        return {0, QStringLiteral("'%1' must be a number").arg(key)};
    const double number = value.toDouble();
    if (!std::isfinite(number))
        return {0, QStringLiteral("'%1' must be a finite number").arg(key)};
    if (integral && number != std::floor(number))
        return {0, QStringLiteral("'%1' must be a whole number, got %2").arg(key).arg(number)};
    const bool tooSmall = minExclusive ? number <= min : number < min;
    if (tooSmall) {
        return {0, QStringLiteral("'%1' must be %2 %3, got %4")
                       .arg(key, minExclusive ? QStringLiteral(">") : QStringLiteral(">="))
                       .arg(min)
                       .arg(number)};
    }
    if (number > max)
        return {0, QStringLiteral("'%1' must be at most %2, got %3").arg(key).arg(max).arg(number)};
    return {number, {}};
}

bool isJsonContentType(const QByteArray &contentType)
{
    // "application/json; charset=utf-8" is as good as "application/json".
    const QByteArray mediaType = contentType.split(';').first().trimmed().toLower();
    return mediaType == "application/json";
}

} // namespace

EngineConfigPatch::Parsed EngineConfigPatch::parse(const QByteArray &contentType, const QByteArray &body)
{
    if (!isJsonContentType(contentType)) {
        return {
            std::nullopt,
            QStringLiteral("Content-Type must be application/json, got '%1'").arg(QString::fromLatin1(contentType))};
    }
    if (body.size() > maxBodyBytes) {
        return {std::nullopt,
                QStringLiteral("the body has %1 bytes, at most %2 are accepted").arg(body.size()).arg(maxBodyBytes)};
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return {std::nullopt, QStringLiteral("the body is not JSON: %1").arg(parseError.errorString())};
    if (!document.isObject())
        return {std::nullopt, QStringLiteral("the body must be a JSON object")};

    const QJsonObject object = document.object();
    EngineConfigPatch patch;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = it.key();
        NumberCheck check;
        if (key == kWorkers) {
            check = readNumber(object, key, 0, false, kMaxWorkers, true);
            patch.workers = static_cast<int>(check.value);
        } else if (key == kServiceTime) {
            check = readNumber(object, key, 0, true, kMaxServiceTime, false);
            patch.serviceTimeSeconds = check.value;
        } else if (key == kExportRate) {
            check = readNumber(object, key, 0, false, kMaxExportRate, false);
            patch.exportRate = check.value;
        } else if (key == kAcceptableBacklog) {
            check = readNumber(object, key, 0, false, kMaxBacklog, true);
            patch.acceptableBacklog = static_cast<qint64>(check.value);
        } else {
            check.error = QStringLiteral("unknown field '%1' (known: %2, %3, %4, %5)")
                              .arg(key, kWorkers, kServiceTime, kExportRate, kAcceptableBacklog);
        }
        if (!check.error.isEmpty())
            return {std::nullopt, check.error};
    }
    return {patch, {}};
}

QStringList EngineConfigPatch::describeChanges(const EngineConfig &before) const
{
    QStringList changes;
    auto describe = [&changes](const QString &name, auto oldValue, auto newValue) {
        if (oldValue != newValue)
            changes << QStringLiteral("%1 %2 -> %3").arg(name).arg(oldValue).arg(newValue);
    };
    if (workers)
        describe(kWorkers, before.workers, *workers);
    if (serviceTimeSeconds)
        describe(kServiceTime, before.serviceTimeSeconds, *serviceTimeSeconds);
    if (exportRate)
        describe(kExportRate, before.exportRate, *exportRate);
    if (acceptableBacklog)
        describe(kAcceptableBacklog, before.acceptableBacklog, *acceptableBacklog);
    return changes;
}
