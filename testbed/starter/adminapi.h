// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bearertoken.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>
#include <functional>

class LatencyHistogram;
class LoadControl;
struct LoadCounters;
class StarterMetrics;

namespace chaoscope::admin::v1 {
class LoadStatus;
class Problem;
} // namespace chaoscope::admin::v1

// An HTTP request as the admin API sees it: what a transport (QHttpServer, a test) hands in.
struct AdminRequest
{
    QByteArray method; // "GET", "PUT", ...
    QByteArray path;
    QByteArray contentType;
    QByteArray accept;
    QByteArray authorization;
    QByteArray ifMatch;
    QByteArray body;
};

struct AdminResponse
{
    int status = 200;
    QByteArray contentType;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; // besides Content-Type
};

// The starter's HTTP endpoints (docs/admin-api.md), independent of any server class so that
// every rule can be tested without a socket: routing, authentication, validation, If-Match,
// content negotiation (JSON by the proto3 mapping, or protobuf binary), problem+json errors.
class AdminApi
{
public:
    struct Identity
    {
        QString instance;    // stable name of this replica
        QDateTime startedAt; // UTC
        int poolSize = 0;
        double maxRate = 0;
    };
    // Liveness: whether the scheduler iterated recently enough (or is paused on purpose).
    using LivenessProbe = std::function<bool(QString *reason)>;

    AdminApi(LoadControl &control, const LoadCounters &counters, const StarterMetrics &metrics, Identity identity,
             BearerToken token, LivenessProbe liveness);

    AdminResponse handle(const AdminRequest &request) const;

    chaoscope::admin::v1::LoadStatus status() const;
    void setInstance(const QString &instance) { m_identity.instance = instance; }

    static bool isLivenessFresh(const LoadCounters &counters, qint64 nowSteadyMs, qint64 maxAgeMs, QString *reason);

private:
    AdminResponse handleAdmin(const AdminRequest &request) const;
    AdminResponse statusAnswer(const AdminRequest &request, int httpStatus = 200) const;
    static AdminResponse problemAnswer(const chaoscope::admin::v1::Problem &problem);
    static AdminResponse methodNotAllowed(const AdminRequest &request, const QByteArray &allowed);

    LoadControl &m_control;
    const LoadCounters &m_counters;
    const StarterMetrics &m_metrics;
    Identity m_identity;
    BearerToken m_token;
    LivenessProbe m_liveness;
};
