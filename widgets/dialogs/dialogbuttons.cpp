// SPDX-License-Identifier: GPL-3.0-or-later
#include "dialogs/dialogbuttons.h"

#include <QDialogButtonBox>

namespace DialogButtons {

void keepTabbable(QDialogButtonBox *box)
{
    box->setFocusProxy(nullptr);
}

} // namespace DialogButtons
