// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionrecorder.h"

#include "annotations/annotationmodel.h"
#include "dashboard/dashboardwriter.h"
#include "loadtester/loadtestercontroller.h"
#include "session.pb.h"
#include "session/format/sessionconvert.h"
#include "session/format/sessionformat.h"
#include "store/samplestore.h"

#include <QDateTime>
#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSysInfo>
#include <limits>

namespace pb = chaoscope::session::v1;
using SessionConvert::utf8;

namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// The dashboard as it may be written to a file: admin URLs without user info.
DashboardDefinition shareable(DashboardDefinition dashboard)
{
    for (QString &url : dashboard.loadTester.adminUrls)
        url = SessionConvert::publicUrl(QUrl(url));
    // What this version does not read of the file is the file's, not the recording's: it may
    // hold anything, a secret too.
    dashboard.unknownKeys = {};
    for (PanelDefinition &panel : dashboard.panels) {
        panel.unknownKeys = {};
        for (SeriesDefinition &series : panel.series)
            series.unknownKeys = {};
    }
    return dashboard;
}

} // namespace

SessionRecorder::SessionRecorder(SampleStore *store, AnnotationModel *annotations, QObject *parent)
    : QObject(parent), m_store(store), m_annotations(annotations)
{}

SessionRecorder::~SessionRecorder()
{
    stop();
}

QString SessionRecorder::defaultPath(const QString &dashboardName, qint64 now)
{
    // A built-in name or a file path: the file's base name, reduced to safe characters.
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString name = QFileInfo(dashboardName).completeBaseName();
    name.replace(unsafe, QStringLiteral("-"));
    if (name.isEmpty())
        name = QStringLiteral("session");
    const QString time = QDateTime::fromMSecsSinceEpoch(now, Qt::UTC).toString(QStringLiteral("yyyyMMdd-HHmmss"));
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(folder).filePath(
        QStringLiteral("sessions/%1-%2Z.%3").arg(name, time, QLatin1String(SessionFormat::kSuffix)));
}

std::optional<Error> SessionRecorder::start(const QString &path, const RunInfo &run,
                                            const DashboardDefinition &dashboard, qint64 windowMs)
{
    if (m_writer)
        return Error::make(Error::Kind::Invalid, QStringLiteral("already recording to %1").arg(this->path()));
    auto writer = std::make_unique<SessionWriter>(m_options);
    pb::Header header;
    header.set_format_version(SessionFormat::kFormatVersion);
    header.set_chaoscope_version(CHAOSCOPE_VERSION);
    header.set_created_at_ms(nowMs());
    header.set_dashboard_name(utf8(run.dashboardName));
    header.set_source_url(utf8(SessionConvert::publicUrl(run.source)));
    header.set_host(utf8(QSysInfo::machineHostName()));
    if (std::optional<Error> error = writer->create(path, header))
        return error;
    m_writer = std::move(writer);
    connect(m_writer.get(), &SessionWriter::stateChanged, this, &SessionRecorder::onWriterStateChanged,
            Qt::QueuedConnection);
    m_recordSamples = true;
    recordDashboard(dashboard, windowMs);

    // What the store and the annotations already hold is part of the run too.
    for (const Annotation &annotation : m_annotations->annotations())
        recordAnnotation(pb::AnnotationEvent::ADDED, annotation);
    for (const QString &key : m_store->keys())
        recordSeries(key, seriesState(key), {std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max()});
    connect(m_store, &SampleStore::samplesChanged, this, &SessionRecorder::onSamplesChanged);
    connectEdits();
    return std::nullopt;
}

std::optional<Error> SessionRecorder::startAppending(const QString &path, qint64 validEnd)
{
    if (m_writer)
        return Error::make(Error::Kind::Invalid, QStringLiteral("already recording to %1").arg(this->path()));
    auto writer = std::make_unique<SessionWriter>(m_options);
    if (std::optional<Error> error = writer->openForAppend(path, validEnd))
        return error;
    m_writer = std::move(writer);
    connect(m_writer.get(), &SessionWriter::stateChanged, this, &SessionRecorder::onWriterStateChanged,
            Qt::QueuedConnection);
    m_recordSamples = false;
    connectEdits();
    return std::nullopt;
}

void SessionRecorder::appendOnFirstEdit(const QString &path, qint64 validEnd)
{
    if (m_writer || !m_appendPath.isEmpty())
        return;
    m_appendPath = path;
    m_appendValidEnd = validEnd;
    m_appendError.clear();
    connectEdits();
}

// What the user changes: annotations, and series renamed as panels move (a recording that is
// only looked at gets these appended, see appendOnFirstEdit()).
void SessionRecorder::connectEdits()
{
    connect(m_store, &SampleStore::seriesRenamed, this, &SessionRecorder::onSeriesRenamed, Qt::UniqueConnection);
    connect(m_annotations, &AnnotationModel::annotationAdded, this,
            [this](const Annotation &a) { recordAnnotation(pb::AnnotationEvent::ADDED, a); });
    connect(
        m_annotations, &AnnotationModel::annotationUpdated, this,
        [this](const Annotation &, const Annotation &after) { recordAnnotation(pb::AnnotationEvent::UPDATED, after); });
    connect(m_annotations, &AnnotationModel::annotationRemoved, this,
            [this](const Annotation &a) { recordAnnotation(pb::AnnotationEvent::REMOVED, a); });
}

void SessionRecorder::setLoadTester(LoadTesterController *controller)
{
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    m_controller = controller;
    if (!controller)
        return;
    connect(controller, &LoadTesterController::actionStarted, this, &SessionRecorder::onActionStarted);
    connect(controller, &LoadTesterController::actionFinished, this, &SessionRecorder::onActionFinished);
}

void SessionRecorder::recordDashboard(const DashboardDefinition &dashboard, qint64 windowMs)
{
    if (!m_writer)
        return;
    pb::Record record;
    pb::Dashboard *out = record.mutable_dashboard();
    const QByteArray json = DashboardWriter::toJson(shareable(dashboard));
    out->set_json(json.constData(), std::size_t(json.size()));
    out->set_window_ms(windowMs);
    out->set_at_ms(nowMs());
    m_writer->append(record);
}

void SessionRecorder::recordVariable(const QString &name, const QString &value)
{
    if (!m_writer)
        return;
    pb::Record record;
    record.mutable_variable()->set_name(utf8(name));
    record.mutable_variable()->set_value(utf8(value));
    record.mutable_variable()->set_at_ms(nowMs());
    m_writer->append(record);
}

void SessionRecorder::recordScenario(const QString &title, qint64 startedAtMs, qint64 endedAtMs, const QString &verdict)
{
    if (!m_writer || !m_recordSamples)
        return;
    pb::Record record;
    pb::ScenarioEvent *event = record.mutable_scenario();
    event->set_title(utf8(title));
    event->set_started_at_ms(startedAtMs);
    event->set_ended_at_ms(endedAtMs);
    event->set_verdict(utf8(verdict));
    m_writer->append(record);
}

void SessionRecorder::recordView(const TimeRange &range, bool live)
{
    if (!m_writer || !m_recordSamples)
        return;
    pb::Record record;
    pb::View *view = record.mutable_view();
    view->mutable_range()->set_start_ms(range.startMs);
    view->mutable_range()->set_end_ms(range.endMs);
    view->set_live(live);
    view->set_at_ms(nowMs());
    m_writer->append(record);
}

void SessionRecorder::recordAnnotation(int kind, const Annotation &annotation)
{
    if (!m_writer && !m_appendPath.isEmpty()) {
        auto writer = std::make_unique<SessionWriter>(m_options);
        if (std::optional<Error> error = writer->openForAppend(m_appendPath, m_appendValidEnd)) {
            m_appendError = QStringLiteral("Annotation edits are not saved into the recording: %1. Use "
                                           "File ▸ Save session as… to keep them.")
                                .arg(error->message);
            emit stateChanged();
            return; // tried again on the next edit: the file may become writable
        }
        m_writer = std::move(writer);
        m_appendPath.clear();
        m_appendError.clear();
        m_recordSamples = false;
        connect(m_writer.get(), &SessionWriter::stateChanged, this, &SessionRecorder::onWriterStateChanged,
                Qt::QueuedConnection);
        emit stateChanged();
    }
    if (!m_writer)
        return;
    pb::Record record;
    pb::AnnotationEvent *event = record.mutable_annotation();
    event->set_kind(pb::AnnotationEvent::Kind(kind));
    event->set_at_ms(nowMs());
    SessionConvert::toProto(annotation, event->mutable_annotation());
    m_writer->append(record);
}

void SessionRecorder::onActionStarted(const LoadTesterAction &action)
{
    if (!m_writer)
        return;
    pb::Record record;
    pb::ActionEvent *event = record.mutable_action();
    event->set_phase(pb::ActionEvent::REQUESTED);
    SessionConvert::toProto(action, event->mutable_action());
    event->set_requested_at_ms(nowMs());
    if (m_controller)
        event->set_backend(utf8(m_controller->capabilities().kind));
    m_writer->append(record);
}

void SessionRecorder::onActionFinished(const ActionReport &report)
{
    if (!m_writer)
        return;
    pb::Record record;
    pb::ActionEvent *event = record.mutable_action();
    event->set_phase(pb::ActionEvent::ANSWERED);
    SessionConvert::toProto(report, event);
    if (m_controller) {
        const LoadTesterCapabilities capabilities = m_controller->capabilities();
        event->set_summary(utf8(report.summary(capabilities)));
        event->set_backend(utf8(capabilities.kind));
    }
    m_writer->append(record);
}

SessionRecorder::SeriesState &SessionRecorder::seriesState(const QString &key)
{
    auto it = m_series.find(key);
    if (it != m_series.end())
        return it->second;
    SeriesState &state = m_series[key];
    state.id = m_nextSeriesId++;
    m_keysById.insert(state.id, key);
    return state;
}

void SessionRecorder::onSamplesChanged(const QString &key, const TimeRange &span)
{
    if (!m_writer || !m_recordSamples)
        return;
    // Also while paused: the writer drops the samples and says which, so they are recorded
    // again on resume.
    recordSeries(key, seriesState(key), span);
}

void SessionRecorder::onSeriesRenamed(const std::vector<std::pair<QString, QString>> &moved)
{
    // Each series keeps its state (id, what is recorded of it) under its new key. All are taken
    // out before any is put back, as a swap renames a key to one that is still held.
    std::vector<std::pair<decltype(m_series)::node_type, QString>> nodes;
    for (const auto &[from, to] : moved) {
        auto it = m_series.find(from);
        if (it != m_series.end())
            nodes.emplace_back(m_series.extract(it), to);
    }
    for (auto &[node, to] : nodes) {
        node.key() = to;
        m_keysById.insert(node.mapped().id, to);
        m_series.erase(to);
        m_series.insert(std::move(node));
    }
    if (!m_writer)
        return;
    // The file says so, so that a reader moves what was recorded along: for series this run
    // declared, and, when only edits are appended to a recording, for the recording's own.
    for (const auto &[from, to] : moved) {
        const auto known = m_series.find(to);
        if ((known == m_series.end() || !known->second.declared) && m_recordSamples)
            continue; // nothing of it is in the file yet
        SeriesState &state = seriesState(to);
        if (const SampleStore::Series *series = m_store->series(to))
            state.labels = series->labels();
        state.declared = true;
        declareSeries(state.id, to, state.labels, from);
    }
}

void SessionRecorder::declareSeries(quint32 id, const QString &key, const QMap<QString, QString> &labels,
                                    const QString &renamedFrom)
{
    pb::Record record;
    pb::SeriesInfo *info = record.mutable_series();
    info->set_id(id);
    info->set_key(utf8(key));
    if (!renamedFrom.isEmpty())
        info->set_renamed_from(utf8(renamedFrom));
    for (auto it = labels.begin(); it != labels.end(); ++it)
        (*info->mutable_labels())[utf8(it.key())] = utf8(it.value());
    m_writer->append(record);
}

void SessionRecorder::recordSeries(const QString &key, SeriesState &state, const TimeRange &span)
{
    const SampleStore::Series *series = m_store->series(key);
    if (!series)
        return;
    // Declared on first sight, and again when the source changed its labels.
    if (!state.declared || state.labels != series->labels()) {
        declareSeries(state.id, key, series->labels());
        state.labels = series->labels();
        state.declared = true;
    }
    m_scratchTimes.clear();
    m_scratchValues.clear();
    state.filter.select(series->timestampsMs(), series->values(), span, m_scratchTimes, m_scratchValues);
    if (!m_scratchTimes.empty())
        m_writer->appendSamples(state.id, m_scratchTimes, m_scratchValues);
}

void SessionRecorder::onWriterStateChanged()
{
    if (!m_writer)
        return;
    // Asked on every change: a short pause may be over before its signal is handled here.
    if (m_writer->state() == SessionWriter::State::Recording)
        recordDropped();
    emit stateChanged();
}

void SessionRecorder::recordDropped()
{
    // What failed writes and a pause dropped is recorded again from the store.
    for (const auto &[id, span] : m_writer->takeDroppedSamples()) {
        const auto key = m_keysById.constFind(id);
        if (key == m_keysById.constEnd())
            continue;
        SeriesState &series = m_series[*key];
        series.filter.forget(span);
        if (m_recordSamples)
            recordSeries(*key, series, span);
    }
}

void SessionRecorder::flush()
{
    if (m_writer)
        m_writer->flush();
}

void SessionRecorder::stop()
{
    if (!m_appendPath.isEmpty()) {
        disconnect(m_annotations, nullptr, this, nullptr);
        m_appendPath.clear();
    }
    if (!m_writer)
        return;
    disconnect(m_store, nullptr, this, nullptr);
    disconnect(m_annotations, nullptr, this, nullptr);
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    if (m_writer->state() == SessionWriter::State::Recording)
        recordDropped();
    m_writer->close();
    m_writer.reset();
    emit stateChanged();
}

bool SessionRecorder::isPaused() const
{
    return m_writer && m_writer->state() == SessionWriter::State::Paused;
}

QString SessionRecorder::path() const
{
    return m_writer ? m_writer->path() : m_appendPath;
}

qint64 SessionRecorder::fileSize() const
{
    return m_writer ? m_writer->fileSize() : 0;
}

QString SessionRecorder::errorMessage() const
{
    return m_writer ? m_writer->lastError() : m_appendError;
}
