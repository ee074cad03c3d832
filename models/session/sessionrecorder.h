// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "base/timerange.h"
#include "dashboard/dashboarddefinition.h"
#include "session/sessionchangefilter.h"
#include "session/sessionwriter.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class AnnotationModel;
class LoadTesterController;
class SampleStore;
struct ActionReport;
struct Annotation;
struct LoadTesterAction;

// Records a run as it happens: listens to the store (new or changed samples only), the
// annotations (every edit) and the load tester (every action and its answer), and hands
// each to a SessionWriter, which writes off the UI thread. Lives on the UI thread.
class SessionRecorder : public QObject
{
    Q_OBJECT
public:
    // What the file's header says about the run.
    struct RunInfo
    {
        QString dashboardName; // as given on the command line
        QUrl source;           // Prometheus; written without user info
    };

    SessionRecorder(SampleStore *store, AnnotationModel *annotations, QObject *parent = nullptr);
    ~SessionRecorder() override; // closes the file cleanly

    void setWriterOptions(const SessionWriter::Options &options) { m_options = options; }

    // A live run: a new file with the dashboard, then every sample already in the store and
    // every change from now on.
    std::optional<Error> start(const QString &path, const RunInfo &run, const DashboardDefinition &dashboard,
                               qint64 windowMs);
    // A reopened recording: appends annotation edits to it (from `validEnd`, the reader's
    // last intact record). Samples are not recorded: nothing new arrives offline.
    std::optional<Error> startAppending(const QString &path, qint64 validEnd);
    // The same, but the file is opened on the first annotation edit: merely looking at a
    // recording leaves it untouched. A failure (a read-only file) shows in errorMessage().
    void appendOnFirstEdit(const QString &path, qint64 validEnd);
    // Every action applied to the load tester, with its answers.
    void setLoadTester(LoadTesterController *controller);

    void recordDashboard(const DashboardDefinition &dashboard, qint64 windowMs);
    void recordVariable(const QString &name, const QString &value);
    // A scenario started (endedAtMs 0) or ended, with its verdict (ScenarioVerdict's annotation text).
    void recordScenario(const QString &title, qint64 startedAtMs, qint64 endedAtMs, const QString &verdict);
    // The range on screen (when the app quits), so the recording reopens on that picture.
    void recordView(const TimeRange &range, bool live);

    // Waits until what was recorded so far is in the file (for "Save as" of a live run).
    void flush();
    // Closes the file with its closing record. Idempotent.
    void stop();

    bool isActive() const { return m_writer != nullptr; }
    bool isArmed() const { return !m_appendPath.isEmpty(); } // appendOnFirstEdit() waits for an edit
    bool isPaused() const;
    QString path() const;
    qint64 fileSize() const;
    QString errorMessage() const; // why recording is paused; empty otherwise

    // A default file for a live run: <AppDataLocation>/sessions/<dashboard>-<UTC time>.chaoscope
    static QString defaultPath(const QString &dashboardName, qint64 nowMs);

signals:
    // Paused by a write error, resumed, or stopped.
    void stateChanged();

private:
    struct SeriesState
    {
        quint32 id = 0;
        bool declared = false;
        QMap<QString, QString> labels;
        SessionChangeFilter filter;
    };

    void connectEdits();
    void onSamplesChanged(const QString &key, const TimeRange &span);
    void recordSeries(const QString &key, SeriesState &state, const TimeRange &span);
    SeriesState &seriesState(const QString &key);
    void onWriterStateChanged();
    void recordDropped();
    void declareSeries(quint32 id, const QString &key, const QMap<QString, QString> &labels,
                       const QString &renamedFrom = {});
    void onSeriesRenamed(const std::vector<std::pair<QString, QString>> &moved);
    void onActionStarted(const LoadTesterAction &action);
    void onActionFinished(const ActionReport &report);
    void recordAnnotation(int kind, const Annotation &annotation);

    SampleStore *m_store;
    AnnotationModel *m_annotations;
    QPointer<LoadTesterController> m_controller;
    SessionWriter::Options m_options;
    std::unique_ptr<SessionWriter> m_writer;
    QString m_appendPath; // appendOnFirstEdit(): where, and from which offset
    qint64 m_appendValidEnd = 0;
    QString m_appendError;
    bool m_recordSamples = false;
    std::map<QString, SeriesState> m_series; // nodes stay put while others are added
    quint32 m_nextSeriesId = 1;
    QHash<quint32, QString> m_keysById;
    std::vector<qint64> m_scratchTimes;
    std::vector<double> m_scratchValues;
};
