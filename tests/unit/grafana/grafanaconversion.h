// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "grafana/grafanaimporter.h"

#include <QStringList>
#include <gtest/gtest.h>
#include <string>

// What the Grafana importer tests share: a conversion that must succeed, and a list as
// lines for a failure message.
inline GrafanaImporter::Conversion convertGrafana(const QByteArray &json)
{
    Result<GrafanaImporter::Conversion> result = GrafanaImporter::fromJson(json);
    EXPECT_TRUE(result.ok()) << (result.ok() ? std::string() : result.error().message.toStdString());
    return result.ok() ? std::move(result).value() : GrafanaImporter::Conversion{};
}

inline std::string linesOf(const QStringList &list)
{
    return list.join(QLatin1Char('\n')).toStdString();
}
