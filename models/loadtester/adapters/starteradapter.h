// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadtester/adapters/loadtesteradapter.h"
#include "net/loadtesterhttp.h"
#include "net/parseoffthread.h"

// The Chaoscope starter's admin API (docs/admin-api.md): every change is one request whose
// answer is the status after the change, so that answer is the read-back.
class StarterAdapter : public LoadTesterAdapter
{
    Q_OBJECT
public:
    StarterAdapter(QUrl baseUrl, const QString &bearerToken = {}, QObject *parent = nullptr);

    LoadTesterCapabilities capabilities() const override;

    Reply status() override;
    Reply setRate(double rate) override;
    Reply setInflightLimit(int limit) override;
    Reply pause() override;
    Reply resume() override;

    // The answer of any admin endpoint as a status, or the error in words: the problem+json
    // detail with the HTTP status, or why the answer is not a status. Pure (runs on a worker
    // thread); public for unit tests. tokenSent says whether a 401 means a wrong token or a
    // missing one.
    static Result<LoadTesterStatus> parseAnswer(const HttpAnswer &answer, bool tokenSent);

private:
    Reply change(const QByteArray &method, const QString &path, const QByteArray &jsonBody = {});

    LoadTesterHttp *m_http;
    bool m_tokenSent;
};
