// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QDialogButtonBox;

namespace DialogButtons {

// Keeps Tab moving through a dialog whose button box has buttons added to standard ones
// ("Copy picture" next to Cancel). Qt 6.4's QDialogButtonBox makes its first button its
// focus proxy and then sits, itself, in the tab chain between two of its buttons, so Tab
// from the button before it jumps back to the first one: a keyboard trap that never reaches
// the last button or the dialog's fields again. Without the proxy the box is passed over as
// the no-focus widget it is. Call once all buttons are added.
void keepTabbable(QDialogButtonBox *box);

} // namespace DialogButtons
