// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadtester/adapters/loadtesteradapter.h"

#include <QString>
#include <QUrl>
#include <memory>

// How to reach one replica, whatever its backend.
struct AdapterOptions
{
    // Sent as "Authorization: Bearer" to any backend: the starter checks it, and a reverse
    // proxy in front of Locust or k6 may want one.
    QString bearerToken;
    double spawnRate = 0; // Locust: users started per second on a change; 0 = the adapter's default
};

// Backends by name: "starter" (the Chaoscope admin API), "locust", "k6". Returns nullptr for
// an unknown kind.
std::unique_ptr<LoadTesterAdapter> makeLoadTesterAdapter(const QString &kind, const QUrl &baseUrl,
                                                         const AdapterOptions &options = {}, QObject *parent = nullptr);
