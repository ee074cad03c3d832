// SPDX-License-Identifier: GPL-3.0-or-later
#include "clusteroptions.h"

namespace {

const QCommandLineOption configOption(QStringLiteral("config"),
                                      QStringLiteral("The cluster's config file: namespace and "
                                                     "workloads (JSON; see testbed/README.md)."),
                                      QStringLiteral("file"));
const QCommandLineOption portOption(QStringLiteral("port"),
                                    QStringLiteral("API port on 127.0.0.1 (default 6443; 0 = the "
                                                   "OS picks)."),
                                    QStringLiteral("port"), QStringLiteral("6443"));
const QCommandLineOption
    metricsPortOption(QStringLiteral("metrics-port"),
                      QStringLiteral("Port of the kube-state-metrics endpoint /metrics, without authentication "
                                     "(default 0 = the OS picks)."),
                      QStringLiteral("port"), QStringLiteral("0"));
const QCommandLineOption tokenOption(QStringLiteral("token-file"),
                                     QStringLiteral("Bearer tokens every API request must carry: "
                                                    "token,user,uid,\"groups\" per line, or one "
                                                    "token."),
                                     QStringLiteral("file"));
const QCommandLineOption certOption(QStringLiteral("tls-cert-file"),
                                    QStringLiteral("Serve https with this certificate (PEM)."), QStringLiteral("file"));
const QCommandLineOption keyOption(QStringLiteral("tls-private-key-file"),
                                   QStringLiteral("The certificate's private key (PEM)."), QStringLiteral("file"));
const QCommandLineOption sdOption(QStringLiteral("sd-file"),
                                  QStringLiteral("Prometheus file_sd_configs file to keep up to "
                                                 "date with the running pods."),
                                  QStringLiteral("file"));
const QCommandLineOption logDirOption(QStringLiteral("log-dir"),
                                      QStringLiteral("Folder for the pods' output "
                                                     "(<namespace>_<pod>.log)."),
                                      QStringLiteral("dir"));
const QCommandLineOption binDirOption(QStringLiteral("bin-dir"),
                                      QStringLiteral("Where the images' programs are, before the "
                                                     "build tree next to chaoscope-cluster and "
                                                     "$PATH."),
                                      QStringLiteral("dir"));
const QCommandLineOption historyOption(QStringLiteral("watch-history"),
                                       QStringLiteral("Changes kept for watches to resume from; "
                                                      "an older resourceVersion gets 410 Gone "
                                                      "(default 1000)."),
                                       QStringLiteral("n"), QStringLiteral("1000"));

} // namespace

ClusterOptionsParser::ClusterOptionsParser()
    : m_reader(QStringLiteral("A small Kubernetes API server whose Deployments and StatefulSets run the testbed's "
                              "programs as processes on this machine, for kubectl and Chaoscope (see "
                              "testbed/README.md). Listens on 127.0.0.1 only."),
               {configOption, portOption, metricsPortOption, tokenOption, certOption, keyOption, sdOption, logDirOption,
                binDirOption, historyOption})
{}

ClusterOptionsParser::Outcome ClusterOptionsParser::parse(const QStringList &arguments)
{
    m_options = ClusterOptions{};
    const Outcome outcome = m_reader.start(arguments);
    if (outcome != Outcome::Run)
        return outcome;
    return read() ? Outcome::Run : Outcome::Invalid;
}

bool ClusterOptionsParser::read()
{
    m_options.configFile = m_reader.value(configOption);
    if (m_options.configFile.isEmpty())
        return m_reader.fail(QStringLiteral("--config is required"));
    if (!m_reader.port(portOption, &m_options.port) || !m_reader.port(metricsPortOption, &m_options.metricsPort) ||
        !m_reader.integer(historyOption, 10, 1000000, &m_options.watchHistory))
        return false;
    m_options.tokenFile = m_reader.value(tokenOption);
    m_options.tlsCertFile = m_reader.value(certOption);
    m_options.tlsKeyFile = m_reader.value(keyOption);
    if (m_options.tlsCertFile.isEmpty() != m_options.tlsKeyFile.isEmpty())
        return m_reader.fail(QStringLiteral("--tls-cert-file and --tls-private-key-file go together"));
    // client-go reads a kubeconfig's credentials only for a TLS server: a token over http
    // would never arrive, and every kubectl call would end in 401.
    if (!m_options.tokenFile.isEmpty() && m_options.tlsCertFile.isEmpty())
        return m_reader.fail(QStringLiteral("--token-file needs --tls-cert-file and "
                                            "--tls-private-key-file: kubectl sends bearer tokens over "
                                            "https only"));
    m_options.serviceDiscoveryFile = m_reader.value(sdOption);
    m_options.logDir = m_reader.value(logDirOption);
    m_options.binDir = m_reader.value(binDirOption);
    return true;
}
