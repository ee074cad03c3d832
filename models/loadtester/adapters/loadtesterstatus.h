// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>

// What a load tester reports about itself, in the vocabulary of the control panel. Fields a
// backend does not have stay empty.
struct LoadTesterStatus
{
    double rate = 0;                  // the "load" set-point: requests/s (starter), users
                                      // (Locust), VUs (k6)
    std::optional<int> inflightLimit; // 0 = unlimited
    std::optional<int> inflight;
    std::optional<int> pending;
    std::optional<int> poolSize;
    std::optional<double> observedRate; // what it actually does, when it reports that (Locust total_rps)
    std::optional<double> failRatio;    // share of failed requests, 0..1, when reported (Locust fail_ratio)
    std::optional<double> maxRate;      // highest set-point the backend takes right now (k6 vus-max)
    std::optional<qint64> sent;         // requests handed out since start, when reported (starter)
    bool paused = false;
    QString state;       // backend's own word: "running", "stopped", "spawning"…
    QString instance;    // stable name of the replica
    qint64 version = -1; // change counter, -1 when the backend has none
};

// Which controls a backend supports; a control it cannot do is disabled with the reason as
// its tooltip.
struct LoadTesterCapabilities
{
    QString kind;      // "Chaoscope starter", "Locust", "k6"
    QString rateLabel; // "rate", "users", "VUs"
    QString rateUnit;  // "/s", "", ""
    bool canSetRate = true;
    QString rateUnavailable;
    bool canSetInflightLimit = true;
    QString inflightLimitUnavailable;
    bool canPause = true;
    QString pauseUnavailable;
};
