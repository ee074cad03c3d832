// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "base/timerange.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace chaoscope::session::v1 {
class Header;
class Record;
} // namespace chaoscope::session::v1

// Appends records to a session file on its own thread, so the UI thread only hands over
// values. What is queued is encoded and written at least every flush interval (one write per
// flush: a crash loses at most that much), fsync'd on a timer and on close.
//
// A write error (disk full, file system gone) does not stop anything else: the writer drops
// the incomplete write, reports the state Paused with the reason, keeps the events (not the
// samples: they stay in the store and are recorded again on resume) and tries again every
// retry interval. All methods may be called from the owning thread; stateChanged() is
// emitted from the writer thread (connect it queued, or let AutoConnection do so).
class SessionWriter : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int flushIntervalMs = 1000;
        int syncIntervalMs = 5000;
        int retryIntervalMs = 5000;
        qint64 keyIntervalMs = 60'000; // sample chains restart this often (docs/sessions.md)
    };
    enum class State
    {
        Closed,
        Recording,
        Paused
    };
    Q_ENUM(State)

    explicit SessionWriter(QObject *parent = nullptr);
    explicit SessionWriter(Options options, QObject *parent = nullptr);
    ~SessionWriter() override; // closes

    // Starts a new file (creating its folder): preamble, then `header`. Errors when the file
    // cannot be created, or exists and is not empty (a recording is never overwritten).
    std::optional<Error> create(const QString &path, const chaoscope::session::v1::Header &header);
    // Continues an existing session file after its last intact record (`validEnd`, from the
    // reader): a torn tail is cut off first. Errors when it cannot be opened for writing.
    std::optional<Error> openForAppend(const QString &path, qint64 validEnd);

    // Queue for the next flush (copies). Ignored when closed.
    void append(const chaoscope::session::v1::Record &record);
    void appendSamples(quint32 seriesId, std::vector<qint64> timestampsMs, std::vector<double> values);

    // Waits until everything queued so far is written (or the writer paused). For "Save as"
    // of a live session and for tests; never needed for safety.
    void flush();
    // Writes what is queued and a closing record, fsyncs, stops the thread. Idempotent.
    void close();

    QString path() const { return m_path; }
    qint64 fileSize() const { return m_size.load(); }
    State state() const;
    QString lastError() const; // why it paused; empty while recording
    // The spans of samples (per series id) that a write error or a pause dropped since the
    // last call: to be recorded again once writing works (they are still in the store).
    std::vector<std::pair<quint32, TimeRange>> takeDroppedSamples();

signals:
    void stateChanged();

private:
    struct Item;
    struct Worker;

    std::optional<Error> start(const QString &path, int fd, qint64 validEnd, bool fresh, const QByteArray &firstBytes);
    void enqueue(Item item);
    void run();

    Options m_options;
    QString m_path;
    std::unique_ptr<Worker> m_worker;
    std::atomic<qint64> m_size{0};
    std::thread m_thread;
};
