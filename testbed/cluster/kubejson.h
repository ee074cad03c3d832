// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

// Small helpers for Kubernetes objects held as JSON: dotted paths, timestamps as the API
// writes them, names.
namespace KubeJson {

// "spec.template.spec" -> the value there (Undefined when a step is missing).
QJsonValue at(const QJsonObject &object, const QString &dottedPath);
// Sets the value at a dotted path, creating the objects on the way.
void set(QJsonObject &object, const QString &dottedPath, const QJsonValue &value);

QString timestamp(const QDateTime &utc); // RFC 3339, seconds: "2026-08-06T14:15:39Z"
QString now();
QDateTime parseTimestamp(const QString &text);

QString newUid();
// A random suffix in the alphabet Kubernetes uses for generated names (no vowels).
QString randomSuffix(int length = 5);
// The pod-template-hash of a template: FNV-1a over its JSON, spelled in that alphabet.
QString templateHash(const QJsonObject &podTemplate);

// Kubernetes' short human durations ("5m3s", "2d4h"), as kubectl's AGE column shows them.
QString humanDuration(qint64 seconds);

QByteArray compact(const QJsonObject &object);
QByteArray compact(const QJsonArray &array);

} // namespace KubeJson
