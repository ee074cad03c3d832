// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/loadshape.h"
#include "scenario/ratesetter.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class AnnotationModel;
class LoadTesterController;

// Plays a ramp or stairs on the load tester, move by move, and marks it as regions: a ramp is
// one region ("ramp 100 → 500 /s over 2m"), stairs one region per stair ("stair 150 /s"), each
// added when it starts, so the timelines show it while it runs. A move that fails ends the
// shape, with the load tester's reason (the failed move is annotated by the controller).
class LoadShapePlayer : public QObject
{
    Q_OBJECT
public:
    LoadShapePlayer(LoadTesterController *controller, AnnotationModel *annotations, QObject *parent = nullptr);

    void start(const LoadShape &shape);
    void stop(); // the region is cut to now
    bool isPlaying() const { return m_playing; }

signals:
    void finished(bool ok, const QString &message);

private:
    void nextMove();
    void onMoveDone(bool ok, const QString &message);
    void markStair(double rate);
    void endRegion();
    void finish(bool ok, const QString &message);
    QString withUnit(double rate) const;

    LoadTesterController *m_controller;
    AnnotationModel *m_annotations;
    RateSetter m_setter;
    LoadShape m_shape;
    std::vector<LoadShape::Move> m_moves;
    std::size_t m_next = 0;
    QElapsedTimer m_clock;
    QTimer m_wait;
    qint64 m_startedAtMs = 0; // UTC
    quint64 m_region = 0;     // the open region's annotation
    bool m_playing = false;
};
