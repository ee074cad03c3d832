// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/adapters/adapterfactory.h"

#include "loadtester/adapters/k6adapter.h"
#include "loadtester/adapters/locustadapter.h"
#include "loadtester/adapters/starteradapter.h"

std::unique_ptr<LoadTesterAdapter> makeLoadTesterAdapter(const QString &kind, const QUrl &baseUrl,
                                                         const AdapterOptions &options, QObject *parent)
{
    const QString name = kind.trimmed().toLower();
    if (name == QLatin1String("starter"))
        return std::make_unique<StarterAdapter>(baseUrl, options.bearerToken, parent);
    if (name == QLatin1String("locust")) {
        auto locust = std::make_unique<LocustAdapter>(baseUrl, options.bearerToken, parent);
        if (options.spawnRate > 0)
            locust->setSpawnRate(options.spawnRate);
        return locust;
    }
    if (name == QLatin1String("k6"))
        return std::make_unique<K6Adapter>(baseUrl, options.bearerToken, parent);
    return nullptr;
}
