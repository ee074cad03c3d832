// SPDX-License-Identifier: GPL-3.0-or-later
#include "adminapi.h"

#include "adminrequestparser.h"
#include "loadcontrol.h"
#include "loadcounters.h"
#include "loadtester.pb.h"
#include "prometheustextwriter.h"
#include "startermetrics.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <google/protobuf/util/json_util.h>

using chaoscope::admin::v1::LoadStatus;
using chaoscope::admin::v1::Problem;

namespace {

const QByteArray jsonType = "application/json";
const QByteArray protobufType = "application/x-protobuf";
const QByteArray problemType = "application/problem+json";

bool wantsProtobuf(const QByteArray &accept)
{
    for (const QByteArray &item : accept.split(',')) {
        if (item.split(';').value(0).trimmed().toLower() == protobufType)
            return true;
    }
    return false;
}

QByteArray toJson(const google::protobuf::Message &message)
{
    google::protobuf::util::JsonPrintOptions options;
    // rate 0 and paused false are answers too, not absent fields.
    options.always_print_primitive_fields = true;
    std::string json;
    google::protobuf::util::MessageToJsonString(message, &json, options);
    return QByteArray::fromStdString(json);
}

AdminResponse jsonAnswer(int status, const QJsonObject &object)
{
    return {status, jsonType, QJsonDocument(object).toJson(QJsonDocument::Compact), {}};
}

} // namespace

AdminApi::AdminApi(LoadControl &control, const LoadCounters &counters, const StarterMetrics &metrics, Identity identity,
                   BearerToken token, LivenessProbe liveness)
    : m_control(control), m_counters(counters), m_metrics(metrics), m_identity(std::move(identity)),
      m_token(std::move(token)), m_liveness(std::move(liveness))
{}

bool AdminApi::isLivenessFresh(const LoadCounters &counters, qint64 nowSteadyMs, qint64 maxAgeMs, QString *reason)
{
    if (!counters.schedulerRunning.load()) {
        *reason = QStringLiteral("the scheduler thread is not running");
        return false;
    }
    const qint64 age = nowSteadyMs - counters.heartbeatMs.load();
    if (age > maxAgeMs) {
        *reason = QStringLiteral("the scheduler has not completed an iteration for %1 ms").arg(age);
        return false;
    }
    return true;
}

LoadStatus AdminApi::status() const
{
    const LoadSettings settings = m_control.settings();
    const qint32 pending = m_counters.pending.load();
    const qint32 leased = m_counters.leased.load();
    LoadStatus status;
    status.set_rate(settings.rate);
    status.set_inflight_limit(settings.inflightLimit);
    status.set_inflight(pending + leased);
    status.set_pending(pending);
    status.set_pool_size(m_identity.poolSize);
    status.set_paused(settings.paused);
    status.set_sent(m_counters.sent.load());
    status.set_succeeded(m_counters.succeeded.load());
    status.set_failed(m_counters.failed.load());
    status.set_skipped(m_counters.skipped.load());
    status.set_started_at(m_identity.startedAt.toUTC().toString(Qt::ISODateWithMs).toStdString());
    status.set_instance(m_identity.instance.toStdString());
    status.set_version(settings.version);
    return status;
}

AdminResponse AdminApi::statusAnswer(const AdminRequest &request, int httpStatus) const
{
    const LoadStatus current = status();
    AdminResponse response;
    response.status = httpStatus;
    if (wantsProtobuf(request.accept)) {
        response.contentType = protobufType;
        response.body = QByteArray::fromStdString(current.SerializeAsString());
    } else {
        response.contentType = jsonType;
        response.body = toJson(current);
    }
    response.headers.append(
        qMakePair(QByteArray("ETag"), QByteArray('"' + QByteArray::number(current.version()) + '"')));
    response.headers.append(qMakePair(QByteArray("Cache-Control"), QByteArray("no-store")));
    return response;
}

AdminResponse AdminApi::problemAnswer(const Problem &problem)
{
    AdminResponse response{problem.status(), problemType, toJson(problem), {}};
    if (problem.status() == 401)
        response.headers.append(
            qMakePair(QByteArray("WWW-Authenticate"), QByteArray("Bearer realm=\"chaoscope-starter\"")));
    return response;
}

AdminResponse AdminApi::methodNotAllowed(const AdminRequest &request, const QByteArray &allowed)
{
    AdminResponse response = problemAnswer(
        AdminRequestParser::problem(405, "method-not-allowed", QStringLiteral("Method not allowed"),
                                    QStringLiteral("%1 %2 is not supported; use %3")
                                        .arg(QString::fromLatin1(request.method), QString::fromLatin1(request.path),
                                             QString::fromLatin1(allowed))));
    response.headers.append(qMakePair(QByteArray("Allow"), QByteArray(allowed)));
    return response;
}

AdminResponse AdminApi::handle(const AdminRequest &request) const
{
    if (request.path == "/metrics") {
        if (request.method != "GET")
            return methodNotAllowed(request, "GET");
        return {200, PrometheusTextWriter::contentType, m_metrics.render(), {}};
    }
    if (request.path == "/health/liveness") {
        if (request.method != "GET")
            return methodNotAllowed(request, "GET");
        QString reason;
        if (m_liveness && !m_liveness(&reason))
            return jsonAnswer(503,
                              {{QStringLiteral("status"), QStringLiteral("DOWN")}, {QStringLiteral("reason"), reason}});
        return jsonAnswer(200, {{QStringLiteral("status"), QStringLiteral("UP")}});
    }
    if (request.path.startsWith("/admin/"))
        return handleAdmin(request);
    return problemAnswer(AdminRequestParser::problem(
        404, "not-found", QStringLiteral("Not found"),
        QStringLiteral("no endpoint at %1").arg(QString::fromLatin1(request.path.left(200)))));
}

AdminResponse AdminApi::handleAdmin(const AdminRequest &request) const
{
    const QByteArray &path = request.path;
    const bool known = path == "/admin/status" || path == "/admin/rate" || path == "/admin/inflight-limit" ||
                       path == "/admin/pause" || path == "/admin/resume";
    if (!known) {
        return problemAnswer(
            AdminRequestParser::problem(404, "not-found", QStringLiteral("Not found"),
                                        QStringLiteral("no endpoint at %1").arg(QString::fromLatin1(path.left(200)))));
    }
    if (!m_token.accepts(request.authorization)) {
        return problemAnswer(AdminRequestParser::problem(
            401, "unauthorized", QStringLiteral("Unauthorized"),
            QStringLiteral("this starter needs 'Authorization: Bearer <token>' with the token of "
                           "its --admin-token-file")));
    }
    if (auto tooLarge = AdminRequestParser::checkBodySize(request.body))
        return problemAnswer(*tooLarge);

    if (path == "/admin/status") {
        if (request.method != "GET")
            return methodNotAllowed(request, "GET");
        return statusAnswer(request);
    }

    const QByteArray allowed = path == "/admin/pause" || path == "/admin/resume" ? "POST" : "PUT";
    if (request.method != allowed)
        return methodNotAllowed(request, allowed);

    LoadControl::Change change;
    const auto precondition = AdminRequestParser::parseIfMatch(request.ifMatch);
    if (!precondition.ok())
        return problemAnswer(precondition.problem);
    if (path == "/admin/rate") {
        const auto rate = AdminRequestParser::parseRate(request.contentType, request.body, m_identity.maxRate);
        if (!rate.ok())
            return problemAnswer(rate.problem);
        change = m_control.setRate(*rate.value, *precondition.value);
    } else if (path == "/admin/inflight-limit") {
        const auto limit = AdminRequestParser::parseInflightLimit(request.contentType, request.body);
        if (!limit.ok())
            return problemAnswer(limit.problem);
        change = m_control.setInflightLimit(*limit.value, *precondition.value);
    } else {
        change = m_control.setPaused(path == "/admin/pause", *precondition.value);
    }
    if (change.outcome == LoadControl::Outcome::VersionMismatch) {
        return problemAnswer(
            AdminRequestParser::problem(412, "precondition-failed", QStringLiteral("Precondition failed"),
                                        QStringLiteral("If-Match %1 no longer matches the current version %2; read "
                                                       "/admin/status again and retry")
                                            .arg(QString::fromLatin1(request.ifMatch.left(100)))
                                            .arg(change.settings.version)));
    }
    return statusAnswer(request);
}
