// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QStringList>
#include <memory>

class SampleStore;

namespace StoreCopy {

// A store of its own holding the samples of these series within the range, for work on another
// thread (a post's pictures, a comparison's) that must not hold the live store's lock while
// the poller goes on filling it. Made on the store's thread; read anywhere afterwards.
std::shared_ptr<SampleStore> of(const SampleStore &store, const QStringList &keys, const TimeRange &range);

} // namespace StoreCopy
