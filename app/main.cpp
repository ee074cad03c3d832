// SPDX-License-Identifier: GPL-3.0-or-later
// Chaoscope: watch and steer a load test while it runs.
#include "actions/grafanaimport.h"
#include "cli/commandline.h"
#include "net/loadtesterhttp.h"
#include "run/liverun.h"
#include "settings/appsettings.h"
#include "theme/uitheme.h"

#include <QApplication>
#include <cstdio>
#include <exception>
#include <optional>

namespace {

// Qt takes "-session <id>" (and "--session") for X11 session management and removes it
// before QApplication::arguments() is read; Chaoscope's --session names a recording. So it
// is taken out of argv before Qt sees it and handed to the parser afterwards.
QStringList takeSessionArguments(int &argc, char **argv)
{
    QStringList taken;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if ((arg == "--session" || arg == "-session") && i + 1 < argc) {
            taken << QStringLiteral("--session") << QString::fromLocal8Bit(argv[++i]);
            continue;
        }
        if (arg.startsWith("--session=")) {
            taken << QString::fromLocal8Bit(arg);
            continue;
        }
        argv[kept++] = argv[i];
    }
    argc = kept;
    argv[argc] = nullptr;
    return taken;
}

// Qt's offscreen platform (every headless run: screenshots, exports, CI) warns "This plugin
// does not support propagateSizeHints()" each time a window's size limits change, dozens of
// times a run; it says nothing a user can act on and buries what does matter. Everything
// else goes on to Qt's own handler.
QtMessageHandler g_qtHandler = nullptr;

void dropPlatformNoise(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && message == QLatin1String("This plugin does not support propagateSizeHints()"))
        return;
    if (g_qtHandler)
        g_qtHandler(type, context, message);
}

std::optional<int> answerHelpOrVersion(int argc, char **argv, const QStringList &sessionArguments)
{
    QStringList arguments;
    bool asked = false;
    for (int i = 0; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
        const QString name = arguments.last().section(QLatin1Char('='), 0, 0);
        asked = asked || name == QLatin1String("--help") || name == QLatin1String("-h") ||
                name == QLatin1String("--version") || name == QLatin1String("-v") ||
                name == QLatin1String("--import-grafana");
    }
    // Only then: parsing reads files (a --ca-file's certificates), and Qt's TLS backend must
    // not be woken before the application exists (it warns "invalid nullptr parameter").
    if (!asked)
        return std::nullopt;
    const Result<AppOptions> parsed = parseCommandLine(arguments + sessionArguments);
    if (!parsed)
        return std::nullopt; // QApplication may take some of them (-style, …); decided below
    if (parsed->showHelp) {
        std::printf("%s", qPrintable(parsed->helpText));
        return 0;
    }
    if (parsed->showVersion) {
        std::printf("chaoscope %s\n", CHAOSCOPE_VERSION);
        return 0;
    }
    // A file conversion for scripts: no window, so no display either.
    if (!parsed->importGrafanaPath.isEmpty())
        return GrafanaImport::runCommand(parsed->importGrafanaPath, parsed->importOutputPath);
    return std::nullopt;
}

int runChaoscope(int argc, char *argv[])
{
    const QStringList sessionArguments = takeSessionArguments(argc, argv);
    // --help and --version answer before QApplication exists: they need no display (the man
    // page is generated from --help on a build machine without one).
    if (const std::optional<int> exitCode = answerHelpOrVersion(argc, argv, sessionArguments))
        return *exitCode;
    g_qtHandler = qInstallMessageHandler(dropPlatformNoise);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Chaoscope"));
    QApplication::setOrganizationName(QStringLiteral("Chaoscope"));
    QApplication::setApplicationVersion(QStringLiteral(CHAOSCOPE_VERSION));

    const Result<AppOptions> parsed = parseCommandLine(QApplication::arguments() + sessionArguments);
    if (!parsed) {
        std::fprintf(stderr, "chaoscope: %s\n", qPrintable(parsed.error().message));
        return 2;
    }
    AppOptions options = parsed.value();
    if (options.showHelp) {
        std::printf("%s", qPrintable(options.helpText));
        return 0;
    }
    if (options.showVersion) {
        std::printf("chaoscope %s\n", CHAOSCOPE_VERSION);
        return 0;
    }
    if (!options.importGrafanaPath.isEmpty())
        return GrafanaImport::runCommand(options.importGrafanaPath, options.importOutputPath);

    // TLS as the command line says, for Prometheus (its connection) and every admin endpoint.
    LoadTesterHttp::setDefaultTls(options.prometheus.tls);
    if (!options.prometheus.tls.verifyPeer)
        std::fprintf(stderr, "chaoscope: warning: TLS certificate verification is off (--insecure); use --ca-file "
                             "for a private CA\n");

    const bool onScreen = QGuiApplication::platformName() != QLatin1String("offscreen") &&
                          QGuiApplication::platformName() != QLatin1String("minimal");
    // The colour theme: --ui-theme, else (on screen) the one last chosen in View ▸ Theme.
    const QString themeName = !options.uiTheme.isEmpty() ? options.uiTheme
                              : onScreen                 ? AppSettings::theme()
                                                         : QString();
    if (const std::optional<UiTheme::Choice> theme = UiTheme::choiceFromName(themeName))
        UiTheme::instance()->apply(*theme);

    // Started from the desktop without arguments: the source and dashboard of the last live
    // run, not the defaults. Headless runs (scripts, tests) are never changed by settings.
    if (onScreen && options.sessionPath.isEmpty()) {
        if (!options.prometheusGiven && !AppSettings::lastPrometheusUrl().isEmpty())
            options.prometheus.baseUrl = QUrl(AppSettings::lastPrometheusUrl());
        if (!options.dashboardGiven && !AppSettings::lastDashboard().isEmpty())
            options.dashboard = AppSettings::lastDashboard();
    }

    // The run and every object it needs, destroyed before the application.
    LiveRun run(std::move(options), onScreen);
    if (const std::optional<int> exitCode = run.open())
        return *exitCode;
    return QApplication::exec();
}

} // namespace

int main(int argc, char *argv[])
{
    // Qt reports its errors as values; what still throws (out of memory, a bug) ends the app
    // with a line saying so instead of an abort without a word.
    try {
        return runChaoscope(argc, argv);
    } catch (const std::exception &exception) {
        std::fprintf(stderr, "chaoscope: internal error: %s\n", exception.what());
    } catch (...) {
        std::fprintf(stderr, "chaoscope: internal error\n");
    }
    return 70; // EX_SOFTWARE
}
