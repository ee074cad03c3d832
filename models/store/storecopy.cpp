// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/storecopy.h"

#include "store/samplestore.h"

namespace StoreCopy {

std::shared_ptr<SampleStore> of(const SampleStore &store, const QStringList &keys, const TimeRange &range)
{
    auto copy = std::make_shared<SampleStore>();
    copy->setRetentionMs(0); // a copy keeps what it was given
    for (const QString &key : keys) {
        const SampleStore::Series *series = store.series(key);
        if (!series || copy->contains(key))
            continue;
        const auto [first, last] = series->indexRange(range);
        copy->merge(key, series->labels(), series->timestampsMs().subspan(first, last - first),
                    series->values().subspan(first, last - first));
    }
    return copy;
}

} // namespace StoreCopy
