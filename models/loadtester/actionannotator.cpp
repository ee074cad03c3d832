// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/actionannotator.h"

#include "annotations/annotationmodel.h"
#include "loadtester/loadtestercontroller.h"

ActionAnnotator::ActionAnnotator(LoadTesterController *controller, AnnotationModel *annotations, QObject *parent)
    : QObject(parent), m_controller(controller), m_annotations(annotations)
{
    connect(controller, &LoadTesterController::actionFinished, this, &ActionAnnotator::annotate);
}

void ActionAnnotator::annotate(const ActionReport &report)
{
    if (!report.action.annotated && report.allConfirmed())
        return; // one step of a shape that marks itself as a region
    Annotation annotation;
    // The moment the change was sent: that is when the load changed, not when all replicas
    // had answered.
    annotation.timeMs = report.requestedAtMs;
    annotation.text = report.summary(m_controller->capabilities());
    annotation.source = Annotation::Source::Action;
    annotation.failed = report.confirmedCount() == 0;
    annotation.tags = QStringList{QStringLiteral("action")};
    if (!report.allConfirmed())
        annotation.tags << QStringLiteral("failed");
    m_annotations->add(annotation);
}
