// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/adapters/loadtesteradapter.h"

#include "base/whenfinished.h"

#include <QDeadlineTimer>
#include <QPromise>
#include <QTimer>

namespace {

// Polls the adapter's status until it has settled or the deadline passes. A child of the
// adapter: if the adapter goes first, the promise goes with it and the future is canceled.
class ReadBack : public QObject
{
public:
    ReadBack(LoadTesterAdapter *adapter, std::function<bool(const LoadTesterStatus &)> settled, int deadlineMs,
             int intervalMs)
        : QObject(adapter), m_adapter(adapter), m_settled(std::move(settled)), m_deadline(std::max(deadlineMs, 0)),
          m_intervalMs(std::max(intervalMs, 1))
    {
        m_promise.start();
    }

    LoadTesterAdapter::Reply start()
    {
        poll();
        return m_promise.future();
    }

private:
    void poll()
    {
        whenFinished(m_adapter->status(), this, [this](const Result<LoadTesterStatus> &status) { onStatus(status); });
    }

    void onStatus(const Result<LoadTesterStatus> &status)
    {
        if (!status.ok() || m_settled(status.value()) || m_deadline.hasExpired()) {
            m_promise.addResult(status);
            m_promise.finish();
            deleteLater();
            return;
        }
        const int wait = int(std::min<qint64>(m_intervalMs, std::max<qint64>(m_deadline.remainingTime(), 0)));
        QTimer::singleShot(wait, this, [this] { poll(); });
    }

    LoadTesterAdapter *m_adapter;
    std::function<bool(const LoadTesterStatus &)> m_settled;
    QDeadlineTimer m_deadline;
    int m_intervalMs;
    QPromise<Result<LoadTesterStatus>> m_promise;
};

} // namespace

LoadTesterAdapter::Reply LoadTesterAdapter::readBackUntil(Settled settled, int deadlineMs, int intervalMs)
{
    auto *job = new ReadBack(this, std::move(settled), deadlineMs, intervalMs);
    return job->start();
}
