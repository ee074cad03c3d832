// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadtester/adapters/loadtesteradapter.h"
#include "net/loadtesterhttp.h"
#include "net/parseoffthread.h"

#include <QJsonObject>

// k6 up to 1.x through its REST API (k6 run --address): GET /v1/status, and PATCH /v1/status
// with a JSON:API document to set the VUs (only with the externally-controlled executor; other
// executors answer with an error) or to pause and resume. The PATCH answers the status after
// the change; when the active VUs lag behind it, the status is read again for a few seconds.
class K6Adapter : public LoadTesterAdapter
{
    Q_OBJECT
public:
    K6Adapter(QUrl baseUrl, const QString &bearerToken = {}, QObject *parent = nullptr);

    LoadTesterCapabilities capabilities() const override;

    Reply status() override;
    Reply setRate(double vus) override;
    Reply setInflightLimit(int limit) override;
    Reply pause() override;
    Reply resume() override;

    // How long a change waits for k6 to report the asked VUs before answering the status as
    // it is.
    void setSettleTimeoutMs(int ms) { m_settleTimeoutMs = ms; }

    // The answer of GET or PATCH /v1/status as a status, or the error in words (k6's
    // {"errors":[…]} with title and detail). Pure (runs on a worker thread); public for tests.
    static Result<LoadTesterStatus> parseAnswer(const HttpAnswer &answer);

private:
    Reply patch(const QJsonObject &attributes, const Settled &settled);

    LoadTesterHttp *m_http;
    int m_settleTimeoutMs = 5000;
};
