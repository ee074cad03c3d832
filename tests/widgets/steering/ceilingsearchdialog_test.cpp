// SPDX-License-Identifier: GPL-3.0-or-later
// "Find the ceiling…": the fields become the search's plan, and a plan the search cannot run
// keeps the Start button disabled and says why.
#include "steering/ceilingsearchdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <gtest/gtest.h>

TEST(CeilingSearchDialog, FieldsBecomeThePlanAndAPlanThatCannotRunIsRefusedWithWhy)
{
    CeilingSearchPlan initial;
    initial.from = 40;
    initial.everyMs = 20'000;
    initial.settleMs = 5000;
    CeilingSearchDialog dialog(initial, QStringLiteral("/s"));
    QPushButton *start = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    EXPECT_TRUE(start->isEnabled());
    EXPECT_EQ(dialog.plan().from, 40);
    EXPECT_EQ(dialog.plan().everyMs, 20'000);
    EXPECT_FALSE(dialog.plan().latencyBelowSeconds);

    auto *settle = dialog.findChild<QSpinBox *>(QStringLiteral("settle"));
    ASSERT_NE(settle, nullptr);
    settle->setValue(19);
    EXPECT_FALSE(start->isEnabled());
    EXPECT_EQ(dialog.problem(), QStringLiteral("\"every\" must leave at least 3s after \"settle\" to be judged"));
    settle->setValue(8);
    EXPECT_TRUE(start->isEnabled());

    dialog.findChild<QCheckBox *>()->setChecked(true);
    EXPECT_DOUBLE_EQ(*dialog.plan().latencyBelowSeconds, 0.5);
    auto *sent = dialog.findChild<QLineEdit *>(QStringLiteral("sentQuery"));
    ASSERT_NE(sent, nullptr);
    sent->setText(QString());
    EXPECT_FALSE(start->isEnabled()) << "sent/s is what the stairs are judged by";
}
