// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/loadshapeplayer.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/loadtestertext.h"

#include <QDateTime>

LoadShapePlayer::LoadShapePlayer(LoadTesterController *controller, AnnotationModel *annotations, QObject *parent)
    : QObject(parent), m_controller(controller), m_annotations(annotations), m_setter(controller)
{
    m_wait.setSingleShot(true);
    connect(&m_wait, &QTimer::timeout, this, &LoadShapePlayer::nextMove);
}

QString LoadShapePlayer::withUnit(double rate) const
{
    // "40 /s" for an open model; Locust's and k6's set-point has no unit but its name: "4 users".
    const LoadTesterCapabilities capabilities = m_controller->capabilities();
    return LoadTesterText::withUnit(rate,
                                    capabilities.rateUnit.isEmpty() ? capabilities.rateLabel : capabilities.rateUnit);
}

void LoadShapePlayer::start(const LoadShape &shape)
{
    stop();
    m_shape = shape;
    double current = 0;
    for (int i = 0; i < m_controller->replicaCount(); ++i) {
        if (const std::optional<LoadTesterStatus> status = m_controller->status(i)) {
            current = status->rate;
            break;
        }
    }
    m_moves = shape.plan(current);
    m_next = 0;
    m_playing = true;
    m_clock.start();
    m_startedAtMs = QDateTime::currentMSecsSinceEpoch();
    if (shape.kind == LoadShape::Kind::Ramp) {
        Annotation region;
        region.timeMs = m_startedAtMs;
        region.endMs = m_startedAtMs + shape.overMs;
        region.text = QStringLiteral("ramp %1 → %2 over %3")
                          .arg(LoadTesterText::number(shape.from.value_or(current)), withUnit(shape.to),
                               Format::compactDuration(shape.overMs));
        region.tags = {QStringLiteral("ramp")};
        region.source = Annotation::Source::Scenario;
        m_region = m_annotations->add(region);
    }
    nextMove();
}

void LoadShapePlayer::stop()
{
    if (!m_playing)
        return;
    m_wait.stop();
    m_setter.cancel();
    endRegion();
    m_playing = false;
}

void LoadShapePlayer::nextMove()
{
    if (!m_playing)
        return;
    if (m_next >= m_moves.size()) {
        finish(true, QString());
        return;
    }
    const LoadShape::Move move = m_moves[m_next];
    m_setter.set(move.rate, [this](bool ok, const QString &message) { onMoveDone(ok, message); });
    if (m_shape.kind == LoadShape::Kind::Stairs)
        markStair(move.rate);
}

void LoadShapePlayer::onMoveDone(bool ok, const QString &message)
{
    if (!m_playing)
        return;
    if (!ok) {
        finish(false, tr("%1 stopped at %2: %3").arg(m_shape.describe(), withUnit(m_moves[m_next].rate), message));
        return;
    }
    ++m_next;
    // After the last move: stairs hold the last stair for its time too; a ramp ends with its
    // last move.
    const qint64 endMs =
        m_shape.kind == LoadShape::Kind::Stairs ? m_moves.back().offsetMs + m_shape.everyMs : m_moves.back().offsetMs;
    const qint64 dueMs = m_next < m_moves.size() ? m_moves[m_next].offsetMs : endMs;
    m_wait.start(int(std::max<qint64>(0, dueMs - m_clock.elapsed())));
}

void LoadShapePlayer::markStair(double rate)
{
    endRegion();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Annotation region;
    region.timeMs = now;
    region.endMs = now + m_shape.everyMs;
    region.text = QStringLiteral("stair %1").arg(withUnit(rate));
    region.tags = {QStringLiteral("stairs")};
    region.source = Annotation::Source::Scenario;
    m_region = m_annotations->add(region);
}

void LoadShapePlayer::endRegion()
{
    if (!m_region)
        return;
    // A shape cut short (a guard, the user) ends where it stopped, not where it was planned.
    if (std::optional<Annotation> region = m_annotations->find(m_region)) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (region->endMs && *region->endMs > now) {
            region->endMs = std::max(region->timeMs, now);
            m_annotations->update(*region);
        }
    }
    m_region = 0;
}

void LoadShapePlayer::finish(bool ok, const QString &message)
{
    m_wait.stop();
    endRegion();
    m_playing = false;
    emit finished(ok, message);
}
