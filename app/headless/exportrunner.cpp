// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless/exportrunner.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "dashboard/dashboardpoller.h"
#include "export/chartexporter.h"
#include "export/exportfigure.h"
#include "export/exporttheme.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimer>
#include <algorithm>
#include <cstdio>

ExportRunner::ExportRunner(Context context, ExportOptions options, qint64 afterMs, QObject *parent)
    : QObject(parent), m_context(std::move(context)), m_options(std::move(options)), m_afterMs(afterMs)
{
    if (m_context.client) {
        connect(m_context.client, &PrometheusClient::reachabilityChanged, this,
                [this](bool reachable, const QString &message) {
                    if (!reachable)
                        m_lastSourceError = message;
                });
    }
}

void ExportRunner::start()
{
    QTimer::singleShot(std::chrono::milliseconds(m_afterMs), this, &ExportRunner::finish);
}

std::optional<QString> ExportRunner::buildFigure(const Context &context, const ExportOptions &options,
                                                 ExportFigure *figure)
{
    const qint64 nowMs = context.window->now();
    TimeRange range = context.window->range();
    if (!options.range.isEmpty()) {
        const Result<TimeRange> parsed = ExportCommandLine::parseRange(options.range, nowMs);
        if (!parsed)
            return QStringLiteral("--range: %1").arg(parsed.error().message);
        range = parsed.value();
    }
    *figure = ExportFigure::fromDashboard(*context.poller, context.annotations, range);
    if (const std::optional<QString> problem = figure->selectPanels(options.panels))
        return QStringLiteral("--panel: %1").arg(*problem);
    QStringList queryNames;
    for (const AnnotationQueryDefinition &query : context.poller->dashboard().annotationQueries)
        queryNames << query.name;
    if (const std::optional<QString> problem = figure->selectAnnotations(options.marks, queryNames))
        return QStringLiteral("--annotations: %1").arg(*problem);
    if (!options.compare.isEmpty()) {
        const QStringList windows = options.compare.split(QLatin1Char(','));
        for (int i = 0; i < windows.size(); ++i) {
            const Result<TimeRange> parsed = ExportCommandLine::parseRange(windows[i], nowMs);
            if (!parsed)
                return QStringLiteral("--compare: %1").arg(parsed.error().message);
            // Each side is counted from its own zero: the moment the two are compared at.
            qint64 zeroMs = parsed->startMs;
            if (!options.compareAlign.isEmpty()) {
                // One text for both windows, or one per window ("rate,in-flight").
                const QStringList texts = options.compareAlign.split(QLatin1Char(','));
                const QString text = texts.value(i, texts.constLast()).trimmed();
                const auto &all = figure->annotations;
                const auto found = std::find_if(all.begin(), all.end(), [&](const Annotation &a) {
                    return parsed->contains(a.timeMs) && a.text.contains(text, Qt::CaseInsensitive);
                });
                if (found == all.end())
                    return QStringLiteral("--compare-align: no annotation in %1 contains \"%2\"").arg(windows[i], text);
                zeroMs = found->timeMs;
            }
            figure->compare.push_back({parsed.value(), zeroMs, options.compareTitles.value(i).trimmed()});
        }
    }
    figure->title = options.title;
    figure->subtitle = options.subtitle;
    figure->caption = options.caption;
    figure->source = context.source;
    figure->version = QStringLiteral("Chaoscope %1").arg(QCoreApplication::applicationVersion());
    return std::nullopt;
}

QString ExportRunner::noDataReason() const
{
    if (m_context.offline)
        return QStringLiteral("the recording has no samples in the chosen time range");
    const DashboardPoller::Stats stats = m_context.poller->stats();
    if (stats.succeeded == 0 && stats.failed == 0)
        return QStringLiteral("no query was answered within %1").arg(Format::duration(m_afterMs));
    if (stats.succeeded == 0 && stats.sourceDown == stats.failed)
        return QStringLiteral("Prometheus stayed unreachable: %1").arg(m_lastSourceError);
    if (stats.succeeded == 0)
        return QStringLiteral("every query failed (%1 failures)").arg(stats.failed);
    return QStringLiteral("the queries returned no samples in the chosen time range");
}

void ExportRunner::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    if (!m_context.offline)
        m_context.poller->stop();
    auto fail = [](const QString &message, int code) {
        std::fprintf(stderr, "chaoscope: export: %s\n", qPrintable(message));
        QCoreApplication::exit(code);
    };

    ExportFigure figure;
    if (const std::optional<QString> problem = buildFigure(m_context, m_options, &figure))
        return fail(*problem, 2);
    if (!figure.hasData(*m_context.store))
        return fail(QStringLiteral("nothing to draw: %1").arg(noDataReason()), 2);

    const ExportTheme theme = *ExportTheme::named(m_options.theme);
    const ChartExporter exporter(*m_context.store, theme);
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    // "{panel}" in the name: one file per panel; otherwise one file with every chosen panel.
    std::vector<ExportFigure> figures;
    if (m_options.path.contains(QLatin1String("{panel}")) && figure.panels.size() > 1) {
        for (const ExportFigure::Panel &panel : figure.panels) {
            ExportFigure single = figure;
            single.panels = {panel};
            figures.push_back(std::move(single));
        }
    } else {
        figures.push_back(figure);
    }
    for (const ExportFigure &one : figures) {
        const QString title = one.panels.size() == 1 ? one.panels.front().title : QStringLiteral("dashboard");
        const QString path = ChartExporter::expandPlaceholders(m_options.path, nowMs, title);
        const Result<QString> written = exporter.write(path, one, m_options.size, m_options.scale);
        if (!written)
            return fail(written.error().message, 3);
        std::printf("export: %s\n", qPrintable(written.value()));
    }
    std::fflush(stdout);
    QCoreApplication::exit(0);
}
