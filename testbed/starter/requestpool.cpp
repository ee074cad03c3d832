// SPDX-License-Identifier: GPL-3.0-or-later
#include "requestpool.h"

#include "latencyhistogram.h"
#include "loadcounters.h"

#include <QLoggingCategory>
#include <stdexcept>
#include <string>

Q_LOGGING_CATEGORY(lcPool, "chaoscope.starter.pool")

namespace {

constexpr int statusNoAnswer = 599;
constexpr auto dropLogInterval = std::chrono::seconds(10);

size_t discardBody(char *, size_t size, size_t count, void *)
{
    return size * count;
}

void check(CURLMcode code, const char *what)
{
    if (code != CURLM_OK)
        throw std::runtime_error(std::string(what) + ": " + curl_multi_strerror(code));
}

void check(CURLcode code, const char *what)
{
    if (code != CURLE_OK)
        throw std::runtime_error(std::string(what) + ": " + curl_easy_strerror(code));
}

} // namespace

RequestPool::RequestPool(Options options, LoadCounters &counters, LatencyHistogram &histogram)
    : m_options(std::move(options)), m_counters(counters), m_histogram(histogram)
{
    m_multi = curl_multi_init();
    if (!m_multi)
        throw std::runtime_error("curl_multi_init failed");
    const long poolSize = m_options.poolSize;
    // We never hand curl more than poolSize transfers, so these only make sure curl keeps
    // exactly that many connections open for reuse and does not queue on its own.
    check(curl_multi_setopt(m_multi, CURLMOPT_MAX_HOST_CONNECTIONS, poolSize), "max host connections");
    check(curl_multi_setopt(m_multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, poolSize), "max total connections");
    check(curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, poolSize), "connection cache size");
    check(curl_multi_setopt(m_multi, CURLMOPT_PIPELINING, long(CURLPIPE_NOTHING)), "pipelining");

    m_headers = curl_slist_append(m_headers, "Content-Type: application/json");
    m_headers = curl_slist_append(m_headers, "Accept: application/json");
    // No "Expect: 100-continue" round trip for a body of a few bytes.
    m_headers = curl_slist_append(m_headers, "Expect:");
    if (!m_headers)
        throw std::runtime_error("curl_slist_append failed");
    m_transfers.reserve(static_cast<std::size_t>(m_options.poolSize));
    m_idle.reserve(static_cast<std::size_t>(m_options.poolSize));
}

RequestPool::~RequestPool()
{
    for (const auto &transfer : m_transfers) {
        curl_multi_remove_handle(m_multi, transfer->easy); // harmless for idle handles
        curl_easy_cleanup(transfer->easy);
    }
    curl_multi_cleanup(m_multi);
    curl_slist_free_all(m_headers);
    m_counters.pending = 0;
    m_counters.leased = 0;
}

CURL *RequestPool::makeEasyHandle(Transfer *transfer)
{
    CURL *easy = curl_easy_init();
    if (!easy)
        throw std::runtime_error("curl_easy_init failed");
    check(curl_easy_setopt(easy, CURLOPT_URL, m_options.url.constData()), "url");
    check(curl_easy_setopt(easy, CURLOPT_POST, 1L), "post");
    // m_options.body lives as long as the pool, so curl need not copy it.
    check(curl_easy_setopt(easy, CURLOPT_POSTFIELDS, m_options.body.constData()), "body");
    check(curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, long(m_options.body.size())), "body size");
    check(curl_easy_setopt(easy, CURLOPT_HTTPHEADER, m_headers), "headers");
    check(curl_easy_setopt(easy, CURLOPT_USERAGENT, "chaoscope-starter/" CHAOSCOPE_STARTER_VERSION), "user agent");
    check(curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &discardBody), "write function");
    check(curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L), "nosignal");
    check(curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer), "private");
    return easy;
}

RequestPool::Admission RequestPool::submit(Clock::time_point scheduledAt)
{
    if (static_cast<qint64>(m_pending.size()) >= m_options.maxPending) {
        noteDropped();
        return Admission::Dropped;
    }
    m_pending.push_back(scheduledAt);
    ++m_counters.sent;
    publishGauges();
    return Admission::Accepted;
}

void RequestPool::noteDropped()
{
    ++m_counters.dropped;
    ++m_droppedSinceLog;
    const auto now = Clock::now();
    if (m_lastDropLog && now - *m_lastDropLog < dropLogInterval)
        return;
    // Loud, but at most once per interval: at 10,000 drops per second a line per drop would
    // turn the log into the next unbounded queue.
    qCWarning(lcPool,
              "pending FIFO is full (--max-pending %lld): dropped %lld request(s) since the last "
              "report; the target cannot keep up, consider --inflight-limit",
              static_cast<long long>(m_options.maxPending), static_cast<long long>(m_droppedSinceLog));
    m_droppedSinceLog = 0;
    m_lastDropLog = now;
}

std::optional<RequestPool::Clock::time_point> RequestPool::nextPendingDeadline() const
{
    if (m_pending.empty())
        return std::nullopt;
    return m_pending.front() + m_options.deadline;
}

void RequestPool::expirePending(Clock::time_point now)
{
    // The deadline is the same for every request, so the FIFO is also in deadline order.
    while (!m_pending.empty() && m_pending.front() + m_options.deadline <= now) {
        const Clock::time_point scheduledAt = m_pending.front();
        m_pending.pop_front();
        finish(scheduledAt, now, statusNoAnswer);
    }
}

void RequestPool::leaseConnections(Clock::time_point now)
{
    while (!m_pending.empty() && m_leased < m_options.poolSize) {
        Transfer *transfer = nullptr;
        if (!m_idle.empty()) {
            transfer = m_idle.back();
            m_idle.pop_back();
        } else {
            auto owned = std::make_unique<Transfer>();
            owned->easy = makeEasyHandle(owned.get());
            transfer = owned.get();
            m_transfers.push_back(std::move(owned));
        }
        transfer->scheduledAt = m_pending.front();
        const auto remaining =
            std::chrono::duration_cast<std::chrono::milliseconds>(transfer->scheduledAt + m_options.deadline - now);
        // expirePending() ran just before, so there is time left; at least 1 ms, as 0 would
        // mean "no timeout" to curl.
        const long timeoutMs = std::max<long>(1, static_cast<long>(remaining.count()));
        CURLcode set = curl_easy_setopt(transfer->easy, CURLOPT_TIMEOUT_MS, timeoutMs);
        CURLMcode added = set == CURLE_OK ? curl_multi_add_handle(m_multi, transfer->easy) : CURLM_OK;
        if (set != CURLE_OK || added != CURLM_OK) {
            m_idle.push_back(transfer); // the request stays pending; the error surfaces loudly
            check(set, "set timeout");
            check(added, "curl_multi_add_handle");
        }
        m_pending.pop_front();
        ++m_leased;
    }
    publishGauges();
}

bool RequestPool::harvest()
{
    bool any = false;
    int queued = 0;
    while (CURLMsg *message = curl_multi_info_read(m_multi, &queued)) {
        if (message->msg != CURLMSG_DONE)
            continue;
        CURL *easy = message->easy_handle;
        const CURLcode result = message->data.result;
        Transfer *transfer = nullptr;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, &transfer);
        long httpStatus = 0;
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &httpStatus);
        curl_multi_remove_handle(m_multi, easy);
        --m_leased;
        m_idle.push_back(transfer);
        // An answer that did not arrive completely (deadline, reset) is no answer.
        const int status = result == CURLE_OK && httpStatus > 0 ? static_cast<int>(httpStatus) : statusNoAnswer;
        finish(transfer->scheduledAt, Clock::now(), status);
        any = true;
    }
    return any;
}

void RequestPool::pump()
{
    Clock::time_point now = Clock::now();
    expirePending(now);
    leaseConnections(now);
    int running = 0;
    check(curl_multi_perform(m_multi, &running), "curl_multi_perform");
    // Connections freed by this round go straight to the FIFO's head, not one poll later.
    if (harvest() && !m_pending.empty()) {
        now = Clock::now();
        expirePending(now);
        leaseConnections(now);
        check(curl_multi_perform(m_multi, &running), "curl_multi_perform");
        harvest();
    }
    publishGauges();
}

void RequestPool::poll(std::chrono::milliseconds timeout)
{
    const int ms = static_cast<int>(std::max<std::chrono::milliseconds::rep>(0, timeout.count()));
    check(curl_multi_poll(m_multi, nullptr, 0, ms, nullptr), "curl_multi_poll");
}

void RequestPool::wakeup()
{
    curl_multi_wakeup(m_multi);
}

void RequestPool::finish(Clock::time_point scheduledAt, Clock::time_point now, int status)
{
    if (status >= 200 && status < 300)
        ++m_counters.succeeded;
    else
        ++m_counters.failed;
    m_histogram.record(status, std::chrono::duration<double>(now - scheduledAt).count());
}

void RequestPool::publishGauges()
{
    m_counters.pending = static_cast<qint32>(m_pending.size());
    m_counters.leased = m_leased;
}
