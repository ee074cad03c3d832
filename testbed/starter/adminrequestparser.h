// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadsettings.h"
#include "loadtester.pb.h"

#include <QByteArray>
#include <QString>
#include <optional>

// The admin API's input rules (docs/admin-api.md), as pure functions: a value, or the
// problem+json answer that explains to the client what was wrong. Nothing here changes state.
class AdminRequestParser
{
public:
    using Problem = chaoscope::admin::v1::Problem;

    template<typename T> struct Parsed
    {
        std::optional<T> value;
        Problem problem; // set when value is empty

        bool ok() const { return value.has_value(); }
    };

    static constexpr qsizetype maxBodyBytes = 4096;

    // Size and content type of a body that must be JSON.
    static std::optional<Problem> checkJsonBody(const QByteArray &contentType, const QByteArray &body);
    static std::optional<Problem> checkBodySize(const QByteArray &body);

    // {"rate": <number>}: finite, >= 0, <= maxRate.
    static Parsed<double> parseRate(const QByteArray &contentType, const QByteArray &body, double maxRate);
    // {"limit": <integer>}: >= 0 (0 = unlimited).
    static Parsed<qint32> parseInflightLimit(const QByteArray &contentType, const QByteArray &body);
    // If-Match: 7, "7", W/"7", a comma-separated list of those, or *. Empty = no precondition.
    static Parsed<VersionMatch> parseIfMatch(const QByteArray &header);

    // type is "urn:chaoscope:problem:<kind>", so a client can branch on it.
    static Problem problem(int status, const char *kind, const QString &title, const QString &detail);
    static Problem invalidInput(const QString &detail);

private:
    // Parses `body` into `message` by the proto3 JSON mapping, rejecting unknown fields, and
    // requires `field` to be present and not null (proto3 cannot tell a missing 0 apart, and
    // {} must not silently mean "rate 0").
    static std::optional<Problem> parseJson(const QByteArray &contentType, const QByteArray &body, const char *field,
                                            google::protobuf::Message *message);
};
