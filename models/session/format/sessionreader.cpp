// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/sessionreader.h"

#include "base/format.h"
#include "session/format/sessionconvert.h"
#include "session/format/sessionformat.h"
#include "session/format/sessionsamplecodec.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <algorithm>
#include <google/protobuf/stubs/logging.h>
#include <map>
#include <numeric>

namespace pb = chaoscope::session::v1;
using SessionConvert::fromUtf8;

namespace {

// Far more than a week of 1 s samples of a big dashboard, far less than a few bytes claiming
// billions of flat samples would allocate.
qint64 sampleBudget(qsizetype bytes)
{
    return std::min<qint64>(4'000'000 + 4096 * qint64(bytes), 500'000'000);
}

QString formatTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

// Sorts by time; where a timestamp repeats, the value recorded last wins.
void sortAndDeduplicate(SessionSeries &series)
{
    auto &times = series.timestampsMs;
    auto &values = series.values;
    if (std::adjacent_find(times.begin(), times.end(), [](qint64 a, qint64 b) { return a >= b; }) == times.end())
        return;
    std::vector<std::size_t> order(times.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });
    std::vector<qint64> sortedTimes;
    std::vector<double> sortedValues;
    sortedTimes.reserve(order.size());
    sortedValues.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i + 1 < order.size() && times[order[i + 1]] == times[order[i]])
            continue;
        sortedTimes.push_back(times[order[i]]);
        sortedValues.push_back(values[order[i]]);
    }
    times = std::move(sortedTimes);
    values = std::move(sortedValues);
}

class Reader
{
public:
    Reader(QByteArrayView data, const SessionReader::Progress &progress)
        : m_data(data), m_progress(progress), m_decoder(sampleBudget(data.size()))
    {}

    Result<SessionContents> run()
    {
        const std::optional<quint32> version = SessionFormat::readPreamble(m_data);
        if (!version) {
            return Error::make(
                Error::Kind::Invalid,
                QStringLiteral("it is not a Chaoscope session file (it does not start with a session signature)"));
        }
        if (*version == 0 || *version > SessionFormat::kFormatVersion) {
            const QString writer = writerVersion();
            return Error::make(
                Error::Kind::Invalid,
                QStringLiteral("it was written by %1 in session format %2; this Chaoscope (%3) reads "
                               "formats up to %4. Open it with a newer Chaoscope.")
                    .arg(writer.isEmpty() ? QStringLiteral("a newer Chaoscope") : QStringLiteral("Chaoscope ") + writer)
                    .arg(*version)
                    .arg(QStringLiteral(CHAOSCOPE_VERSION))
                    .arg(SessionFormat::kFormatVersion));
        }
        m_contents.formatVersion = *version;
        qsizetype pos = SessionFormat::kPreambleBytes;
        m_contents.validEnd = pos;
        qsizetype reportedAt = 0;
        while (pos < m_data.size()) {
            if (m_progress && pos - reportedAt >= kProgressEveryBytes) {
                reportedAt = pos;
                if (!m_progress(pos, m_data.size()))
                    return cancelled();
            }
            const SessionFormat::Frame frame = SessionFormat::frameAt(m_data, pos);
            if (frame.kind == SessionFormat::Frame::Kind::Record) {
                handle(frame.payload);
                pos = frame.end;
                m_contents.validEnd = pos;
                continue;
            }
            const qsizetype next = SessionFormat::findNextFrame(m_data, pos + 1);
            if (next < 0) {
                m_contents.damage.truncatedTailBytes = m_data.size() - pos;
                break;
            }
            m_contents.damage.skippedBytes += next - pos;
            ++m_contents.damage.skippedRegions;
            // What was in the skipped bytes is unknown, so no chain can be trusted past them.
            m_decoder.resetChains();
            m_lastWasClose = false;
            pos = next;
        }
        finish();
        if (m_progress && !m_progress(m_data.size(), m_data.size()))
            return cancelled();
        return std::move(m_contents);
    }

private:
    // Often enough for a progress bar to move smoothly, rarely enough to cost nothing.
    static constexpr qsizetype kProgressEveryBytes = 256LL * 1024;

    static Error cancelled()
    {
        return Error::make(Error::Kind::Cancelled, QStringLiteral("opening the session was cancelled"));
    }

    // The version of Chaoscope named in the header, if the first record is readable.
    QString writerVersion() const
    {
        const SessionFormat::Frame frame = SessionFormat::frameAt(m_data, SessionFormat::kPreambleBytes);
        pb::Record record;
        const google::protobuf::LogSilencer quiet; // see handle()
        if (frame.kind != SessionFormat::Frame::Kind::Record ||
            !record.ParseFromArray(frame.payload.data(), int(frame.payload.size())) || !record.has_header())
            return {};
        return fromUtf8(record.header().chaoscope_version()).left(40);
    }

    void noteTime(qint64 ms) { m_contents.lastEventMs = std::max(m_contents.lastEventMs, ms); }

    void handle(QByteArrayView payload)
    {
        ++m_contents.records;
        pb::Record record;
        // A damaged record is counted and reported once for the file; protobuf would also
        // write an error line to stderr for each (invalid UTF-8 in a string field, say).
        const google::protobuf::LogSilencer quiet;
        if (!record.ParseFromArray(payload.data(), int(payload.size()))) {
            ++m_contents.damage.unreadableRecords;
            return;
        }
        m_lastWasClose = false;
        switch (record.kind_case()) {
        case pb::Record::kHeader:
            handleHeader(record.header());
            break;
        case pb::Record::kDashboard:
            m_contents.dashboardJson = fromUtf8(record.dashboard().json());
            m_contents.windowMs = std::max<qint64>(0, record.dashboard().window_ms());
            m_contents.variableChanges.clear(); // the dashboard carries its variables
            noteTime(record.dashboard().at_ms());
            break;
        case pb::Record::kVariable:
            m_contents.variableChanges.insert(fromUtf8(record.variable().name()), fromUtf8(record.variable().value()));
            noteTime(record.variable().at_ms());
            break;
        case pb::Record::kSeries:
            handleSeries(record.series());
            break;
        case pb::Record::kSamples:
            handleSamples(record.samples());
            break;
        case pb::Record::kAnnotation:
            handleAnnotation(record.annotation());
            break;
        case pb::Record::kAction:
            handleAction(record.action());
            break;
        case pb::Record::kRecording:
            handleRecording(record.recording());
            break;
        case pb::Record::kView:
            if (record.view().range().end_ms() > record.view().range().start_ms()) {
                m_contents.lastView = TimeRange{record.view().range().start_ms(), record.view().range().end_ms()};
                m_contents.lastViewLive = record.view().live();
            }
            noteTime(record.view().at_ms());
            break;
        case pb::Record::kScenario:
            handleScenario(record.scenario());
            break;
        case pb::Record::KIND_NOT_SET:
            break; // a record kind from a later minor version: nothing this reader needs
        }
    }

    // The start and the end of one scenario are one entry, matched by when it started.
    void handleScenario(const pb::ScenarioEvent &event)
    {
        auto found = std::find_if(m_contents.scenarios.begin(), m_contents.scenarios.end(),
                                  [&](const SessionScenario &s) { return s.startedAtMs == event.started_at_ms(); });
        if (found == m_contents.scenarios.end())
            found = m_contents.scenarios.insert(m_contents.scenarios.end(), SessionScenario{});
        found->title = fromUtf8(event.title());
        found->startedAtMs = event.started_at_ms();
        found->endedAtMs = std::max<qint64>(0, event.ended_at_ms());
        found->verdict = fromUtf8(event.verdict());
        noteTime(std::max(event.started_at_ms(), event.ended_at_ms()));
    }

    void handleHeader(const pb::Header &header)
    {
        if (m_sawHeader)
            return; // appended journals keep the first file's identity
        m_sawHeader = true;
        m_contents.chaoscopeVersion = fromUtf8(header.chaoscope_version());
        m_contents.createdAtMs = header.created_at_ms();
        m_contents.dashboardName = fromUtf8(header.dashboard_name());
        m_contents.sourceUrl = fromUtf8(header.source_url());
        m_contents.host = fromUtf8(header.host());
        m_contents.compacted = header.compacted();
        if (header.has_trimmed_to())
            m_contents.trimmedTo = TimeRange{header.trimmed_to().start_ms(), header.trimmed_to().end_ms()};
    }

    void handleSeries(const pb::SeriesInfo &info)
    {
        const QString key = fromUtf8(info.key());
        if (!info.renamed_from().empty()) {
            if (const auto renamed = m_seriesByKey.find(fromUtf8(info.renamed_from()));
                renamed != m_seriesByKey.end()) {
                const std::size_t index = renamed->second;
                renameSeries(index, key);
                m_seriesById.insert(info.id(), index);
                return;
            }
        }
        auto it = m_seriesByKey.find(key);
        if (it == m_seriesByKey.end()) {
            it = m_seriesByKey.emplace(key, m_contents.series.size()).first;
            m_contents.series.push_back(SessionSeries{key, {}, {}, {}});
        }
        SessionSeries &series = m_contents.series[it->second];
        series.labels.clear();
        for (const auto &[name, value] : info.labels())
            series.labels.insert(fromUtf8(name), fromUtf8(value));
        m_seriesById.insert(info.id(), it->second);
    }

    // A series renamed (its panel moved, or removed and its samples put aside): what was
    // recorded so far goes along with it. Renames come one record at a time, so in a swap the
    // new key is still held by the series about to leave it: the newcomer waits for it.
    void renameSeries(std::size_t index, const QString &key)
    {
        SessionSeries &series = m_contents.series[index];
        const QString old = series.key;
        const auto oldEntry = m_seriesByKey.find(old);
        if (oldEntry != m_seriesByKey.end() && oldEntry->second == index) {
            m_seriesByKey.erase(oldEntry);
            if (const auto waiting = m_waitingForKey.find(old); waiting != m_waitingForKey.end()) {
                m_seriesByKey.insert_or_assign(old, waiting->second);
                m_waitingForKey.erase(waiting);
            }
        }
        series.key = key;
        const auto holder = m_seriesByKey.find(key);
        if (holder != m_seriesByKey.end() && holder->second != index && m_contents.series[holder->second].key == key)
            m_waitingForKey.insert_or_assign(key, index);
        else
            m_seriesByKey.insert_or_assign(key, index);
    }

    void handleSamples(const pb::SampleBatch &batch)
    {
        const QByteArrayView chunks(batch.chunks().data(), qsizetype(batch.chunks().size()));
        const bool ok = m_decoder.decode(
            chunks, batch.base_ms(), [this](quint32 id) { return m_seriesById.contains(id); },
            [this](quint32 id, std::span<const qint64> times, std::span<const double> values) {
                SessionSeries &series = m_contents.series[m_seriesById.value(id)];
                series.timestampsMs.insert(series.timestampsMs.end(), times.begin(), times.end());
                series.values.insert(series.values.end(), values.begin(), values.end());
            });
        if (!ok) {
            ++m_contents.damage.unreadableRecords;
            m_decoder.resetChains();
        }
    }

    void handleAnnotation(const pb::AnnotationEvent &event)
    {
        noteTime(event.at_ms());
        const Annotation annotation = SessionConvert::fromProto(event.annotation());
        if (event.kind() == pb::AnnotationEvent::REMOVED)
            m_annotations.erase(annotation.id);
        else
            m_annotations[annotation.id] = annotation;
    }

    void handleAction(const pb::ActionEvent &event)
    {
        noteTime(std::max(event.requested_at_ms(), event.finished_at_ms()));
        if (event.phase() == pb::ActionEvent::REQUESTED) {
            SessionAction action;
            action.report.action = SessionConvert::fromProto(event.action());
            action.report.requestedAtMs = event.requested_at_ms();
            action.backend = fromUtf8(event.backend());
            m_contents.actions.push_back(std::move(action));
            return;
        }
        // The answer belongs to the newest unanswered request: one action is in flight at a time.
        auto &actions = m_contents.actions;
        auto it = std::find_if(actions.rbegin(), actions.rend(), [](const SessionAction &a) { return !a.answered; });
        if (it == actions.rend()) {
            actions.push_back(SessionAction{});
            it = actions.rbegin();
        }
        it->report = SessionConvert::fromProto(event);
        it->answered = true;
        it->summary = fromUtf8(event.summary());
        it->backend = fromUtf8(event.backend());
    }

    void handleRecording(const pb::RecordingEvent &event)
    {
        noteTime(event.at_ms());
        if (event.kind() == pb::RecordingEvent::PAUSED && !event.message().empty())
            m_contents.pauses << fromUtf8(event.message());
        m_lastWasClose = event.kind() == pb::RecordingEvent::CLOSED;
    }

    void finish()
    {
        m_contents.closedCleanly = m_lastWasClose && m_contents.damage.truncatedTailBytes == 0;
        m_contents.damage.lostSamples = m_decoder.stats().lostSamples;
        for (SessionSeries &series : m_contents.series)
            sortAndDeduplicate(series);
        m_contents.annotations.reserve(m_annotations.size());
        for (const auto &entry : m_annotations)
            m_contents.annotations.push_back(entry.second);
        std::stable_sort(m_contents.annotations.begin(), m_contents.annotations.end(),
                         [](const Annotation &a, const Annotation &b) { return a.timeMs < b.timeMs; });
    }

    QByteArrayView m_data;
    const SessionReader::Progress &m_progress;
    SessionContents m_contents;
    SessionSampleCodec::Decoder m_decoder;
    std::map<QString, std::size_t> m_seriesByKey;
    std::map<QString, std::size_t> m_waitingForKey; // renamed to a key another series still holds
    QHash<quint32, std::size_t> m_seriesById;
    std::map<quint64, Annotation> m_annotations;
    bool m_sawHeader = false;
    bool m_lastWasClose = false;
};

} // namespace

qint64 SessionContents::sampleCount() const
{
    qint64 total = 0;
    for (const SessionSeries &s : series)
        total += qint64(s.timestampsMs.size());
    return total;
}

TimeRange SessionContents::recordedRange() const
{
    TimeRange range{std::numeric_limits<qint64>::max(), std::numeric_limits<qint64>::min()};
    auto note = [&range](qint64 t) {
        range.startMs = std::min(range.startMs, t);
        range.endMs = std::max(range.endMs, t);
    };
    for (const SessionSeries &s : series) {
        if (!s.timestampsMs.empty()) {
            note(s.timestampsMs.front());
            note(s.timestampsMs.back());
        }
    }
    for (const Annotation &a : annotations) {
        note(a.timeMs);
        note(a.endMs.value_or(a.timeMs));
    }
    for (const SessionAction &a : actions)
        note(a.report.requestedAtMs);
    return range;
}

QString SessionContents::describeProblems() const
{
    QStringList parts;
    if (!closedCleanly) {
        QString text = QStringLiteral("The recording was not closed: the app stopped before the end");
        if (lastEventMs > 0 || recordedRange().endMs >= recordedRange().startMs) {
            const qint64 last = std::max(lastEventMs, recordedRange().endMs);
            text += QStringLiteral(" (last data %1)").arg(formatTime(last));
        }
        text += QStringLiteral("; everything up to its last complete record was recovered.");
        if (damage.truncatedTailBytes > 0)
            text += QStringLiteral(" The tail was cut: an incomplete last record of %1 was dropped.")
                        .arg(Format::bytes(damage.truncatedTailBytes));
        parts << text;
    } else if (damage.truncatedTailBytes > 0) {
        parts << QStringLiteral("The tail was cut: %1 after the last complete record were dropped.")
                     .arg(Format::bytes(damage.truncatedTailBytes));
    }
    if (damage.skippedBytes > 0) {
        parts << QStringLiteral("%1 in %2 could not be read and were skipped.")
                     .arg(Format::bytes(damage.skippedBytes),
                          Format::counted(damage.skippedRegions, QStringLiteral("damaged place"),
                                          QStringLiteral("damaged places")));
    }
    if (damage.lostSamples > 0) {
        parts << QStringLiteral("%1 recorded after damage could not be decoded.")
                     .arg(Format::counted(damage.lostSamples, QStringLiteral("sample"), QStringLiteral("samples")));
    }
    if (damage.unreadableRecords > 0)
        parts << QStringLiteral("%1 could not be understood and were ignored.")
                     .arg(Format::counted(damage.unreadableRecords, QStringLiteral("record"),
                                          QStringLiteral("records")));
    return parts.join(QLatin1Char(' '));
}

QString SessionContents::shortProblems() const
{
    QStringList parts;
    if (!closedCleanly) {
        const qint64 last = std::max(lastEventMs, recordedRange().endMs);
        parts << (last > 0 ? QStringLiteral("not closed: recovered up to %1")
                                 .arg(QDateTime::fromMSecsSinceEpoch(last).toString(QStringLiteral("HH:mm:ss")))
                           : QStringLiteral("not closed"));
    }
    if (damage.skippedRegions > 0)
        parts << QStringLiteral("%1 skipped")
                     .arg(Format::counted(damage.skippedRegions, QStringLiteral("damaged place"),
                                          QStringLiteral("damaged places")));
    if (damage.lostSamples > 0)
        parts << QStringLiteral("%1 lost").arg(
            Format::counted(damage.lostSamples, QStringLiteral("sample"), QStringLiteral("samples")));
    if (damage.unreadableRecords > 0)
        parts << QStringLiteral("%1 ignored")
                     .arg(Format::counted(damage.unreadableRecords, QStringLiteral("record"),
                                          QStringLiteral("records")));
    return parts.join(QStringLiteral("; "));
}

namespace SessionReader {

Result<SessionContents> read(QByteArrayView data, const Progress &progress)
{
    return Reader(data, progress).run();
}

Result<SessionContents> readFile(const QString &path, const Progress &progress)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("Cannot open the session %1: %2").arg(path, file.errorString()));
    // Mapped rather than read: a long session is read once, in place.
    const qint64 size = file.size();
    QByteArray copy;
    QByteArrayView data;
    if (size > 0) {
        if (uchar *mapped = file.map(0, size)) {
            data = QByteArrayView(reinterpret_cast<const char *>(mapped), size);
        } else {
            copy = file.readAll();
            data = copy;
        }
    }
    Result<SessionContents> result = read(data, progress);
    if (!result && result.error().kind != Error::Kind::Cancelled) {
        Error error = result.error();
        error.message = QStringLiteral("Cannot open %1: %2").arg(QFileInfo(path).fileName(), error.message);
        return error;
    }
    return result;
}

} // namespace SessionReader
