// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/sessionconvert.h"

#include <QUrl>

namespace SessionConvert {

namespace pb = chaoscope::session::v1;

QString publicUrl(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment).toString();
}

void toProto(const Annotation &annotation, pb::Annotation *out)
{
    out->set_id(annotation.id);
    out->set_time_ms(annotation.timeMs);
    if (annotation.endMs)
        out->set_end_ms(*annotation.endMs);
    out->set_text(utf8(annotation.text));
    for (const QString &tag : annotation.tags)
        out->add_tags(utf8(tag));
    switch (annotation.source) {
    case Annotation::Source::Manual:
        out->set_source(pb::Annotation::MANUAL);
        break;
    case Annotation::Source::Action:
        out->set_source(pb::Annotation::ACTION);
        break;
    case Annotation::Source::Scenario:
        out->set_source(pb::Annotation::SCENARIO);
        break;
    case Annotation::Source::Detector:
        out->set_source(pb::Annotation::DETECTOR);
        break;
    case Annotation::Source::Kubernetes:
        out->set_source(pb::Annotation::KUBERNETES);
        break;
    case Annotation::Source::Query:
        out->set_source(pb::Annotation::QUERY);
        break;
    }
    out->set_failed(annotation.failed);
    out->set_suggested(annotation.suggested);
    out->set_author(utf8(annotation.author));
    out->set_created_at_ms(annotation.createdAtMs);
}

Annotation fromProto(const pb::Annotation &in)
{
    Annotation annotation;
    annotation.id = in.id();
    annotation.timeMs = in.time_ms();
    if (in.has_end_ms())
        annotation.endMs = in.end_ms();
    annotation.text = fromUtf8(in.text());
    for (const std::string &tag : in.tags())
        annotation.tags << fromUtf8(tag);
    switch (in.source()) {
    case pb::Annotation::ACTION:
        annotation.source = Annotation::Source::Action;
        break;
    case pb::Annotation::SCENARIO:
        annotation.source = Annotation::Source::Scenario;
        break;
    case pb::Annotation::DETECTOR:
        annotation.source = Annotation::Source::Detector;
        break;
    case pb::Annotation::KUBERNETES:
        annotation.source = Annotation::Source::Kubernetes;
        break;
    case pb::Annotation::QUERY:
        annotation.source = Annotation::Source::Query;
        break;
    default:
        annotation.source = Annotation::Source::Manual;
        break; // MANUAL, or a newer kind
    }
    annotation.failed = in.failed();
    annotation.suggested = in.suggested();
    annotation.author = fromUtf8(in.author());
    annotation.createdAtMs = in.created_at_ms();
    return annotation;
}

void toProto(const LoadTesterAction &action, pb::LoadTesterAction *out)
{
    switch (action.kind) {
    case LoadTesterAction::Kind::SetRate:
        out->set_kind(pb::LoadTesterAction::SET_RATE);
        break;
    case LoadTesterAction::Kind::SetInflightLimit:
        out->set_kind(pb::LoadTesterAction::SET_INFLIGHT_LIMIT);
        break;
    case LoadTesterAction::Kind::Pause:
        out->set_kind(pb::LoadTesterAction::PAUSE);
        break;
    case LoadTesterAction::Kind::Resume:
        out->set_kind(pb::LoadTesterAction::RESUME);
        break;
    }
    out->set_value(action.value);
}

LoadTesterAction fromProto(const pb::LoadTesterAction &in)
{
    LoadTesterAction action;
    switch (in.kind()) {
    case pb::LoadTesterAction::SET_INFLIGHT_LIMIT:
        action.kind = LoadTesterAction::Kind::SetInflightLimit;
        break;
    case pb::LoadTesterAction::PAUSE:
        action.kind = LoadTesterAction::Kind::Pause;
        break;
    case pb::LoadTesterAction::RESUME:
        action.kind = LoadTesterAction::Kind::Resume;
        break;
    default:
        action.kind = LoadTesterAction::Kind::SetRate;
        break;
    }
    action.value = in.value();
    return action;
}

void toProto(const LoadTesterStatus &status, pb::LoadTesterStatus *out)
{
    out->set_rate(status.rate);
    if (status.inflightLimit)
        out->set_inflight_limit(*status.inflightLimit);
    if (status.inflight)
        out->set_inflight(*status.inflight);
    if (status.pending)
        out->set_pending(*status.pending);
    if (status.poolSize)
        out->set_pool_size(*status.poolSize);
    if (status.observedRate)
        out->set_observed_rate(*status.observedRate);
    if (status.failRatio)
        out->set_fail_ratio(*status.failRatio);
    if (status.maxRate)
        out->set_max_rate(*status.maxRate);
    out->set_paused(status.paused);
    out->set_state(utf8(status.state));
    out->set_instance(utf8(status.instance));
    out->set_version(status.version);
}

LoadTesterStatus fromProto(const pb::LoadTesterStatus &in)
{
    LoadTesterStatus status;
    status.rate = in.rate();
    if (in.has_inflight_limit())
        status.inflightLimit = in.inflight_limit();
    if (in.has_inflight())
        status.inflight = in.inflight();
    if (in.has_pending())
        status.pending = in.pending();
    if (in.has_pool_size())
        status.poolSize = in.pool_size();
    if (in.has_observed_rate())
        status.observedRate = in.observed_rate();
    if (in.has_fail_ratio())
        status.failRatio = in.fail_ratio();
    if (in.has_max_rate())
        status.maxRate = in.max_rate();
    status.paused = in.paused();
    status.state = fromUtf8(in.state());
    status.instance = fromUtf8(in.instance());
    status.version = in.version();
    return status;
}

void toProto(const ActionReport &report, pb::ActionEvent *out)
{
    toProto(report.action, out->mutable_action());
    out->set_requested_at_ms(report.requestedAtMs);
    out->set_finished_at_ms(report.finishedAtMs);
    for (const ReplicaOutcome &outcome : report.replicas) {
        pb::ReplicaOutcome *replica = out->add_replicas();
        replica->set_endpoint(utf8(publicUrl(outcome.endpoint)));
        replica->set_instance(utf8(outcome.instance));
        if (outcome.before)
            toProto(*outcome.before, replica->mutable_before());
        if (outcome.after)
            toProto(*outcome.after, replica->mutable_after());
        if (outcome.error)
            replica->set_error(utf8(outcome.error->message));
        replica->set_confirmed(outcome.confirmed);
        replica->set_mismatch(utf8(outcome.mismatch));
    }
}

ActionReport fromProto(const pb::ActionEvent &event)
{
    ActionReport report;
    report.action = fromProto(event.action());
    report.requestedAtMs = event.requested_at_ms();
    report.finishedAtMs = event.finished_at_ms();
    for (const pb::ReplicaOutcome &replica : event.replicas()) {
        ReplicaOutcome outcome;
        outcome.endpoint = QUrl(fromUtf8(replica.endpoint()));
        outcome.instance = fromUtf8(replica.instance());
        if (replica.has_before())
            outcome.before = fromProto(replica.before());
        if (replica.has_after())
            outcome.after = fromProto(replica.after());
        if (!replica.error().empty())
            outcome.error = Error::make(Error::Kind::Network, fromUtf8(replica.error()));
        outcome.confirmed = replica.confirmed();
        outcome.mismatch = fromUtf8(replica.mismatch());
        report.replicas.push_back(std::move(outcome));
    }
    return report;
}

} // namespace SessionConvert
