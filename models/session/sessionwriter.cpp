// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionwriter.h"

#include "session.pb.h"
#include "session/format/sessionformat.h"
#include "session/format/sessionsamplecodec.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <unistd.h>

namespace pb = chaoscope::session::v1;

namespace {

// A batch record is closed at this size, so a resync after a pause or a large history fetch
// does not become one huge record.
constexpr qsizetype kMaxBatchBytes = 256LL * 1024;
// While paused, events wait in memory up to this many; samples are not kept (see header).
constexpr std::size_t kMaxPausedEvents = 100'000;

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

pb::Record recordingEvent(pb::RecordingEvent::Kind kind, const QString &message = {})
{
    pb::Record record;
    pb::RecordingEvent *event = record.mutable_recording();
    event->set_kind(kind);
    event->set_at_ms(nowMs());
    if (!message.isEmpty())
        event->set_message(message.toStdString());
    return record;
}

void appendRecord(QByteArray &out, const pb::Record &record)
{
    const std::string payload = record.SerializeAsString();
    SessionFormat::appendFrame(out, QByteArrayView(payload.data(), qsizetype(payload.size())));
}

} // namespace

struct SessionWriter::Item
{
    bool samples = false;
    pb::Record record;
    quint32 seriesId = 0;
    std::vector<qint64> timestampsMs;
    std::vector<double> values;
};

struct SessionWriter::Worker
{
    explicit Worker(qint64 keyIntervalMs) : encoder(keyIntervalMs) {}

    mutable std::mutex mutex;
    std::condition_variable wake;    // to the writer thread: work, flush or stop
    std::condition_variable written; // to flush(): the queue was written
    std::deque<Item> queue;
    quint64 enqueued = 0; // items ever queued
    quint64 done = 0;     // items written or dropped: everything not in the queue any more
    bool flushRequested = false;
    bool stop = false;
    State state = State::Closed;
    QString error;
    std::map<quint32, TimeRange> dropped; // samples lost to a failed write or a pause

    void drop(const Item &item)
    {
        const TimeRange span{item.timestampsMs.front(), item.timestampsMs.back()};
        auto [it, inserted] = dropped.emplace(item.seriesId, span);
        if (!inserted)
            it->second = {std::min(it->second.startMs, span.startMs), std::max(it->second.endMs, span.endMs)};
    }

    // Only the writer thread touches these once it runs.
    int fd = -1;
    qint64 goodSize = 0; // the file up to here is intact records
    QByteArray pending;  // bytes of the first write (preamble, header or reopen marker)
    SessionSampleCodec::Encoder encoder;
    std::chrono::steady_clock::time_point lastSync = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point nextRetry;
    qint64 pausedAtMs = 0;
    QString pausedMessage;
    bool unsynced = false;
};

SessionWriter::SessionWriter(QObject *parent) : SessionWriter(Options{}, parent) {}

SessionWriter::SessionWriter(Options options, QObject *parent) : QObject(parent), m_options(options) {}

SessionWriter::~SessionWriter()
{
    close();
}

std::optional<Error> SessionWriter::create(const QString &path, const pb::Header &header)
{
    if (m_worker)
        return Error::make(Error::Kind::Invalid, QStringLiteral("the session writer is already in use"));
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("Cannot create the folder %1 for the session file").arg(info.absolutePath()));
    // An earlier recording is never overwritten by a new one.
    if (info.exists() && info.size() > 0) {
        return Error::make(
            Error::Kind::Io,
            QStringLiteral("%1 exists already; choose another file for the recording").arg(info.absoluteFilePath()));
    }
    const int fd =
        ::open(QFile::encodeName(info.absoluteFilePath()).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return Error::make(
            Error::Kind::Io,
            QStringLiteral("Cannot create the session file %1: %2").arg(info.absoluteFilePath(), errnoText(errno)));
    }
    QByteArray first = SessionFormat::preamble();
    pb::Record record;
    *record.mutable_header() = header;
    appendRecord(first, record);
    appendRecord(first, recordingEvent(pb::RecordingEvent::STARTED));
    return start(info.absoluteFilePath(), fd, 0, true, first);
}

std::optional<Error> SessionWriter::openForAppend(const QString &path, qint64 validEnd)
{
    if (m_worker)
        return Error::make(Error::Kind::Invalid, QStringLiteral("the session writer is already in use"));
    const QFileInfo info(path);
    const int fd = ::open(QFile::encodeName(info.absoluteFilePath()).constData(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return Error::make(
            Error::Kind::Io,
            QStringLiteral("Cannot write to the session file %1: %2").arg(info.absoluteFilePath(), errnoText(errno)));
    }
    if (validEnd < SessionFormat::kPreambleBytes || validEnd > info.size()) {
        ::close(fd);
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("%1 changed since it was read; open it again").arg(info.absoluteFilePath()));
    }
    QByteArray first;
    appendRecord(first, recordingEvent(pb::RecordingEvent::REOPENED));
    return start(info.absoluteFilePath(), fd, validEnd, false, first);
}

std::optional<Error> SessionWriter::start(const QString &path, int fd, qint64 validEnd, bool fresh,
                                          const QByteArray &firstBytes)
{
    m_path = path;
    m_worker = std::make_unique<Worker>(m_options.keyIntervalMs);
    m_worker->fd = fd;
    m_worker->goodSize = validEnd;
    m_worker->pending = firstBytes;
    m_worker->state = State::Recording;
    m_size = fresh ? 0 : validEnd;
    m_thread = std::thread([this] { run(); });
    return std::nullopt;
}

void SessionWriter::enqueue(Item item)
{
    if (!m_worker)
        return;
    std::lock_guard lock(m_worker->mutex);
    if (m_worker->stop)
        return;
    m_worker->queue.push_back(std::move(item));
    ++m_worker->enqueued;
}

void SessionWriter::append(const pb::Record &record)
{
    Item item;
    item.record = record;
    enqueue(std::move(item));
}

void SessionWriter::appendSamples(quint32 seriesId, std::vector<qint64> timestampsMs, std::vector<double> values)
{
    if (timestampsMs.empty() || timestampsMs.size() != values.size())
        return;
    Item item;
    item.samples = true;
    item.seriesId = seriesId;
    item.timestampsMs = std::move(timestampsMs);
    item.values = std::move(values);
    enqueue(std::move(item));
}

void SessionWriter::flush()
{
    if (!m_worker)
        return;
    std::unique_lock lock(m_worker->mutex);
    const quint64 target = m_worker->enqueued;
    m_worker->flushRequested = true;
    m_worker->wake.notify_all();
    m_worker->written.wait(
        lock, [&] { return m_worker->done >= target || m_worker->stop || m_worker->state != State::Recording; });
}

void SessionWriter::close()
{
    if (!m_worker || !m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_worker->mutex);
        m_worker->stop = true;
    }
    m_worker->wake.notify_all();
    m_thread.join();
    emit stateChanged();
}

SessionWriter::State SessionWriter::state() const
{
    if (!m_worker)
        return State::Closed;
    std::lock_guard lock(m_worker->mutex);
    return m_worker->state;
}

QString SessionWriter::lastError() const
{
    if (!m_worker)
        return {};
    std::lock_guard lock(m_worker->mutex);
    return m_worker->error;
}

std::vector<std::pair<quint32, TimeRange>> SessionWriter::takeDroppedSamples()
{
    std::vector<std::pair<quint32, TimeRange>> out;
    if (!m_worker)
        return out;
    std::lock_guard lock(m_worker->mutex);
    out.assign(m_worker->dropped.begin(), m_worker->dropped.end());
    m_worker->dropped.clear();
    return out;
}

void SessionWriter::run()
{
    Worker &w = *m_worker;
    using Clock = std::chrono::steady_clock;
    const auto flushInterval = std::chrono::milliseconds(m_options.flushIntervalMs);
    const auto syncInterval = std::chrono::milliseconds(m_options.syncIntervalMs);
    const auto retryInterval = std::chrono::milliseconds(m_options.retryIntervalMs);

    // Writes `bytes` at the end of the intact part; on failure cuts back to it.
    auto writeAll = [&](const QByteArray &bytes) -> std::optional<QString> {
        if (::ftruncate(w.fd, w.goodSize) != 0)
            return errnoText(errno);
        qsizetype done = 0;
        while (done < bytes.size()) {
            const ssize_t n =
                ::pwrite(w.fd, bytes.constData() + done, std::size_t(bytes.size() - done), w.goodSize + done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                const int error = n < 0 ? errno : ENOSPC;
                // Leave no torn record behind when the file system lets us.
                [[maybe_unused]] const int ignored = ::ftruncate(w.fd, w.goodSize);
                return errnoText(error);
            }
            done += n;
        }
        w.goodSize += bytes.size();
        m_size = w.goodSize;
        w.unsynced = true;
        return std::nullopt;
    };

    auto setState = [&](State state, const QString &message) {
        {
            std::lock_guard lock(w.mutex);
            w.state = state;
            w.error = message;
        }
        w.written.notify_all();
        emit stateChanged();
    };

    bool stopping = false;
    while (true) {
        std::deque<Item> items;
        bool paused = false;
        {
            std::unique_lock lock(w.mutex);
            w.wake.wait_for(lock, flushInterval, [&] { return w.stop || w.flushRequested; });
            w.flushRequested = false;
            stopping = w.stop;
            paused = w.state == State::Paused;
            if (paused && !stopping && Clock::now() < w.nextRetry) {
                // Samples stay in the store and are recorded again on resume; events wait.
                std::erase_if(w.queue, [&w](const Item &item) {
                    if (item.samples)
                        w.drop(item);
                    return item.samples;
                });
                while (w.queue.size() > kMaxPausedEvents)
                    w.queue.pop_front();
                w.done = w.enqueued - w.queue.size();
                w.written.notify_all();
                continue;
            }
            items.swap(w.queue);
        }

        QByteArray out;
        if (paused) {
            // The file says when and why it has a gap.
            pb::Record pause = recordingEvent(pb::RecordingEvent::PAUSED, w.pausedMessage);
            pause.mutable_recording()->set_at_ms(w.pausedAtMs);
            appendRecord(out, pause);
            appendRecord(out, recordingEvent(pb::RecordingEvent::RESUMED));
            w.encoder.resetChains();
        }
        out.prepend(w.pending);
        QByteArray chunks;
        qint64 baseMs = 0;
        bool usesBase = false; // only key chunks need the base time: 7 bytes saved a second
        auto closeBatch = [&] {
            if (chunks.isEmpty())
                return;
            pb::Record record;
            if (usesBase)
                record.mutable_samples()->set_base_ms(baseMs);
            usesBase = false;
            record.mutable_samples()->set_chunks(chunks.constData(), std::size_t(chunks.size()));
            appendRecord(out, record);
            chunks.clear();
        };
        // Within a run of samples, series order (stable: one series' items keep theirs) lets
        // a chunk say "the next series" in a bit instead of naming it.
        for (auto run = items.begin(); run != items.end();) {
            const auto end = std::find_if(run, items.end(), [](const Item &item) { return !item.samples; });
            std::stable_sort(run, end, [](const Item &a, const Item &b) { return a.seriesId < b.seriesId; });
            run = end == items.end() ? end : end + 1;
        }
        for (Item &item : items) {
            if (item.samples) {
                if (chunks.isEmpty()) {
                    baseMs = item.timestampsMs.front();
                    w.encoder.beginBatch();
                }
                usesBase |= w.encoder.encode(chunks, baseMs, item.seriesId, item.timestampsMs, item.values);
                if (chunks.size() >= kMaxBatchBytes)
                    closeBatch();
            } else {
                closeBatch();
                appendRecord(out, item.record);
            }
        }
        closeBatch();
        if (stopping)
            appendRecord(out, recordingEvent(pb::RecordingEvent::CLOSED));

        if (!out.isEmpty()) {
            if (const std::optional<QString> error = writeAll(out)) {
                // What was in this write is gone: the next chunks must not depend on it.
                w.encoder.resetChains();
                w.nextRetry = Clock::now() + retryInterval;
                {
                    std::lock_guard lock(w.mutex);
                    // Events are put back to be written on resume; samples are not.
                    for (auto it = items.rbegin(); it != items.rend(); ++it) {
                        if (it->samples)
                            w.drop(*it);
                        else
                            w.queue.push_front(std::move(*it));
                    }
                    w.done = w.enqueued - std::min<quint64>(w.enqueued, w.queue.size());
                }
                const QString message = QStringLiteral("Recording paused: cannot write to %1: %2").arg(m_path, *error);
                if (!paused) {
                    w.pausedAtMs = nowMs();
                    w.pausedMessage = *error;
                    setState(State::Paused, message);
                }
                if (stopping)
                    break;
                continue;
            }
            w.pending.clear();
            if (paused)
                setState(State::Recording, QString());
        } else if (paused) {
            setState(State::Recording, QString());
        }
        {
            std::lock_guard lock(w.mutex);
            w.done = w.enqueued - w.queue.size();
        }
        w.written.notify_all();

        if (w.unsynced && (stopping || Clock::now() - w.lastSync >= syncInterval)) {
            ::fdatasync(w.fd);
            w.lastSync = Clock::now();
            w.unsynced = false;
        }
        if (stopping)
            break;
    }
    ::fsync(w.fd);
    ::close(w.fd);
    w.fd = -1;
    {
        std::lock_guard lock(w.mutex);
        w.state = State::Closed;
        w.queue.clear();
    }
    w.written.notify_all();
}
