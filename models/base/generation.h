// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/whenfinished.h"

#include <QFuture>
#include <QObject>
#include <QtGlobal>
#include <utility>

// "A newer request supersedes the older one", the one way the house does it. Whoever asks a
// question that can be asked again (the query of a panel, the status of a load tester, the
// targets of a job) takes the current ticket with the question; when the question changes
// (a new dashboard, new replicas, a restarted scenario) it advances the generation, and
// every answer that arrives with an older ticket is dropped instead of overwriting newer
// news. Cheap enough to keep one per query or per replica.
class Generation
{
public:
    using Ticket = quint64;

    Ticket current() const { return m_current; }
    // What was asked before no longer counts; returns the ticket of what is asked from now on.
    Ticket advance() { return ++m_current; }
    bool isCurrent(Ticket ticket) const { return ticket == m_current; }

private:
    Ticket m_current = 0;
};

// whenFinished() for a superseding question: calls callback(result) on context's thread when
// the future finishes, unless `generation` has advanced since this call. `generation` must
// live as long as `context` (a member of it, typically).
template<typename T, typename Callback>
void whenFinishedIfCurrent(const QFuture<T> &future, QObject *context, const Generation &generation,
                           Callback &&callback)
{
    whenFinished(future, context,
                 [&generation, ticket = generation.current(),
                  callback = std::forward<Callback>(callback)](const T &result) mutable {
                     if (generation.isCurrent(ticket))
                         callback(result);
                 });
}
