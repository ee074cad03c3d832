// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "headless/exportoptions.h"

#include <QObject>
#include <QString>
#include <optional>

class AnnotationModel;
class DashboardPoller;
class PrometheusClient;
class SampleStore;
class TimeWindow;
struct ExportFigure;

// Headless export (--export): lets the dashboard fetch for a while (a recording: not at all),
// then writes the picture or CSV and quits — 0 when the file was written, non-zero with the
// reason on stderr otherwise (unknown panel, bad range, no data, unwritable path).
class ExportRunner : public QObject
{
    Q_OBJECT
public:
    struct Context
    {
        DashboardPoller *poller = nullptr;
        PrometheusClient *client = nullptr; // live only
        const SampleStore *store = nullptr;
        const AnnotationModel *annotations = nullptr;
        const TimeWindow *window = nullptr;
        QString source; // the Prometheus URL or the recording's file
        bool offline = false;
    };

    ExportRunner(Context context, ExportOptions options, qint64 afterMs, QObject *parent = nullptr);
    void start();

    // Builds what will be written; an error message when the options do not fit the dashboard.
    // Public for the dialog and the tests.
    static std::optional<QString> buildFigure(const Context &context, const ExportOptions &options,
                                              ExportFigure *figure);

private:
    void finish();
    // Why there is nothing to draw, in words: the source down, every query failed, or no samples.
    QString noDataReason() const;

    Context m_context;
    ExportOptions m_options;
    qint64 m_afterMs;
    QString m_lastSourceError;
    bool m_finished = false;
};
