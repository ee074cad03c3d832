// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMenu;

namespace ThemeMenu {

// View ▸ Theme: light, dark, or the desktop's; the choice applies at once and is remembered.
void addTo(QMenu *view);

} // namespace ThemeMenu
