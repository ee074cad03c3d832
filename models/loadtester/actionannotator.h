// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class AnnotationModel;
class LoadTesterController;
struct ActionReport;

// Turns every action taken on the load tester into an annotation on all timelines, at the
// time it was applied: "rate 300 → 500 /s (Chaoscope starter, 3/3 replicas)". A failed
// attempt is annotated too, marked failed, with the reason.
class ActionAnnotator : public QObject
{
    Q_OBJECT
public:
    ActionAnnotator(LoadTesterController *controller, AnnotationModel *annotations, QObject *parent = nullptr);

    void annotate(const ActionReport &report);

private:
    LoadTesterController *m_controller;
    AnnotationModel *m_annotations;
};
