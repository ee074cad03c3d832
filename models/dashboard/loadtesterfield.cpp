// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loadtesterfield.h"

#include "store/serieskey.h"

#include <array>

namespace LoadTesterFields {

namespace {
struct FieldInfo
{
    LoadTesterField field;
    const char *name;
    const char *legend;
};
constexpr std::array<FieldInfo, 5> kFields{{
    {LoadTesterField::Rate, "rate", "rate set-point"},
    {LoadTesterField::InflightLimit, "inflightLimit", "in-flight limit"},
    {LoadTesterField::Inflight, "inflight", "in flight (load tester)"},
    {LoadTesterField::Pending, "pending", "pending (load tester)"},
    {LoadTesterField::Paused, "paused", "paused"},
}};
} // namespace

LoadTesterField fromName(const QString &name)
{
    for (const FieldInfo &info : kFields) {
        if (name.compare(QLatin1String(info.name), Qt::CaseInsensitive) == 0)
            return info.field;
    }
    return LoadTesterField::None;
}

QString name(LoadTesterField field)
{
    for (const FieldInfo &info : kFields) {
        if (info.field == field)
            return QLatin1String(info.name);
    }
    return {};
}

QString storeKey(LoadTesterField field)
{
    return SeriesKey::loadTester(name(field));
}

QString defaultLegend(LoadTesterField field)
{
    for (const FieldInfo &info : kFields) {
        if (info.field == field)
            return QString::fromUtf8(info.legend);
    }
    return {};
}

} // namespace LoadTesterFields
