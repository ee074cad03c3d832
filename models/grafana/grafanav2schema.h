// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QJsonObject>
#include <QStringList>

// Grafana 12's v2 dashboard schema (apiVersion dashboard.grafana.app/v2alpha1, v2beta1, v2)
// rewritten as the classic JSON model, so that one converter (GrafanaImporter) maps both.
// Elements are placed where the layout puts them: grid, rows, auto grid and tabs are
// flattened in reading order, each nested layout below the one before. What the classic
// model has no place for (a tab, a row's own variables, conditional rendering) is named in
// `notConverted`; everything the classic model can say is left for the converter to judge.
namespace GrafanaV2Schema {

// A v2 resource ({"apiVersion": "dashboard.grafana.app/v2…", "spec": {...}}), or its bare
// spec ({"elements": ..., "layout": ...}).
bool isV2(const QJsonObject &object);

struct Classic
{
    QJsonObject dashboard;
    QStringList notConverted;
};

// An error only when the resource has no spec to read; anything inside that is malformed
// is left out and listed.
Result<Classic> toClassic(const QJsonObject &resource);

} // namespace GrafanaV2Schema
