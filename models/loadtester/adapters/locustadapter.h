// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadtester/adapters/loadtesteradapter.h"
#include "net/loadtesterhttp.h"
#include "net/parseoffthread.h"

// Locust 2.x through its web UI's endpoints. Locust runs a closed model, so the "rate" is the
// number of users: POST /swarm (user_count, spawn_rate) sets it, GET /stop stops every user
// ("pause"), and "resume" swarms again with the users it had. Users are spawned at the spawn
// rate, so a change is read back from GET /stats/requests until the user count has reached
// the target or a deadline has passed; then the status is answered as it is and the caller
// sees honestly that Locust is still spawning. Note that a swarm starts a stopped Locust:
// it has no way to set users without running them.
class LocustAdapter : public LoadTesterAdapter
{
    Q_OBJECT
public:
    LocustAdapter(QUrl baseUrl, const QString &bearerToken = {}, QObject *parent = nullptr);

    LoadTesterCapabilities capabilities() const override;

    Reply status() override;
    Reply setRate(double users) override;
    Reply setInflightLimit(int limit) override;
    Reply pause() override;
    Reply resume() override;

    // Users started (or stopped) per second by a change; 0 (the default) = automatic: a
    // tenth of the larger of the old and the new user count, at least 1, so that any change
    // takes about ten seconds.
    void setSpawnRate(double usersPerSecond) { m_spawnRate = usersPerSecond; }
    double spawnRate() const { return m_spawnRate; }
    // The spawn rate a change from `fromUsers` to `toUsers` is sent with.
    double effectiveSpawnRate(int fromUsers, int toUsers) const;

    // How long a change waits for Locust to get there before answering the state as it is;
    // 0 (the default) = automatic: the spawning time at the spawn rate plus 10 s (Locust
    // caches its statistics for 2 s), at most 2 minutes.
    void setSettleTimeoutMs(int ms) { m_settleTimeoutMs = ms; }

    // The users "resume" swarms with: the last user count Locust ran steadily with, or the
    // last one set. 0 while unknown.
    int resumeUsers() const { return m_resumeUsers; }

    // Pure (run on a worker thread); public for unit tests.
    static Result<LoadTesterStatus> parseStats(const HttpAnswer &answer);
    static Result<bool> parseCommandAnswer(const HttpAnswer &answer);

private:
    Reply swarm(int users);
    Reply stop();
    void remember(const LoadTesterStatus &status);
    int settleTimeoutMs(int fromUsers, int toUsers, double spawnRate) const;

    LoadTesterHttp *m_http;
    double m_spawnRate = 0;
    int m_settleTimeoutMs = 0;
    int m_resumeUsers = 0;
    int m_lastUsers = 0; // the last user count read, for the automatic spawn rate
};
