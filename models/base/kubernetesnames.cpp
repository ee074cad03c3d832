// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/kubernetesnames.h"

#include <QRegularExpression>

namespace KubernetesNames {

bool isObjectName(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$"));
    return valid.match(name).hasMatch();
}

bool isEnvName(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z_][A-Za-z0-9_.-]*$"));
    return valid.match(name).hasMatch();
}

} // namespace KubernetesNames
