// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

// The bodies of the engine's job endpoints, checked: what is wrong gets a message a worker's
// author can act on, and the request changes nothing.
//
// POST /v2/jobs/activation is Camunda's REST call (timeouts in milliseconds);
// POST /v2/jobs/stream stands in for the gRPC job stream (the same fields plus the worker's
// capacity, which gRPC's flow control tells the gateway); POST /v2/jobs/<key>/completion
// may name the activation it completes (a testbed extension, see testbed/README.md).
namespace JobRequests {

struct Activation
{
    QString type;
    QString worker;
    int maxJobsToActivate = 0;
    double timeoutSeconds = 0;
    double requestTimeoutSeconds = 0; // 0 = answer at once; > 0 = long polling
};

struct Stream
{
    QString type;
    QString worker;
    int capacity = 0;
    double timeoutSeconds = 0;
};

struct Completion
{
    std::optional<quint64> activation;
};

template<typename T> struct Parsed
{
    std::optional<T> value;
    QString error;
};

constexpr int maxJobsPerRequest = 10000;
constexpr double maxTimeoutSeconds = 24 * 3600;
constexpr double maxRequestTimeoutSeconds = 60;

Parsed<Activation> parseActivation(const QByteArray &contentType, const QByteArray &body);
Parsed<Stream> parseStream(const QByteArray &contentType, const QByteArray &body);
Parsed<Completion> parseCompletion(const QByteArray &contentType, const QByteArray &body);
// "2251799813685249" -> the key; empty for anything else.
std::optional<quint64> parseKey(const QString &text);

} // namespace JobRequests
