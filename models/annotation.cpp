// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotation.h"

QString Annotation::sourceName(Source source)
{
    switch (source) {
    case Source::Manual: return QStringLiteral("manual");
    case Source::Action: return QStringLiteral("action");
    case Source::Scenario: return QStringLiteral("scenario");
    case Source::Detector: return QStringLiteral("detector");
    }
    return {};
}
