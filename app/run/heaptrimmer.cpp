// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/heaptrimmer.h"

#include "fetching/dashboardpoller.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

// Long enough for the charts' render jobs over the loaded history to have finished.
constexpr int kQuietMs = 2000;

} // namespace

HeapTrimmer::HeapTrimmer(DashboardPoller *poller, QObject *parent) : QObject(parent)
{
    m_quiet.setSingleShot(true);
    m_quiet.setInterval(kQuietMs);
    connect(&m_quiet, &QTimer::timeout, this, &HeapTrimmer::trim);
    connect(poller, &DashboardPoller::backfillProgress, this, [this](int done, int total) {
        if (total > 0 && done >= total)
            m_quiet.start();
        else
            m_quiet.stop(); // still loading: trimming now would only be undone
    });
}

void HeapTrimmer::trim()
{
    ++m_trims;
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
