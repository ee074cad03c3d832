// SPDX-License-Identifier: GPL-3.0-or-later
#include "adminrequestparser.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QList>
#include <cmath>
#include <google/protobuf/util/json_util.h>
#include <limits>

using Problem = AdminRequestParser::Problem;

Problem AdminRequestParser::problem(int status, const char *kind, const QString &title, const QString &detail)
{
    Problem p;
    p.set_type(std::string("urn:chaoscope:problem:") + kind);
    p.set_title(title.toStdString());
    p.set_status(status);
    p.set_detail(detail.toStdString());
    return p;
}

Problem AdminRequestParser::invalidInput(const QString &detail)
{
    return problem(400, "invalid-input", QStringLiteral("Invalid input"), detail);
}

std::optional<Problem> AdminRequestParser::checkBodySize(const QByteArray &body)
{
    if (body.size() > maxBodyBytes) {
        return problem(
            400, "body-too-large", QStringLiteral("Body too large"),
            QStringLiteral("the body has %1 bytes; at most %2 are accepted").arg(body.size()).arg(maxBodyBytes));
    }
    return std::nullopt;
}

std::optional<Problem> AdminRequestParser::checkJsonBody(const QByteArray &contentType, const QByteArray &body)
{
    if (auto tooLarge = checkBodySize(body))
        return tooLarge;
    const QByteArray mediaType = contentType.split(';').value(0).trimmed().toLower();
    if (mediaType != "application/json") {
        return problem(400, "unsupported-content-type", QStringLiteral("Unsupported content type"),
                       QStringLiteral("the body must be sent as Content-Type: application/json, "
                                      "not '%1'")
                           .arg(QString::fromLatin1(contentType.left(100))));
    }
    return std::nullopt;
}

std::optional<Problem> AdminRequestParser::parseJson(const QByteArray &contentType, const QByteArray &body,
                                                     const char *field, google::protobuf::Message *message)
{
    if (auto bad = checkJsonBody(contentType, body))
        return bad;
    const QString expected = QStringLiteral("expected e.g. {\"%1\": 500}").arg(QLatin1String(field));
    if (body.trimmed().isEmpty())
        return invalidInput(QStringLiteral("the body is empty; ") + expected);

    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    const auto status = google::protobuf::util::JsonStringToMessage(
        std::string(body.constData(), static_cast<std::size_t>(body.size())), message, options);
    if (!status.ok()) {
        return invalidInput(
            QStringLiteral("%1 (%2)").arg(QString::fromStdString(std::string(status.message())), expected));
    }
    QJsonParseError error{};
    const QJsonValue value = QJsonDocument::fromJson(body, &error).object().value(QLatin1String(field));
    if (error.error != QJsonParseError::NoError || value.isUndefined() || value.isNull())
        return invalidInput(QStringLiteral("the field '%1' is missing; ").arg(QLatin1String(field)) + expected);
    return std::nullopt;
}

AdminRequestParser::Parsed<double> AdminRequestParser::parseRate(const QByteArray &contentType, const QByteArray &body,
                                                                 double maxRate)
{
    chaoscope::admin::v1::SetRateRequest request;
    if (auto bad = parseJson(contentType, body, "rate", &request))
        return {std::nullopt, *bad};
    const double rate = request.rate();
    // The proto3 JSON mapping reads "NaN" and "Infinity" as doubles: refuse them here.
    if (!std::isfinite(rate))
        return {std::nullopt, invalidInput(QStringLiteral("the rate must be a finite number"))};
    if (rate < 0)
        return {std::nullopt, invalidInput(QStringLiteral("the rate must be >= 0, not %1").arg(rate))};
    if (rate > maxRate) {
        return {std::nullopt, invalidInput(QStringLiteral("the rate %1 is over the maximum of %2 per "
                                                          "second (--max-rate)")
                                               .arg(rate)
                                               .arg(maxRate))};
    }
    return {rate, {}};
}

AdminRequestParser::Parsed<qint32> AdminRequestParser::parseInflightLimit(const QByteArray &contentType,
                                                                          const QByteArray &body)
{
    chaoscope::admin::v1::SetInflightLimitRequest request;
    if (auto bad = parseJson(contentType, body, "limit", &request))
        return {std::nullopt, *bad};
    const qint32 limit = request.limit();
    if (limit < 0) {
        return {std::nullopt,
                invalidInput(QStringLiteral("the limit must be >= 1, or 0 for unlimited, not %1").arg(limit))};
    }
    return {limit, {}};
}

AdminRequestParser::Parsed<VersionMatch> AdminRequestParser::parseIfMatch(const QByteArray &header)
{
    VersionMatch match;
    const QByteArray trimmed = header.trimmed();
    if (trimmed.isEmpty() || trimmed == "*")
        return {match, {}};
    for (QByteArray item : trimmed.split(',')) {
        item = item.trimmed();
        if (item.startsWith("W/"))
            item = item.mid(2);
        if (item.size() >= 2 && item.startsWith('"') && item.endsWith('"'))
            item = item.mid(1, item.size() - 2);
        bool ok = false;
        const qint64 version = item.toLongLong(&ok);
        if (!ok || version < 0) {
            return {std::nullopt, invalidInput(QStringLiteral("If-Match must name a status version (e.g. \"7\"), "
                                                              "not '%1'")
                                                   .arg(QString::fromLatin1(header.left(100))))};
        }
        match.versions.append(version);
    }
    return {match, {}};
}
