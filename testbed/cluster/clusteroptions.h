// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "optionreader.h"

#include <QString>

struct ClusterOptions
{
    QString configFile;
    quint16 port = 6443;
    quint16 metricsPort = 0;
    QString tokenFile;   // empty: no authentication (loopback only in any case)
    QString tlsCertFile; // with the key: https (kubectl sends tokens over https only)
    QString tlsKeyFile;
    QString serviceDiscoveryFile;
    QString logDir;
    QString binDir;
    int watchHistory = 1000;
};

// The command line of chaoscope-cluster; pure, for tests.
class ClusterOptionsParser
{
public:
    using Outcome = OptionReader::Outcome;
    ClusterOptionsParser();
    Outcome parse(const QStringList &arguments);
    const ClusterOptions &options() const { return m_options; }
    QString errorText() const { return m_reader.errorText(); }
    QString helpText() const { return m_reader.helpText(); }

private:
    bool read();

    OptionReader m_reader;
    ClusterOptions m_options;
};
