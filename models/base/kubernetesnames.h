// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// The names Kubernetes accepts, checked where a user writes one (a dashboard, a scenario, the
// dock) so that a typo is told there and not as the API server's 422 later.
namespace KubernetesNames {

// A namespace or a workload: a DNS-1123 subdomain ("c8-chaos", "worker.v2"), at most 253.
bool isObjectName(const QString &name);
// An env var as the API takes it: a C identifier, and '.' or '-' after the first character.
bool isEnvName(const QString &name);

} // namespace KubernetesNames
