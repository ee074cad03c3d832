// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <utility>

// A job that answers one future on its QObject's thread and deletes itself once it has: the
// house's way to run a request's steps (a turn, an attempt, a parse, the chunks of a range)
// behind a QFuture. The one place that knows the rules of such a job:
// - answer(result) gives the future its result, once; whatever comes later is dropped;
// - answerNothing() ends it without one: whoever watches the future learns it was cancelled;
// - when the caller cancels the future, cancelled() stops the work under way, then the job ends;
// - ending runs closing() (give back what the job holds), finishes the future, deletes the job;
// - a child of its parent: if the parent goes first, the job goes too and the future is
//   cancelled (QPromise's destructor).
template<typename T> class PromiseJob : public QObject
{
public:
    QFuture<T> future() const { return m_promise.future(); }

protected:
    explicit PromiseJob(QObject *parent) : QObject(parent)
    {
        m_promise.start();
        connect(&m_outer, &QFutureWatcherBase::canceled, this, [this] {
            if (m_done)
                return;
            cancelled();
            end();
        });
        m_outer.setFuture(m_promise.future());
    }

    // The caller cancelled the future: stop what is under way (the job then ends).
    virtual void cancelled() {}
    // The job ends, answered or not: give back what it holds (a turn, a timer).
    virtual void closing() {}

    void answer(T result)
    {
        if (m_done)
            return;
        m_promise.addResult(std::move(result)); // ignored when the caller cancelled
        end();
    }
    void answerNothing()
    {
        if (m_done)
            return;
        m_promise.future().cancel();
        end();
    }
    bool isDone() const { return m_done; }

private:
    void end()
    {
        m_done = true;
        closing();
        m_promise.finish();
        deleteLater();
    }

    QPromise<T> m_promise;
    QFutureWatcher<T> m_outer; // after m_promise: destroyed before it
    bool m_done = false;
};
