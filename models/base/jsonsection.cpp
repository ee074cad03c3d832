// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/jsonsection.h"

#include "base/durationgrammar.h"

#include <QJsonArray>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <vector>

namespace {

int editDistance(const QString &a, const QString &b)
{
    std::vector<int> previous(static_cast<std::size_t>(b.size()) + 1);
    std::vector<int> current(previous.size());
    for (std::size_t j = 0; j < previous.size(); ++j)
        previous[j] = static_cast<int>(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = static_cast<int>(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int substitution = a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1;
            const auto uj = static_cast<std::size_t>(j);
            current[uj] = std::min({previous[uj] + 1, current[uj - 1] + 1, previous[uj - 1] + substitution});
        }
        std::swap(previous, current);
    }
    return previous.back();
}

} // namespace

QString JsonSection::join(const QString &base, const QString &key)
{
    return base.isEmpty() ? key : base + QLatin1Char('.') + key;
}

QString JsonSection::index(const QString &base, qsizetype index)
{
    return base + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

QString JsonSection::describe(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    case QJsonValue::Double:
        return QString::number(value.toDouble());
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

QJsonObject JsonSection::checkKeys(const QJsonObject &object, const QString &path, Keys known)
{
    QJsonObject unknown;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = it.key();
        const bool isKnown =
            std::any_of(known.begin(), known.end(), [&](const char *k) { return key == QLatin1String(k); });
        if (isKnown)
            continue;
        unknown.insert(key, it.value());
        QString closest;
        int closestDistance = 3; // suggest only when at most two edits away
        QStringList names;
        for (const char *k : known) {
            const QString name = QLatin1String(k);
            names.append(name);
            // The distance is at least the length difference: a long unknown key (a typo is
            // never one) cannot be close, and its O(n*m) distance is not worth computing.
            if (std::abs(key.size() - name.size()) >= closestDistance)
                continue;
            const int distance = editDistance(key, name);
            if (distance < closestDistance) {
                closestDistance = distance;
                closest = name;
            }
        }
        issue(join(path, key),
              closest.isEmpty()
                  ? QStringLiteral("unknown key, ignored (known keys: %1)").arg(names.join(QStringLiteral(", ")))
                  : QStringLiteral("unknown key, ignored (did you mean \"%1\"?)").arg(closest));
    }
    return unknown;
}

std::optional<QString> JsonSection::readString(const QJsonObject &object, const QString &path, const QString &key)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return std::nullopt;
    if (!value.isString()) {
        issue(join(path, key), QStringLiteral("must be a string"));
        return std::nullopt;
    }
    return value.toString();
}

std::optional<qint64> JsonSection::readDuration(const QJsonObject &object, const QString &path, const QString &key)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return std::nullopt;
    qint64 ms = -1;
    if (value.isString()) {
        ms = DurationGrammar::parseMs(value.toString());
    } else if (value.isDouble()) {
        const double seconds = value.toDouble();
        if (seconds >= 0 && seconds * 1000.0 <= static_cast<double>(kMaxDurationMs))
            ms = std::llround(seconds * 1000.0);
    }
    if (ms < 0) {
        issue(join(path, key), value.isString() || value.isDouble()
                                   ? QStringLiteral("%1 is not a duration").arg(describe(value))
                                   : QStringLiteral("must be a duration such as \"30s\" or \"5m\""));
        return std::nullopt;
    }
    return ms;
}

std::optional<qint64> JsonSection::offsetOf(const QJsonValue &value)
{
    QString text;
    if (value.isDouble())
        text = QString::number(value.toDouble());
    else if (value.isString())
        text = value.toString().trimmed();
    else
        return std::nullopt;
    if (text.startsWith(QLatin1Char('+')))
        text.remove(0, 1);
    const qint64 ms = DurationGrammar::parseMs(text);
    if (ms < 0)
        return std::nullopt;
    return ms;
}

QStringList JsonSection::readStrings(const QJsonObject &object, const QString &path, const QString &key,
                                     const QString &what)
{
    const QJsonValue value = object.value(key);
    const QString keyPath = join(path, key);
    if (value.isUndefined())
        return {};
    if (!value.isArray()) {
        issue(keyPath, QStringLiteral("must be an array of %1").arg(what));
        return {};
    }
    QStringList strings;
    const QJsonArray items = value.toArray();
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QString text = items[i].toString().trimmed();
        if (items[i].isString() && !text.isEmpty())
            strings << text;
        else
            issue(index(keyPath, i), QStringLiteral("%1 is not one of the %2").arg(describe(items[i]), what));
    }
    return strings;
}
