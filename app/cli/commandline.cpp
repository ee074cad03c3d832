// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commandline.h"

#include "base/durationgrammar.h"
#include "dashboard/loader/dashboardloader.h"
#include "fetching/dashboardpoller.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <optional>

namespace {

Result<qint64> durationOption(const QCommandLineParser &parser, const QString &name)
{
    const qint64 ms = DurationGrammar::parseMs(parser.value(name));
    if (ms <= 0) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("--%1: \"%2\" is not a duration (use e.g. 30s, 5m, 1h)").arg(name, parser.value(name)));
    }
    return ms;
}

constexpr char kTokenVariable[] = "CHAOSCOPE_PROMETHEUS_TOKEN";
constexpr char kPasswordVariable[] = "CHAOSCOPE_PROMETHEUS_PASSWORD";

// A secret from a file: the first line, surrounding white space removed. Messages name the
// file, never its content.
Result<QString> readSecretFile(const QString &option, const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Error::make(Error::Kind::Io,
                           QStringLiteral("--%1: cannot read %2: %3").arg(option, file.fileName(), file.errorString()));
    }
    const QString secret = QString::fromUtf8(file.readLine(qint64(64) * 1024)).trimmed();
    if (secret.isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("--%1: %2 is empty").arg(option, path));
    return secret;
}

// Credentials, extra headers and TLS for Prometheus.
std::optional<Error> readSecurityOptions(const QCommandLineParser &parser, const QCommandLineOption &bearer,
                                         const QCommandLineOption &basic, const QCommandLineOption &basicUser,
                                         const QCommandLineOption &basicPasswordFile, const QCommandLineOption &header,
                                         const QCommandLineOption &caFile, const QCommandLineOption &insecure,
                                         PrometheusConnection *connection)
{
    if (parser.isSet(basic)) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("--basic-auth puts the password on the command line, where every local user "
                           "can read it; use --basic-auth-user USER with --basic-auth-password-file FILE "
                           "or $%1")
                .arg(QLatin1String(kPasswordVariable)));
    }
    if (parser.isSet(bearer)) {
        Result<QString> token = readSecretFile(QStringLiteral("bearer-token-file"), parser.value(bearer));
        if (!token)
            return token.error();
        connection->bearerToken = token.value();
    } else {
        connection->bearerToken = qEnvironmentVariable(kTokenVariable).trimmed();
    }
    if (parser.isSet(basicUser)) {
        connection->basicUser = parser.value(basicUser);
        if (connection->basicUser.isEmpty() || connection->basicUser.contains(QLatin1Char(':')))
            return Error::make(Error::Kind::Invalid, QStringLiteral("--basic-auth-user: the user must be non-empty and "
                                                                    "hold no ':'"));
        if (parser.isSet(basicPasswordFile)) {
            Result<QString> password =
                readSecretFile(QStringLiteral("basic-auth-password-file"), parser.value(basicPasswordFile));
            if (!password)
                return password.error();
            connection->basicPassword = password.value();
        } else {
            connection->basicPassword = qEnvironmentVariable(kPasswordVariable);
            if (connection->basicPassword.isEmpty())
                return Error::make(Error::Kind::Invalid,
                                   QStringLiteral("--basic-auth-user: no password; give --basic-auth-password-file "
                                                  "or set $%1")
                                       .arg(QLatin1String(kPasswordVariable)));
        }
    } else if (parser.isSet(basicPasswordFile)) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("--basic-auth-password-file needs --basic-auth-user"));
    }
    static const QRegularExpression headerName(QStringLiteral(R"(^[!#$%&'*+.^_`|~0-9A-Za-z-]+$)"));
    for (const QString &value : parser.values(header)) {
        const qsizetype colon = value.indexOf(QLatin1Char(':'));
        const QString name = value.left(colon).trimmed();
        if (colon <= 0 || !headerName.match(name).hasMatch()) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--header: \"%1\" is not 'Name: value'").arg(value));
        }
        // Header values are shown (ps, --help examples, scripts); credentials are not.
        for (const char *secret : {"authorization", "proxy-authorization", "cookie"}) {
            if (name.compare(QLatin1String(secret), Qt::CaseInsensitive) == 0) {
                return Error::make(Error::Kind::Invalid,
                                   QStringLiteral("--header: %1 carries a secret, which must not be on the command "
                                                  "line; use --bearer-token-file (or $%2) or --basic-auth-user")
                                       .arg(name, QLatin1String(kTokenVariable)));
            }
        }
        const QString headerValue = value.mid(colon + 1).trimmed();
        if (headerValue.contains(QLatin1Char('\r')) || headerValue.contains(QLatin1Char('\n')))
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--header: the value of %1 holds a line break").arg(name));
        connection->extraHeaders.append({name.toUtf8(), headerValue.toUtf8()});
    }
    if (parser.isSet(caFile)) {
        Result<QList<QSslCertificate>> certificates = TlsSettings::readCaFile(parser.value(caFile));
        if (!certificates)
            return Error::make(certificates.error().kind,
                               QStringLiteral("--ca-file: %1").arg(certificates.error().message));
        connection->tls.caCertificates = certificates.value();
    }
    connection->tls.verifyPeer = !parser.isSet(insecure);
    return std::nullopt;
}
} // namespace

Result<AppOptions> parseCommandLine(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Chaoscope: watch and steer a load test while it runs.\n"
                       "Polls Prometheus (and the load tester's admin endpoint) and draws the "
                       "panels of a dashboard on one time axis."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")},
                                     QStringLiteral("Show the version."));
    const QCommandLineOption prometheus(
        QStringLiteral("prometheus"),
        QStringLiteral("Base URL of a Prometheus-compatible HTTP API (a path prefix is fine)."), QStringLiteral("url"),
        QStringLiteral("http://127.0.0.1:9090/"));
    const QCommandLineOption dashboard(QStringLiteral("dashboard"),
                                       QStringLiteral("A dashboard JSON file, or a built-in one: %1.")
                                           .arg(DashboardLoader::builtinNames().join(QStringLiteral(", "))),
                                       QStringLiteral("file|name"), QStringLiteral("prometheus-self"));
    const QCommandLineOption admin(
        QStringLiteral("admin"),
        QStringLiteral("Base URL of the load tester's admin endpoint; repeat it for every replica "
                       "(changes fan out to all)."),
        QStringLiteral("url"));
    const QCommandLineOption adminKind(
        QStringLiteral("admin-kind"),
        QStringLiteral("What answers at --admin: starter (Chaoscope's admin API), locust or k6."),
        QStringLiteral("kind"), QStringLiteral("starter"));
    const QCommandLineOption adminToken(
        QStringLiteral("admin-token-file"),
        QStringLiteral("File holding the bearer token for the admin endpoint (never stored elsewhere)."),
        QStringLiteral("file"));
    const QCommandLineOption window(QStringLiteral("window"),
                                    QStringLiteral("Length of the live window (5m … 24h); overrides the dashboard."),
                                    QStringLiteral("duration"));
    const QCommandLineOption refresh(QStringLiteral("refresh"),
                                     QStringLiteral("Refresh interval; overrides the dashboard."),
                                     QStringLiteral("duration"));
    const QCommandLineOption retention(
        QStringLiteral("retention"),
        QStringLiteral("How much history to keep in memory, back from the newest sample (default 25h; "
                       "never less than the live window). The session file keeps everything."),
        QStringLiteral("duration"));
    const QCommandLineOption scrape(QStringLiteral("scrape-interval"),
                                    QStringLiteral("Prometheus' scrape interval: the finest step worth asking for."),
                                    QStringLiteral("duration"), QStringLiteral("1s"));
    const QCommandLineOption detail(
        QStringLiteral("detail"),
        QStringLiteral("History detail: at most this many points per pixel column of a panel's step (default %1), "
                       "or 'raw' for every scrape (a full-resolution recording of a long window).")
            .arg(DashboardPoller::kDetailPointsPerColumn),
        QStringLiteral("points|raw"), QString::number(DashboardPoller::kDetailPointsPerColumn));
    const QCommandLineOption bearer(
        QStringLiteral("bearer-token-file"),
        QStringLiteral("Send 'Authorization: Bearer <token>' to Prometheus with the token read from this file "
                       "(or from $%1).")
            .arg(QLatin1String(kTokenVariable)),
        QStringLiteral("file"));
    // Security options: secrets come from files or the environment, never from the command
    // line (which any local user can read in ps) and are never written anywhere.
    QCommandLineOption basic(QStringLiteral("basic-auth"), QStringLiteral("Replaced by --basic-auth-user."),
                             QStringLiteral("user:password"));
    basic.setFlags(QCommandLineOption::HiddenFromHelp);
    const QCommandLineOption basicUser(
        QStringLiteral("basic-auth-user"),
        QStringLiteral("Send HTTP Basic authentication to Prometheus as this user; the password comes from "
                       "--basic-auth-password-file or $%1.")
            .arg(QLatin1String(kPasswordVariable)),
        QStringLiteral("user"));
    const QCommandLineOption basicPasswordFile(QStringLiteral("basic-auth-password-file"),
                                               QStringLiteral("File holding the password for --basic-auth-user."),
                                               QStringLiteral("file"));
    const QCommandLineOption header(
        QStringLiteral("header"),
        QStringLiteral("Extra HTTP header for Prometheus, e.g. 'X-Scope-OrgID: team'. Repeatable. Not for "
                       "secrets: credentials go through --bearer-token-file or --basic-auth-user."),
        QStringLiteral("name: value"));
    const QCommandLineOption caFile(
        QStringLiteral("ca-file"),
        QStringLiteral("PEM file with the certificates of a private CA, trusted (besides the system's) for "
                       "HTTPS to Prometheus and the admin endpoints."),
        QStringLiteral("file.pem"));
    const QCommandLineOption insecure(
        QStringLiteral("insecure"),
        QStringLiteral("Do not verify HTTPS certificates (test setups only; the window says so as long as "
                       "it runs)."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Headless: render the main window to this PNG after --after, then exit "
                       "(non-zero when Prometheus stayed unreachable or every query failed)."),
        QStringLiteral("file.png"));
    const QCommandLineOption layout(
        QStringLiteral("screenshot-layout"),
        QStringLiteral("With --screenshot: also write the plot area of every panel, in screenshot "
                       "pixels, as JSON (for tests and scripts that crop panels)."),
        QStringLiteral("file.json"));
    const QCommandLineOption screenshotDialog(
        QStringLiteral("screenshot-dialog"),
        QStringLiteral("With --screenshot: open the dialog of this menu entry (as its menu names it, e.g. "
                       "\"Export…\" or \"Keyboard shortcuts\") and shoot the dialog instead of the window."),
        QStringLiteral("menu entry"));
    const QCommandLineOption scenario(
        QStringLiteral("scenario"),
        QStringLiteral(
            "Run a scenario (timed actions, conditions, screenshots): a file or a built-in "
            "name (ceiling, seed000, seed000-guarded, seed004). Headless, the app exits when it ends: 0 when every "
            "step succeeded and every expectation held, 1 when a step failed, 4 when an "
            "expectation or a guard failed, 2 when the file has mistakes."),
        QStringLiteral("file|name"));
    const QCommandLineOption outputDir(QStringLiteral("output-dir"),
                                       QStringLiteral("Folder for the scenario's screenshots and capacity curves."),
                                       QStringLiteral("dir"), QStringLiteral("."));
    const QCommandLineOption after(QStringLiteral("after"), QStringLiteral("When to take the --screenshot."),
                                   QStringLiteral("duration"), QStringLiteral("30s"));
    const QCommandLineOption record(
        QStringLiteral("record"),
        QStringLiteral("Record the live run (dashboard, samples, annotations, actions) to this session "
                       "file. Without it every live run is recorded to the sessions folder."),
        QStringLiteral("file.chaoscope"));
    const QCommandLineOption noRecord(QStringLiteral("no-record"), QStringLiteral("Do not record the live run."));
    const QCommandLineOption session(
        QStringLiteral("session"),
        QStringLiteral("Open a recorded session offline (no Prometheus needed): its panels, annotations "
                       "and actions, as they were. Given again (up to 8 in all): the first is shown, and all are "
                       "compared, each run from its start, in --export, --export-post, --run-table and File ▸ "
                       "Compare runs…."),
        QStringLiteral("file.chaoscope"));
    const QCommandLineOption uiTheme(
        QStringLiteral("ui-theme"),
        QStringLiteral("Colours of the window: system, light or dark (default: the one last chosen in "
                       "View > Theme). Exported pictures keep their own --theme."),
        QStringLiteral("theme"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size in logical pixels."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption kubernetes(
        QStringLiteral("kubernetes"),
        QStringLiteral("Watch and steer the Kubernetes cluster of the current kubeconfig context (the Cluster "
                       "dock): $KUBECONFIG, else ~/.kube/config, as kubectl reads it."));
    const QCommandLineOption kubeconfig(
        QStringLiteral("kubeconfig"), QStringLiteral("With the cluster: this kubeconfig file (implies --kubernetes)."),
        QStringLiteral("file"));
    const QCommandLineOption kubeContext(
        QStringLiteral("kube-context"),
        QStringLiteral("With the cluster: this kubeconfig context instead of the current one (implies --kubernetes)."),
        QStringLiteral("name"));
    const QCommandLineOption kubeNamespace(
        QStringLiteral("namespace"),
        QStringLiteral("With the cluster: this namespace instead of the context's (implies --kubernetes)."),
        QStringLiteral("name"));
    parser.addOptions({help,       version,   prometheus,        dashboard, admin,     adminKind,
                       adminToken, window,    refresh,           retention, scrape,    bearer,
                       basic,      basicUser, basicPasswordFile, header,    caFile,    insecure,
                       screenshot, layout,    screenshotDialog,  scenario,  outputDir, after,
                       size,       record,    noRecord,          uiTheme,   session,   detail});
    parser.addOptions({kubernetes, kubeconfig, kubeContext, kubeNamespace});
    for (const QCommandLineOption &option : ExportCommandLine::options())
        parser.addOption(option);
    const QCommandLineOption importGrafana(
        QStringLiteral("import-grafana"),
        QStringLiteral("Convert a Grafana dashboard (JSON export) into a Chaoscope dashboard written to --output, "
                       "list what could not be converted, then exit (no window)."),
        QStringLiteral("grafana.json"));
    const QCommandLineOption importOutput(QStringLiteral("output"),
                                          QStringLiteral("With --import-grafana: the dashboard file to write."),
                                          QStringLiteral("dashboard.json"));
    parser.addOptions({importGrafana, importOutput});
    parser.addPositionalArgument(QStringLiteral("file.chaoscope"),
                                 QStringLiteral("A recording to open offline, as --session does."),
                                 QStringLiteral("[file.chaoscope]"));

    AppOptions options;
    // Without a QCoreApplication (--help answers before one exists) Qt writes a placeholder
    // for the program's name.
    options.helpText = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("chaoscope"));
    if (!parser.parse(arguments))
        return Error::make(Error::Kind::Invalid, parser.errorText());
    options.showHelp = parser.isSet(help);
    options.showVersion = parser.isSet(version);
    // One file without an option is a recording to open (as a file manager or the desktop
    // entry passes it: "chaoscope day1.chaoscope"); anything else is a mistake.
    const QStringList positional = parser.positionalArguments();
    QString positionalSession;
    if (positional.size() == 1 && positional.first().endsWith(QLatin1String(".chaoscope")) && !parser.isSet(session))
        positionalSession = positional.first();
    else if (!positional.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("unexpected argument \"%1\"; a recording to open ends in .chaoscope, "
                                          "anything else needs its option (see --help)")
                               .arg(positional.first()));

    const QUrl url = QUrl::fromUserInput(parser.value(prometheus));
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--prometheus: \"%1\" is not an http(s) URL").arg(parser.value(prometheus)));
    }
    if (!url.userInfo().isEmpty()) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("--prometheus: the URL carries a user name or password; give the user with "
                           "--basic-auth-user and the password through --basic-auth-password-file or $%1 "
                           "(a URL is shown, logged and recorded)")
                .arg(QLatin1String(kPasswordVariable)));
    }
    if (parser.isSet(kubernetes) || parser.isSet(kubeconfig) || parser.isSet(kubeContext) ||
        parser.isSet(kubeNamespace)) {
        KubeConfig::Request request;
        if (parser.isSet(kubeconfig))
            request.files = {parser.value(kubeconfig)};
        request.context = parser.value(kubeContext);
        request.namespaceName = parser.value(kubeNamespace);
        options.kubernetes = request;
    }
    options.prometheus.baseUrl = url;
    options.prometheusGiven = parser.isSet(prometheus);
    options.dashboard = parser.value(dashboard);
    options.dashboardGiven = parser.isSet(dashboard);
    for (const QString &value : parser.values(admin)) {
        const QUrl adminUrl = QUrl::fromUserInput(value);
        if (!adminUrl.isValid() || !adminUrl.scheme().startsWith(QLatin1String("http")))
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--admin: \"%1\" is not an http(s) URL").arg(value));
        if (!adminUrl.userInfo().isEmpty())
            return Error::make(Error::Kind::Invalid, QStringLiteral("--admin: the URL carries a user name or password; "
                                                                    "use --admin-token-file"));
        options.adminUrls << adminUrl;
    }
    options.adminKind = parser.value(adminKind).toLower();
    options.adminKindGiven = parser.isSet(adminKind);
    if (!QStringList{QStringLiteral("starter"), QStringLiteral("locust"), QStringLiteral("k6")}.contains(
            options.adminKind)) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("--admin-kind: \"%1\" is not one of starter, locust, k6").arg(parser.value(adminKind)));
    }
    if (parser.isSet(adminToken)) {
        QFile file(parser.value(adminToken));
        if (!file.open(QIODevice::ReadOnly)) {
            return Error::make(
                Error::Kind::Io,
                QStringLiteral("--admin-token-file: cannot read %1: %2").arg(file.fileName(), file.errorString()));
        }
        options.adminToken = QString::fromUtf8(file.readAll()).trimmed();
    }
    std::optional<qint64> refreshMs;
    for (auto [name, value] : {std::pair{&window, &options.windowMs}, std::pair{&refresh, &refreshMs},
                               std::pair{&retention, &options.retentionMs}}) {
        if (!parser.isSet(*name))
            continue; // the dashboard's or the store's default then
        auto ms = durationOption(parser, name->names().constFirst());
        if (!ms)
            return ms.error();
        *value = ms.value();
    }
    if (refreshMs)
        options.refreshMs = int(*refreshMs);
    auto scrapeMs = durationOption(parser, QStringLiteral("scrape-interval"));
    if (!scrapeMs)
        return scrapeMs.error();
    options.scrapeIntervalMs = scrapeMs.value();
    const QString detailText = parser.value(detail).trimmed();
    if (detailText == QLatin1String("raw")) {
        options.detailPointsPerColumn = 0;
    } else {
        bool ok = false;
        const int points = detailText.toInt(&ok);
        if (!ok || points < 1 || points > 1000)
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--detail: '%1' is neither a number of points per pixel column "
                                              "(1 to 1000) nor 'raw'")
                                   .arg(detailText));
        options.detailPointsPerColumn = points;
    }
    auto afterMs = durationOption(parser, QStringLiteral("after"));
    if (!afterMs)
        return afterMs.error();
    options.screenshotAfterMs = afterMs.value();
    options.screenshotAfterGiven = parser.isSet(after);
    if (parser.isSet(uiTheme)) {
        options.uiTheme = parser.value(uiTheme).toLower();
        const QStringList themes{QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark")};
        if (!themes.contains(options.uiTheme)) {
            return Error::make(
                Error::Kind::Invalid,
                QStringLiteral("--ui-theme: \"%1\" is not one of system, light, dark").arg(parser.value(uiTheme)));
        }
    }
    options.recordPath = parser.value(record);
    options.record = !parser.isSet(noRecord);
    // --session a --session b …: the first is opened, the others compared with it.
    QStringList sessions = parser.values(session);
    if (!positionalSession.isEmpty())
        sessions.prepend(positionalSession);
    options.sessionPath = sessions.value(0);
    const bool offline = !options.sessionPath.isEmpty() || parser.isSet(session);
    if (parser.isSet(record) && options.recordPath.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("--record: the file name is empty"));
    if (parser.isSet(record) && parser.isSet(noRecord))
        return Error::make(Error::Kind::Invalid, QStringLiteral("--record and --no-record contradict each other"));
    if (offline) {
        // A recording is shown as it was: nothing is polled, steered or recorded again.
        for (const QCommandLineOption *live : {&record, &scenario, &admin}) {
            if (parser.isSet(*live)) {
                return Error::make(Error::Kind::Invalid,
                                   QStringLiteral("--%1 cannot be used with --session: a recording is shown offline, "
                                                  "nothing runs (File ▸ Save session as… makes a copy)")
                                       .arg(live->names().constFirst()));
            }
        }
        options.record = false;
    }
    options.screenshotPath = parser.value(screenshot);
    options.layoutPath = parser.value(layout);
    options.screenshotDialog = parser.value(screenshotDialog);
    if (!options.screenshotDialog.isEmpty() && options.screenshotPath.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--screenshot-dialog needs --screenshot (the file to write)"));
    options.scenario = parser.value(scenario);
    options.outputDir = parser.value(outputDir);

    if (std::optional<Error> error = readSecurityOptions(parser, bearer, basic, basicUser, basicPasswordFile, header,
                                                         caFile, insecure, &options.prometheus))
        return *error;
    for (const QCommandLineOption *file : {&bearer, &basicPasswordFile, &caFile}) {
        if (parser.isSet(*file))
            options.connectionArguments << QLatin1String("--") + file->names().constFirst()
                                        << QFileInfo(parser.value(*file)).absoluteFilePath();
    }
    if (parser.isSet(basicUser))
        options.connectionArguments << QStringLiteral("--basic-auth-user") << parser.value(basicUser);
    for (const QString &value : parser.values(header))
        options.connectionArguments << QStringLiteral("--header") << value;
    if (parser.isSet(insecure))
        options.connectionArguments << QStringLiteral("--insecure");
    static const QRegularExpression sizePattern(QStringLiteral(R"(^(\d{2,5})x(\d{2,5})$)"));
    const auto match = sizePattern.match(parser.value(size));
    if (!match.hasMatch())
        return Error::make(Error::Kind::Invalid, QStringLiteral("--size: expected WxH, e.g. 1600x1000"));
    options.windowSize = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    options.importGrafanaPath = parser.value(importGrafana);
    options.importOutputPath = parser.value(importOutput);
    if (parser.isSet(importGrafana) && options.importOutputPath.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--import-grafana needs --output, the dashboard file to write"));
    if (parser.isSet(importOutput) && !parser.isSet(importGrafana))
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--output is the file --import-grafana writes; it needs --import-grafana"));
    Result<ExportOptions> exportOptions = ExportCommandLine::read(parser);
    if (!exportOptions)
        return exportOptions.error();
    options.exportOptions = std::move(exportOptions).value();
    ExportOptions &exported = options.exportOptions;
    if (!exported.compareSessions.isEmpty() && options.sessionPath.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--compare-session compares with the recording --session opens; give both"));
    if (sessions.size() > 1) {
        exported.compareSessions = sessions.mid(1) + exported.compareSessions;
        if (!exported.compare.isEmpty() || !exported.compareVariable.isEmpty())
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("several --session recordings are runs compared already; --compare and "
                                              "--compare-variable go with one"));
    }
    if (exported.compareSessions.size() + 1 > ExportCommandLine::kMostRuns)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("at most %1 recordings are compared").arg(ExportCommandLine::kMostRuns));
    if (!exported.compareVariable.isEmpty() && !options.sessionPath.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--compare-variable asks Prometheus for each value: it goes with a live "
                                          "run, not with --session"));
    return options;
}
