// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "net/httpexchange.h"
#include "net/promisejob.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>
#include <utility>

namespace ParseOffThreadDetail {

// The answer's way to a worker thread and back. A child of the context: if the context goes
// first, this goes with it and the future is cancelled. Cancelling the future (or this going)
// cancels the answer, so that a superseded request stops on the wire too.
template<typename T, typename Parse> class Job : public PromiseJob<Result<T>>
{
public:
    Job(QFuture<Result<HttpAnswer>> answer, Parse parse, QObject *context)
        : PromiseJob<Result<T>>(context), m_answer(std::move(answer)), m_parse(std::move(parse))
    {
        QObject::connect(&m_answerWatcher, &QFutureWatcherBase::finished, this, [this] { answered(); });
        m_answerWatcher.setFuture(m_answer);
    }

    ~Job() override { cancelAnswer(); }

private:
    void cancelled() override { cancelAnswer(); }

    void cancelAnswer()
    {
        if (!m_answer.isFinished())
            m_answer.cancel();
    }

    void answered()
    {
        if (m_answerWatcher.isCanceled() || m_answerWatcher.future().resultCount() == 0) {
            this->answerNothing(); // the answer's producer went away
            return;
        }
        // A copy (the body is shared, not copied): others may watch the same answer.
        Result<HttpAnswer> received = m_answerWatcher.future().result();
        if (!received.ok()) {
            this->answer(Result<T>(received.error())); // a transport failure passes through unparsed
            return;
        }
        QObject::connect(&m_parsed, &QFutureWatcherBase::finished, this, [this] {
            if (m_parsed.isCanceled() || m_parsed.future().resultCount() == 0)
                this->answerNothing(); // the thread pool gave up on it
            else
                this->answer(m_parsed.future().takeResult());
        });
        m_parsed.setFuture(QtConcurrent::run(
            [parse = m_parse, http = std::move(received).value()]() -> Result<T> { return parse(http); }));
    }

    QFuture<Result<HttpAnswer>> m_answer;
    Parse m_parse;
    QFutureWatcher<Result<HttpAnswer>> m_answerWatcher;
    QFutureWatcher<Result<T>> m_parsed;
};

} // namespace ParseOffThreadDetail

// Runs parse(answer) on a worker thread (the house rule: no parsing on the UI thread) and
// answers its result on context's thread; a transport failure passes through unparsed. If
// context dies first, the returned future is cancelled; cancelling it cancels `answer`.
// `parse` must be safe to call on another thread: a function of the answer alone.
template<typename T, typename Parse>
QFuture<Result<T>> parseOffThread(const QFuture<Result<HttpAnswer>> &answer, QObject *context, Parse parse)
{
    auto *job = new ParseOffThreadDetail::Job<T, Parse>(answer, std::move(parse), context);
    return job->future();
}
