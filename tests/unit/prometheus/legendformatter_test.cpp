// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/legendformatter.h"

#include <gtest/gtest.h>

using Labels = QMap<QString, QString>;

TEST(LegendFormatter, ExpandsTemplatePlaceholders)
{
    const Labels labels{{QStringLiteral("pod"), QStringLiteral("starter-0")},
                        {QStringLiteral("status"), QStringLiteral("599")}};
    EXPECT_EQ(LegendFormatter::format(QStringLiteral("{{pod}} {{ status }}/s"), labels),
              QStringLiteral("starter-0 599/s"));
    EXPECT_EQ(LegendFormatter::format(QStringLiteral("{{missing}} sent"), labels), QStringLiteral("sent"));
    EXPECT_EQ(LegendFormatter::format(QStringLiteral("plain"), labels), QStringLiteral("plain"));
}

TEST(LegendFormatter, EmptyTemplateShowsTheLabelSet)
{
    const Labels labels{{QStringLiteral("__name__"), QStringLiteral("up")},
                        {QStringLiteral("job"), QStringLiteral("prometheus")}};
    EXPECT_EQ(LegendFormatter::format({}, labels), QStringLiteral("up{job=\"prometheus\"}"));
    EXPECT_EQ(LegendFormatter::format({}, Labels{{QStringLiteral("__name__"), QStringLiteral("up")}}),
              QStringLiteral("up"));
    EXPECT_EQ(LegendFormatter::format({}, Labels{}), QStringLiteral("value"));
}
