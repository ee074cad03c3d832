// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobrequests.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QSet>
#include <cmath>

namespace JobRequests {
namespace {

constexpr qsizetype maxBodyBytes = 16LL * 1024;

// Reads a JSON object body; a message when it is not one.
std::optional<QJsonObject> readObject(const QByteArray &contentType, const QByteArray &body, bool emptyAllowed,
                                      QString *error)
{
    if (body.size() > maxBodyBytes) {
        *error = QStringLiteral("the body is over %1 bytes").arg(maxBodyBytes);
        return std::nullopt;
    }
    if (body.trimmed().isEmpty() && emptyAllowed)
        return QJsonObject();
    const QByteArray mediaType = contentType.split(';').first().trimmed().toLower();
    if (mediaType != "application/json") {
        *error =
            QStringLiteral("Content-Type must be application/json, got '%1'").arg(QString::fromLatin1(contentType));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = parseError.error != QJsonParseError::NoError
                     ? QStringLiteral("the body is not JSON: %1").arg(parseError.errorString())
                     : QStringLiteral("the body must be a JSON object");
        return std::nullopt;
    }
    return document.object();
}

bool checkFields(const QJsonObject &object, const QSet<QString> &known, QString *error)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!known.contains(it.key())) {
            *error = QStringLiteral("unknown field '%1'").arg(it.key());
            return false;
        }
    }
    return true;
}

bool readType(const QJsonObject &object, QString *type, QString *error)
{
    const QJsonValue value = object.value(QStringLiteral("type"));
    if (!value.isString() || value.toString().trimmed().isEmpty()) {
        *error = QStringLiteral("'type' (the job type) must be a non-empty string");
        return false;
    }
    *type = value.toString().trimmed();
    return true;
}

QString readWorker(const QJsonObject &object)
{
    const QString worker = object.value(QStringLiteral("worker")).toString().trimmed();
    return worker.isEmpty() ? QStringLiteral("default") : worker.left(200);
}

// A whole number in [min, max]; `fallback` when absent and not required.
bool readInteger(const QJsonObject &object, const QString &key, bool required, double min, double max, double fallback,
                 double *out, QString *error)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() && !required) {
        *out = fallback;
        return true;
    }
    const double number = value.toDouble(std::nan(""));
    if (!value.isDouble() || !std::isfinite(number) || number != std::floor(number) || number < min || number > max) {
        *error = QStringLiteral("'%1' must be a whole number from %2 to %3")
                     .arg(key)
                     .arg(min, 0, 'f', 0)
                     .arg(max, 0, 'f', 0);
        return false;
    }
    *out = number;
    return true;
}

} // namespace

Parsed<Activation> parseActivation(const QByteArray &contentType, const QByteArray &body)
{
    Parsed<Activation> parsed;
    const std::optional<QJsonObject> object = readObject(contentType, body, false, &parsed.error);
    if (!object || !checkFields(*object,
                                {QStringLiteral("type"), QStringLiteral("worker"), QStringLiteral("timeout"),
                                 QStringLiteral("maxJobsToActivate"), QStringLiteral("requestTimeout"),
                                 QStringLiteral("fetchVariable"), QStringLiteral("tenantIds")},
                                &parsed.error))
        return parsed;
    Activation activation;
    double max = 0;
    double timeout = 0;
    double requestTimeout = 0;
    if (!readType(*object, &activation.type, &parsed.error) ||
        !readInteger(*object, QStringLiteral("maxJobsToActivate"), true, 1, maxJobsPerRequest, 0, &max,
                     &parsed.error) ||
        !readInteger(*object, QStringLiteral("timeout"), true, 1, maxTimeoutSeconds * 1000, 0, &timeout,
                     &parsed.error) ||
        !readInteger(*object, QStringLiteral("requestTimeout"), false, 0, maxRequestTimeoutSeconds * 1000, 0,
                     &requestTimeout, &parsed.error))
        return parsed;
    activation.worker = readWorker(*object);
    activation.maxJobsToActivate = static_cast<int>(max);
    activation.timeoutSeconds = timeout / 1000.0;
    activation.requestTimeoutSeconds = requestTimeout / 1000.0;
    parsed.value = activation;
    return parsed;
}

Parsed<Stream> parseStream(const QByteArray &contentType, const QByteArray &body)
{
    Parsed<Stream> parsed;
    const std::optional<QJsonObject> object = readObject(contentType, body, false, &parsed.error);
    if (!object || !checkFields(*object,
                                {QStringLiteral("type"), QStringLiteral("worker"), QStringLiteral("timeout"),
                                 QStringLiteral("capacity")},
                                &parsed.error))
        return parsed;
    Stream stream;
    double capacity = 0;
    double timeout = 0;
    if (!readType(*object, &stream.type, &parsed.error) ||
        !readInteger(*object, QStringLiteral("capacity"), true, 1, maxJobsPerRequest, 0, &capacity, &parsed.error) ||
        !readInteger(*object, QStringLiteral("timeout"), true, 1, maxTimeoutSeconds * 1000, 0, &timeout, &parsed.error))
        return parsed;
    stream.worker = readWorker(*object);
    stream.capacity = static_cast<int>(capacity);
    stream.timeoutSeconds = timeout / 1000.0;
    parsed.value = stream;
    return parsed;
}

Parsed<Completion> parseCompletion(const QByteArray &contentType, const QByteArray &body)
{
    Parsed<Completion> parsed;
    const std::optional<QJsonObject> object = readObject(contentType, body, true, &parsed.error);
    if (!object ||
        !checkFields(*object, {QStringLiteral("activation"), QStringLiteral("variables"), QStringLiteral("result")},
                     &parsed.error))
        return parsed;
    Completion completion;
    const QJsonValue activation = object->value(QStringLiteral("activation"));
    if (!activation.isUndefined()) {
        const std::optional<quint64> key = parseKey(activation.toString());
        if (!key) {
            parsed.error = QStringLiteral("'activation' must be the activation's key as a string "
                                          "of digits");
            return parsed;
        }
        completion.activation = key;
    }
    parsed.value = completion;
    return parsed;
}

std::optional<quint64> parseKey(const QString &text)
{
    if (text.isEmpty() || text.size() > 19)
        return std::nullopt;
    for (const QChar c : text)
        if (!c.isDigit())
            return std::nullopt;
    bool ok = false;
    const quint64 key = text.toULongLong(&ok);
    return ok && key > 0 ? std::optional<quint64>(key) : std::nullopt;
}

} // namespace JobRequests
