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
{
    m_parser.setApplicationDescription(
        QStringLiteral("A small Kubernetes API server whose Deployments and StatefulSets run the testbed's "
                       "programs as processes on this machine, for kubectl and Chaoscope (see "
                       "testbed/README.md). Listens on 127.0.0.1 only."));
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addOptions({configOption, portOption, metricsPortOption, tokenOption, certOption, keyOption, sdOption,
                         logDirOption, binDirOption, historyOption});
}

ClusterOptionsParser::Outcome ClusterOptionsParser::parse(const QStringList &arguments)
{
    m_options = ClusterOptions{};
    m_error.clear();
    if (!m_parser.parse(arguments)) {
        m_error = m_parser.errorText();
        return Outcome::Invalid;
    }
    if (m_parser.isSet(QStringLiteral("help")))
        return Outcome::ShowHelp;
    if (m_parser.isSet(QStringLiteral("version")))
        return Outcome::ShowVersion;
    const auto fail = [this](const QString &message) {
        m_error = message;
        return Outcome::Invalid;
    };
    if (!m_parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(m_parser.positionalArguments().constFirst()));
    m_options.configFile = m_parser.value(configOption);
    if (m_options.configFile.isEmpty())
        return fail(QStringLiteral("--config is required"));
    bool ok = false;
    const int port = m_parser.value(portOption).toInt(&ok);
    if (!ok || port < 0 || port > 65535)
        return fail(QStringLiteral("--port must be 0..65535, not '%1'").arg(m_parser.value(portOption)));
    m_options.port = static_cast<quint16>(port);
    const int metricsPort = m_parser.value(metricsPortOption).toInt(&ok);
    if (!ok || metricsPort < 0 || metricsPort > 65535)
        return fail(QStringLiteral("--metrics-port must be 0..65535, not '%1'").arg(m_parser.value(metricsPortOption)));
    m_options.metricsPort = static_cast<quint16>(metricsPort);
    const int history = m_parser.value(historyOption).toInt(&ok);
    if (!ok || history < 10 || history > 1000000)
        return fail(QStringLiteral("--watch-history must be 10..1000000, not '%1'").arg(m_parser.value(historyOption)));
    m_options.watchHistory = history;
    m_options.tokenFile = m_parser.value(tokenOption);
    m_options.tlsCertFile = m_parser.value(certOption);
    m_options.tlsKeyFile = m_parser.value(keyOption);
    if (m_options.tlsCertFile.isEmpty() != m_options.tlsKeyFile.isEmpty())
        return fail(QStringLiteral("--tls-cert-file and --tls-private-key-file go together"));
    // client-go reads a kubeconfig's credentials only for a TLS server: a token over http
    // would never arrive, and every kubectl call would end in 401.
    if (!m_options.tokenFile.isEmpty() && m_options.tlsCertFile.isEmpty())
        return fail(QStringLiteral("--token-file needs --tls-cert-file and "
                                   "--tls-private-key-file: kubectl sends bearer tokens over "
                                   "https only"));
    m_options.serviceDiscoveryFile = m_parser.value(sdOption);
    m_options.logDir = m_parser.value(logDirOption);
    m_options.binDir = m_parser.value(binDirOption);
    return Outcome::Run;
}
