// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/detectors.h"
#include "annotations/annotation.h"
#include "base/timerange.h"
#include "dashboard/dashboarddefinition.h"

#include <QObject>
#include <QTimer>
#include <vector>

class AnnotationModel;
class SampleStore;

// Runs the dashboard's detectors over the stored series and adds each new finding once, as a
// suggested annotation (source Detector). What the user does with it is remembered for the
// run: a dismissed suggestion is removed and the same event is not suggested again; an
// accepted one is an ordinary annotation and is not suggested a second time either. A
// detector finding already on the timeline (a recording's) is not added twice. Suggestions
// are the program's, added straight to the model; the user's accept and dismiss go through
// the AnnotationEditor and undo.
//
// Samples arrive in bursts (one per panel and tick, a backfill in pieces), so a run follows
// the last change of an input by a short delay instead of each one.
class DetectorRunner : public QObject
{
    Q_OBJECT
public:
    DetectorRunner(SampleStore *store, AnnotationModel *annotations, QObject *parent = nullptr);

    void setDashboard(const DashboardDefinition &dashboard);
    void setDelayMs(int ms) { m_delay.setInterval(ms); }

    // Runs every detector now; returns how many suggestions were added.
    int run();

signals:
    void ran(int added);

private:
    struct Input
    {
        DetectorDefinition definition;
        QString seriesKey; // SeriesKey reference of `series` (or of the backlog)
        QString throughputKey;
        QString name; // how the text names the series: its legend, else its id
        QString unit; // of the panel axis the series is on
    };

    void onSamplesChanged(const QString &key);
    bool isInput(const QString &key) const;
    QString resolve(const QString &reference) const;        // SeriesKey::resolveFirst
    QStringList resolveAll(const QString &reference) const; // SeriesKey::resolveAll
    std::vector<DetectorSuggestion> findings(const Input &input) const;
    bool offer(std::size_t input, const DetectorSuggestion &suggestion);
    // Whether an event was offered already: the same detector on the same input (and, for a
    // target, the same target) at the same instant, or for a drop within one drop window —
    // the newest sample is provisional, so a live drop may be found a sample later or with
    // other numbers on the next tick, and is still the same drop.
    bool isSameEvent(const Annotation &offered, std::size_t input, const DetectorSuggestion &suggestion) const;

    SampleStore *m_store;
    AnnotationModel *m_annotations;
    std::vector<Input> m_inputs;
    struct Offered
    {
        std::size_t input;
        Annotation annotation; // as first suggested
    };
    // Every event suggested in this run, whatever became of it (accepted, dismissed, edited).
    std::vector<Offered> m_offered;
    QTimer m_delay;
};
