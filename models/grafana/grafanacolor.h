// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// A colour as Grafana writes it: one of its named colours ("green", "semi-dark-red"),
// "#RGB" / "#RRGGBB", or "rgb(a)(r, g, b[, a])". Chaoscope's files say "#RRGGBB".
namespace GrafanaColor {

// "#RRGGBB" (upper case), or empty for what is not a colour ("transparent", "text", "").
QString toHex(const QString &grafana);

} // namespace GrafanaColor
