// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/ratesetter.h"

#include "loadtester/loadtestercontroller.h"

#include <utility>

namespace {

constexpr int kRetryMs = 200;
constexpr qint64 kGiveUpMs = 10'000;

} // namespace

RateSetter::RateSetter(LoadTesterController *controller, QObject *parent) : QObject(parent), m_controller(controller)
{
    m_retry.setSingleShot(true);
    m_retry.setInterval(kRetryMs);
    connect(&m_retry, &QTimer::timeout, this, &RateSetter::tryApply);
    connect(m_controller, &LoadTesterController::actionFinished, this, &RateSetter::onActionFinished);
}

void RateSetter::set(double rate, Done done)
{
    cancel();
    m_rate = rate;
    m_done = std::move(done);
    m_waiting.start();
    tryApply();
}

void RateSetter::cancel()
{
    m_retry.stop();
    m_done = nullptr;
    // An action already sent still answers; m_applied stays so that its report is not taken
    // for someone else's.
}

void RateSetter::tryApply()
{
    if (!m_done)
        return;
    if (m_controller->replicaCount() == 0) {
        std::exchange(m_done, nullptr)(false, tr("no load tester to steer (start Chaoscope with --admin URL)"));
        return;
    }
    LoadTesterAction action{LoadTesterAction::Kind::SetRate, m_rate};
    action.annotated = false;
    if (!m_applied && m_controller->apply(action)) {
        m_applied = true;
        return;
    }
    if (m_waiting.elapsed() > kGiveUpMs) {
        std::exchange(m_done, nullptr)(
            false, tr("the load tester stayed busy with another change for %1 s").arg(kGiveUpMs / 1000));
        return;
    }
    m_retry.start();
}

void RateSetter::onActionFinished(const ActionReport &report)
{
    if (!m_applied)
        return; // a button's, a step's or a guard's
    m_applied = false;
    if (!m_done)
        return; // cancelled while out
    if (report.action.kind != LoadTesterAction::Kind::SetRate || report.action.value != m_rate) {
        tryApply(); // ours was superseded by a newer move: send that one
        return;
    }
    std::exchange(m_done, nullptr)(report.allConfirmed(), report.failureSummary());
}
