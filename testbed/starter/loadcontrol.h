// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadsettings.h"

#include <functional>
#include <mutex>

// The one owner of the set-points, shared by the admin thread (writes) and the scheduler
// thread (reads every tick). Every applied change bumps the version and is logged with its
// old and new value; a change that leaves everything as it was is not a change.
class LoadControl
{
public:
    enum class Outcome
    {
        Applied,
        Unchanged,
        VersionMismatch, // If-Match no longer matches: nothing was changed
    };
    struct Change
    {
        Outcome outcome = Outcome::Unchanged;
        LoadSettings settings; // after the change (or the current ones when refused)
    };

    explicit LoadControl(LoadSettings initial);

    LoadSettings settings() const;

    Change setRate(double rate, const VersionMatch &precondition = {});
    Change setInflightLimit(qint32 limit, const VersionMatch &precondition = {});
    Change setPaused(bool paused, const VersionMatch &precondition = {});

    // Called (outside the lock) after every applied change, e.g. to wake the scheduler.
    void setChangeListener(std::function<void()> listener);

private:
    template<typename Mutate> Change apply(const VersionMatch &precondition, Mutate mutate);

    mutable std::mutex m_mutex;
    LoadSettings m_settings;
    std::function<void()> m_listener;
};
