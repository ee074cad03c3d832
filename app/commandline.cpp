// SPDX-License-Identifier: GPL-3.0-or-later
#include "commandline.h"

#include "dashboardloader.h"

#include <QCommandLineParser>
#include <QFile>
#include <QRegularExpression>

namespace {

Result<qint64> durationOption(const QCommandLineParser &parser, const QString &name)
{
    const qint64 ms = DashboardLoader::parseDurationMs(parser.value(name));
    if (ms <= 0) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--%1: \"%2\" is not a duration (use e.g. 30s, 5m, 1h)")
                               .arg(name, parser.value(name)));
    }
    return ms;
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
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")}, QStringLiteral("Show the version."));
    const QCommandLineOption prometheus(QStringLiteral("prometheus"),
        QStringLiteral("Base URL of a Prometheus-compatible HTTP API (a path prefix is fine)."),
        QStringLiteral("url"), QStringLiteral("http://127.0.0.1:9090/"));
    const QCommandLineOption dashboard(QStringLiteral("dashboard"),
        QStringLiteral("A dashboard JSON file, or a built-in one: %1.")
            .arg(DashboardLoader::builtinNames().join(QStringLiteral(", "))),
        QStringLiteral("file|name"), QStringLiteral("prometheus-self"));
    const QCommandLineOption admin(QStringLiteral("admin"),
        QStringLiteral("Base URL of the load tester's admin endpoint; repeat it for every replica "
                       "(changes fan out to all)."), QStringLiteral("url"));
    const QCommandLineOption adminKind(QStringLiteral("admin-kind"),
        QStringLiteral("What answers at --admin: starter (Chaoscope's admin API), locust or k6."),
        QStringLiteral("kind"), QStringLiteral("starter"));
    const QCommandLineOption adminToken(QStringLiteral("admin-token-file"),
        QStringLiteral("File holding the bearer token for the admin endpoint (never stored elsewhere)."),
        QStringLiteral("file"));
    const QCommandLineOption window(QStringLiteral("window"),
        QStringLiteral("Length of the live window (5m … 24h); overrides the dashboard."), QStringLiteral("duration"));
    const QCommandLineOption refresh(QStringLiteral("refresh"),
        QStringLiteral("Refresh interval; overrides the dashboard."), QStringLiteral("duration"));
    const QCommandLineOption scrape(QStringLiteral("scrape-interval"),
        QStringLiteral("Prometheus' scrape interval: the finest step worth asking for."),
        QStringLiteral("duration"), QStringLiteral("1s"));
    const QCommandLineOption bearer(QStringLiteral("bearer-token-file"),
        QStringLiteral("Send 'Authorization: Bearer <token>' with the token read from this file."), QStringLiteral("file"));
    const QCommandLineOption basic(QStringLiteral("basic-auth"),
        QStringLiteral("Send HTTP Basic authentication."), QStringLiteral("user:password"));
    const QCommandLineOption header(QStringLiteral("header"),
        QStringLiteral("Extra HTTP header for Prometheus, e.g. 'X-Scope-OrgID: team'. Repeatable."), QStringLiteral("name: value"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Headless: render the main window to this PNG after --after, then exit "
                       "(non-zero when Prometheus stayed unreachable or every query failed)."),
        QStringLiteral("file.png"));
    const QCommandLineOption layout(QStringLiteral("screenshot-layout"),
        QStringLiteral("With --screenshot: also write the plot area of every panel, in screenshot "
                       "pixels, as JSON (for tests and scripts that crop panels)."),
        QStringLiteral("file.json"));
    const QCommandLineOption scenario(QStringLiteral("scenario"),
        QStringLiteral("Run a scenario (timed actions, conditions, screenshots): a file or a built-in "
                       "name (seed000). Headless, the app exits when it ends: 0 when every step succeeded."),
        QStringLiteral("file|name"));
    const QCommandLineOption outputDir(QStringLiteral("output-dir"),
        QStringLiteral("Folder for the scenario's screenshots."), QStringLiteral("dir"), QStringLiteral("."));
    const QCommandLineOption after(QStringLiteral("after"),
        QStringLiteral("When to take the --screenshot."), QStringLiteral("duration"), QStringLiteral("30s"));
    const QCommandLineOption record(QStringLiteral("record"),
        QStringLiteral("Record the live run (dashboard, samples, annotations, actions) to this session "
                       "file. Without it every live run is recorded to the sessions folder."),
        QStringLiteral("file.chaoscope"));
    const QCommandLineOption noRecord(QStringLiteral("no-record"), QStringLiteral("Do not record the live run."));
    const QCommandLineOption session(QStringLiteral("session"),
        QStringLiteral("Open a recorded session offline (no Prometheus needed): its panels, annotations "
                       "and actions, as they were."),
        QStringLiteral("file.chaoscope"));
    const QCommandLineOption size(QStringLiteral("size"),
        QStringLiteral("Window size in logical pixels."), QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    parser.addOptions({help, version, prometheus, dashboard, admin, adminKind, adminToken, window, refresh, scrape, bearer,
                       basic, header, screenshot, layout, scenario, outputDir, after, size, record, noRecord,
                       session});
    for (const QCommandLineOption &option : ExportCommandLine::options())
        parser.addOption(option);

    AppOptions options;
    // Without a QCoreApplication (--help answers before one exists) Qt writes a placeholder
    // for the program's name.
    options.helpText = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("chaoscope"));
    if (!parser.parse(arguments))
        return Error::make(Error::Kind::Invalid, parser.errorText());
    options.showHelp = parser.isSet(help);
    options.showVersion = parser.isSet(version);
    if (!parser.positionalArguments().isEmpty()) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("unexpected argument \"%1\"; see --help")
                                                     .arg(parser.positionalArguments().first()));
    }

    const QUrl url = QUrl::fromUserInput(parser.value(prometheus));
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("--prometheus: \"%1\" is not an http(s) URL")
                                                     .arg(parser.value(prometheus)));
    }
    options.prometheus.baseUrl = url;
    options.prometheusGiven = parser.isSet(prometheus);
    options.dashboard = parser.value(dashboard);
    options.dashboardGiven = parser.isSet(dashboard);
    for (const QString &value : parser.values(admin)) {
        const QUrl adminUrl = QUrl::fromUserInput(value);
        if (!adminUrl.isValid() || !adminUrl.scheme().startsWith(QLatin1String("http")))
            return Error::make(Error::Kind::Invalid, QStringLiteral("--admin: \"%1\" is not an http(s) URL").arg(value));
        options.adminUrls << adminUrl;
    }
    options.adminKind = parser.value(adminKind).toLower();
    options.adminKindGiven = parser.isSet(adminKind);
    if (!QStringList{QStringLiteral("starter"), QStringLiteral("locust"), QStringLiteral("k6")}.contains(options.adminKind)) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("--admin-kind: \"%1\" is not one of starter, locust, k6")
                                                     .arg(parser.value(adminKind)));
    }
    if (parser.isSet(adminToken)) {
        QFile file(parser.value(adminToken));
        if (!file.open(QIODevice::ReadOnly)) {
            return Error::make(Error::Kind::Io, QStringLiteral("--admin-token-file: cannot read %1: %2")
                                                    .arg(file.fileName(), file.errorString()));
        }
        options.adminToken = QString::fromUtf8(file.readAll()).trimmed();
    }
    if (parser.isSet(window)) {
        auto ms = durationOption(parser, QStringLiteral("window"));
        if (!ms)
            return ms.error();
        options.windowMs = ms.value();
    }
    if (parser.isSet(refresh)) {
        auto ms = durationOption(parser, QStringLiteral("refresh"));
        if (!ms)
            return ms.error();
        options.refreshMs = int(ms.value());
    }
    auto scrapeMs = durationOption(parser, QStringLiteral("scrape-interval"));
    if (!scrapeMs)
        return scrapeMs.error();
    options.scrapeIntervalMs = scrapeMs.value();
    auto afterMs = durationOption(parser, QStringLiteral("after"));
    if (!afterMs)
        return afterMs.error();
    options.screenshotAfterMs = afterMs.value();
    options.screenshotAfterGiven = parser.isSet(after);
    options.recordPath = parser.value(record);
    options.record = !parser.isSet(noRecord);
    options.sessionPath = parser.value(session);
    if (parser.isSet(record) && options.recordPath.trimmed().isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("--record: the file name is empty"));
    if (parser.isSet(record) && parser.isSet(noRecord))
        return Error::make(Error::Kind::Invalid, QStringLiteral("--record and --no-record contradict each other"));
    if (parser.isSet(session)) {
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
    options.scenario = parser.value(scenario);
    options.outputDir = parser.value(outputDir);

    if (parser.isSet(bearer)) {
        QFile file(parser.value(bearer));
        if (!file.open(QIODevice::ReadOnly)) {
            return Error::make(Error::Kind::Io, QStringLiteral("--bearer-token-file: cannot read %1: %2")
                                                    .arg(file.fileName(), file.errorString()));
        }
        options.prometheus.bearerToken = QString::fromUtf8(file.readAll()).trimmed();
    }
    if (parser.isSet(basic)) {
        const QString value = parser.value(basic);
        const qsizetype colon = value.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            return Error::make(Error::Kind::Invalid, QStringLiteral("--basic-auth: expected user:password"));
        options.prometheus.basicUser = value.left(colon);
        options.prometheus.basicPassword = value.mid(colon + 1);
    }
    for (const QString &value : parser.values(header)) {
        const qsizetype colon = value.indexOf(QLatin1Char(':'));
        if (colon <= 0) {
            return Error::make(Error::Kind::Invalid, QStringLiteral("--header: \"%1\" is not 'Name: value'").arg(value));
        }
        options.prometheus.extraHeaders.append({value.left(colon).trimmed().toUtf8(), value.mid(colon + 1).trimmed().toUtf8()});
    }
    static const QRegularExpression sizePattern(QStringLiteral(R"(^(\d{2,5})x(\d{2,5})$)"));
    const auto match = sizePattern.match(parser.value(size));
    if (!match.hasMatch())
        return Error::make(Error::Kind::Invalid, QStringLiteral("--size: expected WxH, e.g. 1600x1000"));
    options.windowSize = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    Result<ExportOptions> exportOptions = ExportCommandLine::read(parser);
    if (!exportOptions)
        return exportOptions.error();
    options.exportOptions = std::move(exportOptions).value();
    return options;
}
