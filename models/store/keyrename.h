// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <optional>

// One key, or every key under a prefix, given a new name: how a series' samples follow its
// panel when panels are reordered, and are put aside (not dropped) when it is removed. `from`
// ending in '/' names a prefix ("p2/q0/" renames every label set of that query); otherwise it
// names one key exactly ("derived/p2/q1", where "derived/p2/q10" must not follow).
struct KeyRename
{
    QString from;
    QString to;

    bool operator==(const KeyRename &) const = default;

    // The key's new name under this rename, or nullopt when it does not apply.
    std::optional<QString> applyTo(const QString &key) const
    {
        if (key == from)
            return to;
        if (from.endsWith(QLatin1Char('/')) && key.startsWith(from))
            return to + key.mid(from.size());
        return std::nullopt;
    }
};
