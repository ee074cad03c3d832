// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadcontrol.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcControl, "chaoscope.starter.control")

LoadControl::LoadControl(LoadSettings initial) : m_settings(initial) {}

LoadSettings LoadControl::settings() const
{
    std::lock_guard lock(m_mutex);
    return m_settings;
}

void LoadControl::setChangeListener(std::function<void()> listener)
{
    std::lock_guard lock(m_mutex);
    m_listener = std::move(listener);
}

template<typename Mutate> LoadControl::Change LoadControl::apply(const VersionMatch &precondition, Mutate mutate)
{
    std::function<void()> listener;
    Change change;
    {
        // The precondition is checked under the same lock as the change, so two clients
        // holding the same version cannot both win.
        std::lock_guard lock(m_mutex);
        if (!precondition.accepts(m_settings.version))
            return Change{Outcome::VersionMismatch, m_settings};
        if (!mutate(m_settings))
            return Change{Outcome::Unchanged, m_settings};
        ++m_settings.version;
        change = Change{Outcome::Applied, m_settings};
        listener = m_listener;
    }
    if (listener)
        listener();
    return change;
}

LoadControl::Change LoadControl::setRate(double rate, const VersionMatch &precondition)
{
    return apply(precondition, [rate](LoadSettings &s) {
        if (s.rate == rate)
            return false;
        qCInfo(lcControl, "rate changed from %g to %g per second (version %lld)", s.rate, rate,
               static_cast<long long>(s.version + 1));
        s.rate = rate;
        return true;
    });
}

LoadControl::Change LoadControl::setInflightLimit(qint32 limit, const VersionMatch &precondition)
{
    return apply(precondition, [limit](LoadSettings &s) {
        if (s.inflightLimit == limit)
            return false;
        qCInfo(lcControl, "in-flight limit changed from %d to %d (0 = unlimited, version %lld)", s.inflightLimit, limit,
               static_cast<long long>(s.version + 1));
        s.inflightLimit = limit;
        return true;
    });
}

LoadControl::Change LoadControl::setPaused(bool paused, const VersionMatch &precondition)
{
    return apply(precondition, [paused](LoadSettings &s) {
        if (s.paused == paused)
            return false;
        qCInfo(lcControl, "paused changed from %s to %s (version %lld)", s.paused ? "true" : "false",
               paused ? "true" : "false", static_cast<long long>(s.version + 1));
        s.paused = paused;
        return true;
    });
}
