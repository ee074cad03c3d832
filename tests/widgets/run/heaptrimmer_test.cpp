// SPDX-License-Identifier: GPL-3.0-or-later
// The heap a history load leaves behind is given back once the load has ended and things are
// quiet; not while requests are still being answered.
#include "fetching/dashboardpoller.h"
#include "prometheus/prometheusclient.h"
#include "run/heaptrimmer.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"
#include "waitfor.h"

#include <gtest/gtest.h>

namespace {

struct Poller
{
    Poller() : client(connection()), poller(&client, &store, &window) {}
    static PrometheusConnection connection()
    {
        PrometheusConnection c;
        c.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9")); // never polled
        return c;
    }
    PrometheusClient client;
    SampleStore store;
    TimeWindow window;
    DashboardPoller poller;
};

} // namespace

TEST(HeapTrimmer, TrimsOnceWhenALoadHasEnded)
{
    Poller p;
    HeapTrimmer trimmer(&p.poller);
    emit p.poller.backfillProgress(0, 40);
    emit p.poller.backfillProgress(40, 40);
    ASSERT_TRUE(waitFor([&] { return trimmer.trims() == 1; }, 10000));
}

TEST(HeapTrimmer, ALoadThatGoesOnPutsTheTrimOff)
{
    Poller p;
    HeapTrimmer trimmer(&p.poller);
    emit p.poller.backfillProgress(40, 40);
    emit p.poller.backfillProgress(0, 12); // a zoom into time not fetched yet, at once
    // Nothing while it loads, however long that takes (well past the quiet period).
    EXPECT_FALSE(waitFor([&] { return trimmer.trims() > 0; }, 3000));
    emit p.poller.backfillProgress(12, 12);
    ASSERT_TRUE(waitFor([&] { return trimmer.trims() == 1; }, 10000));
}
