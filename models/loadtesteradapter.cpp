// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtesteradapter.h"

#include "k6adapter.h"
#include "locustadapter.h"
#include "starteradapter.h"
#include "whenfinished.h"

#include <QDeadlineTimer>
#include <QPromise>
#include <QTimer>

namespace {

// Polls the adapter's status until it has settled or the deadline passes. A child of the
// adapter: if the adapter goes first, the promise goes with it and the future is canceled.
class ReadBack : public QObject
{
public:
    ReadBack(LoadTesterAdapter *adapter, std::function<bool(const LoadTesterStatus &)> settled,
             int deadlineMs, int intervalMs)
        : QObject(adapter),
          m_adapter(adapter),
          m_settled(std::move(settled)),
          m_deadline(std::max(deadlineMs, 0)),
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
        whenFinished(m_adapter->status(), this,
                     [this](const Result<LoadTesterStatus> &status) { onStatus(status); });
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

LoadTesterAdapter::Reply finishedReply(Result<LoadTesterStatus> result)
{
    QPromise<Result<LoadTesterStatus>> promise;
    promise.start();
    promise.addResult(std::move(result));
    promise.finish();
    return promise.future();
}

std::unique_ptr<LoadTesterAdapter> makeLoadTesterAdapter(const QString &kind, const QUrl &baseUrl,
                                                         const QString &bearerToken, QObject *parent)
{
    const QString name = kind.trimmed().toLower();
    if (name == QLatin1String("starter"))
        return std::make_unique<StarterAdapter>(baseUrl, bearerToken, parent);
    if (name == QLatin1String("locust"))
        return std::make_unique<LocustAdapter>(baseUrl, bearerToken, parent);
    if (name == QLatin1String("k6"))
        return std::make_unique<K6Adapter>(baseUrl, bearerToken, parent);
    return nullptr;
}
