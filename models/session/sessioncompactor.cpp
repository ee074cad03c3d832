// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessioncompactor.h"

#include "session.pb.h"
#include "session/format/sessionconvert.h"
#include "session/format/sessionformat.h"
#include "session/format/sessionsamplecodec.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <algorithm>

namespace pb = chaoscope::session::v1;
using SessionConvert::utf8;

namespace {

// Samples per record: large enough that framing costs nothing, small enough that one damaged
// record loses a bounded piece.
constexpr std::size_t kSamplesPerRecord = 1u << 16;

void appendRecord(QByteArray &out, const pb::Record &record)
{
    const std::string payload = record.SerializeAsString();
    SessionFormat::appendFrame(out, QByteArrayView(payload.data(), qsizetype(payload.size())));
}

bool touches(const Annotation &annotation, const TimeRange &range)
{
    return annotation.endMs.value_or(annotation.timeMs) >= range.startMs && annotation.timeMs <= range.endMs;
}

} // namespace

namespace SessionCompactor {

QByteArray encode(const SessionContents &contents, const std::vector<Annotation> &annotations,
                  const std::optional<TimeRange> &trimTo)
{
    QByteArray out = SessionFormat::preamble();
    {
        pb::Record record;
        pb::Header *header = record.mutable_header();
        header->set_format_version(SessionFormat::kFormatVersion);
        header->set_chaoscope_version(CHAOSCOPE_VERSION);
        header->set_created_at_ms(contents.createdAtMs);
        header->set_dashboard_name(utf8(contents.dashboardName));
        header->set_source_url(utf8(contents.sourceUrl));
        header->set_host(utf8(contents.host));
        header->set_compacted(true);
        // Trimming an already trimmed file keeps the narrower of the two.
        std::optional<TimeRange> trimmed = trimTo ? trimTo : contents.trimmedTo;
        if (trimTo && contents.trimmedTo) {
            trimmed = TimeRange{std::max(trimTo->startMs, contents.trimmedTo->startMs),
                                std::min(trimTo->endMs, contents.trimmedTo->endMs)};
        }
        if (trimmed) {
            header->mutable_trimmed_to()->set_start_ms(trimmed->startMs);
            header->mutable_trimmed_to()->set_end_ms(trimmed->endMs);
        }
        appendRecord(out, record);
    }
    if (!contents.dashboardJson.isEmpty()) {
        pb::Record record;
        record.mutable_dashboard()->set_json(utf8(contents.dashboardJson));
        record.mutable_dashboard()->set_window_ms(contents.windowMs);
        record.mutable_dashboard()->set_at_ms(contents.createdAtMs);
        appendRecord(out, record);
    }
    for (auto it = contents.variableChanges.begin(); it != contents.variableChanges.end(); ++it) {
        pb::Record record;
        record.mutable_variable()->set_name(utf8(it.key()));
        record.mutable_variable()->set_value(utf8(it.value()));
        appendRecord(out, record);
    }

    // Series by series: one declaration, then its samples as key chunks.
    SessionSampleCodec::Encoder encoder;
    quint32 id = 1;
    for (const SessionSeries &series : contents.series) {
        std::size_t first = 0;
        std::size_t last = series.timestampsMs.size();
        if (trimTo) {
            first =
                std::size_t(std::lower_bound(series.timestampsMs.begin(), series.timestampsMs.end(), trimTo->startMs) -
                            series.timestampsMs.begin());
            last = std::size_t(std::upper_bound(series.timestampsMs.begin(), series.timestampsMs.end(), trimTo->endMs) -
                               series.timestampsMs.begin());
            if (first >= last)
                continue;
        }
        pb::Record declaration;
        pb::SeriesInfo *info = declaration.mutable_series();
        info->set_id(id);
        info->set_key(utf8(series.key));
        for (auto label = series.labels.begin(); label != series.labels.end(); ++label)
            (*info->mutable_labels())[utf8(label.key())] = utf8(label.value());
        appendRecord(out, declaration);
        for (std::size_t from = first; from < last; from += kSamplesPerRecord) {
            const std::size_t n = std::min(kSamplesPerRecord, last - from);
            QByteArray chunks;
            encoder.beginBatch();
            const std::span<const qint64> times(series.timestampsMs.data() + from, n);
            const std::span<const double> values(series.values.data() + from, n);
            encoder.encode(chunks, times.front(), id, times, values, /*forceKey=*/true);
            pb::Record record;
            record.mutable_samples()->set_base_ms(times.front());
            record.mutable_samples()->set_chunks(chunks.constData(), std::size_t(chunks.size()));
            appendRecord(out, record);
        }
        ++id;
    }

    for (const Annotation &annotation : annotations) {
        if (trimTo && !touches(annotation, *trimTo))
            continue;
        pb::Record record;
        record.mutable_annotation()->set_kind(pb::AnnotationEvent::ADDED);
        record.mutable_annotation()->set_at_ms(annotation.createdAtMs);
        SessionConvert::toProto(annotation, record.mutable_annotation()->mutable_annotation());
        appendRecord(out, record);
    }
    for (const SessionAction &action : contents.actions) {
        if (trimTo && !trimTo->contains(action.report.requestedAtMs))
            continue;
        pb::Record requested;
        pb::ActionEvent *event = requested.mutable_action();
        event->set_phase(pb::ActionEvent::REQUESTED);
        SessionConvert::toProto(action.report.action, event->mutable_action());
        event->set_requested_at_ms(action.report.requestedAtMs);
        event->set_backend(utf8(action.backend));
        appendRecord(out, requested);
        if (action.answered) {
            pb::Record answered;
            pb::ActionEvent *answer = answered.mutable_action();
            answer->set_phase(pb::ActionEvent::ANSWERED);
            SessionConvert::toProto(action.report, answer);
            answer->set_summary(utf8(action.summary));
            answer->set_backend(utf8(action.backend));
            appendRecord(out, answered);
        }
    }
    for (const SessionScenario &scenario : contents.scenarios) {
        if (trimTo && !trimTo->contains(scenario.startedAtMs))
            continue;
        pb::Record record;
        pb::ScenarioEvent *event = record.mutable_scenario();
        event->set_title(utf8(scenario.title));
        event->set_started_at_ms(scenario.startedAtMs);
        event->set_ended_at_ms(scenario.endedAtMs);
        event->set_verdict(utf8(scenario.verdict));
        appendRecord(out, record);
    }
    if (contents.lastView) {
        pb::Record view;
        view.mutable_view()->mutable_range()->set_start_ms(contents.lastView->startMs);
        view.mutable_view()->mutable_range()->set_end_ms(contents.lastView->endMs);
        view.mutable_view()->set_live(contents.lastViewLive);
        appendRecord(out, view);
    }
    pb::Record closed;
    closed.mutable_recording()->set_kind(pb::RecordingEvent::CLOSED);
    closed.mutable_recording()->set_at_ms(QDateTime::currentMSecsSinceEpoch());
    appendRecord(out, closed);
    return out;
}

std::optional<Error> write(const QString &path, const SessionContents &contents,
                           const std::vector<Annotation> &annotations, const std::optional<TimeRange> &trimTo)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return Error::make(Error::Kind::Io, QStringLiteral("Cannot create the folder %1").arg(info.absolutePath()));
    QSaveFile file(info.absoluteFilePath());
    if (!file.open(QIODevice::WriteOnly))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("Cannot write %1: %2").arg(info.absoluteFilePath(), file.errorString()));
    const QByteArray bytes = encode(contents, annotations, trimTo);
    if (file.write(bytes) != bytes.size() || !file.commit())
        return Error::make(Error::Kind::Io,
                           QStringLiteral("Cannot write %1: %2").arg(info.absoluteFilePath(), file.errorString()));
    return std::nullopt;
}

} // namespace SessionCompactor
