// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/seriesreference.h"

#include "store/serieskey.h"

namespace SeriesReference {

QString of(int panel, int index, const SeriesDefinition &definition)
{
    if (!definition.derive.isEmpty())
        return SeriesKey::derived(panel, index);
    if (definition.loadTester != LoadTesterField::None)
        return LoadTesterFields::storeKey(definition.loadTester);
    if (!definition.kubernetes.isEmpty())
        return SeriesKey::kubernetes(definition.workload, definition.kubernetesField());
    return SeriesKey::queryPrefix(panel, index); // every series of the query
}

} // namespace SeriesReference
