// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "base/result.h"
#include "base/timerange.h"
#include "session/format/sessioncontents.h"

#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

// "Save as": writes a session as a snapshot instead of a journal — the header, the dashboard,
// each series declared once with all its samples in a few key chunks, the annotations in
// their final state, the actions, a closing record. Smaller and faster to open than the
// journal it came from, and readable by the same reader. Optionally trimmed to a time range
// for sharing: samples, annotations and actions outside it are left out.
namespace SessionCompactor {

QByteArray encode(const SessionContents &contents, const std::vector<Annotation> &annotations,
                  const std::optional<TimeRange> &trimTo = std::nullopt);

// Writes through a temporary file: the target is replaced only by a complete snapshot.
std::optional<Error> write(const QString &path, const SessionContents &contents,
                           const std::vector<Annotation> &annotations,
                           const std::optional<TimeRange> &trimTo = std::nullopt);

} // namespace SessionCompactor
