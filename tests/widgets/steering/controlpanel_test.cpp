// SPDX-License-Identifier: GPL-3.0-or-later
// The steering dock against the real starter: a change is read back and confirmed, a refused
// change says why in words, a cancelled confirmation sends nothing, a dead starter is named,
// and controls a backend cannot do are disabled with the reason.
#include "annotations/annotationmodel.h"
#include "freeport.h"
#include "loadtester/actionannotator.h"
#include "loadtester/adapters/adapterfactory.h"
#include "loadtester/loadtestercontroller.h"
#include "steering/controlpanel.h"
#include "testbedprocess.h"
#include "testpaths.h"

#include <QApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <gtest/gtest.h>

namespace {

class ControlPanelAgainstStarter : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(engine.start(engineBinary(), {QStringLiteral("--workers"), QStringLiteral("4")}))
            << engine.errorString().toStdString();
        ASSERT_TRUE(starter.start(starterBinary(),
                                  {QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                   QStringLiteral("20"), QStringLiteral("--max-rate"), QStringLiteral("1000")}))
            << starter.errorString().toStdString();
        std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
        replicas.push_back(makeLoadTesterAdapter(QStringLiteral("starter"), QUrl(starter.baseUrl())));
        controller.setReplicas(std::move(replicas));
        controller.setPollIntervalMs(200);
        controller.startPolling();
    }

    bool waitForStatus()
    {
        return QTest::qWaitFor([&] { return controller.status(0).has_value(); }, 10000);
    }

    // A step button by its accessible name, e.g. "In-flight limit −10 %".
    static QPushButton *stepButton(const ControlPanel &panel, const QString &name)
    {
        for (QPushButton *button : panel.findChildren<QPushButton *>()) {
            if (button->accessibleName() == name)
                return button;
        }
        return nullptr;
    }

    TestbedProcess engine;
    TestbedProcess starter;
    LoadTesterController controller;
    AnnotationModel annotations;
};

} // namespace

TEST_F(ControlPanelAgainstStarter, AppliedRateIsReadBackConfirmedAndAnnotated)
{
    ActionAnnotator annotator(&controller, &annotations);
    ControlPanel panel(&controller);
    panel.show();
    ASSERT_TRUE(waitForStatus());
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.statusText().contains(QStringLiteral("20")); }, 5000));

    QSignalSpy finished(&controller, &LoadTesterController::actionFinished);
    panel.applyRate(30);
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_TRUE(panel.resultText().contains(QStringLiteral("confirmed"))) << panel.resultText().toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return controller.status(0) && controller.status(0)->rate == 30; }, 5000));
    ASSERT_EQ(annotations.rowCount(), 1);
    const Annotation note = annotations.annotations().front();
    EXPECT_TRUE(note.text.contains(QStringLiteral("20"))) << note.text.toStdString();
    EXPECT_TRUE(note.text.contains(QStringLiteral("30"))) << note.text.toStdString();
    EXPECT_EQ(note.source, Annotation::Source::Action);
    EXPECT_FALSE(note.failed);
}

TEST_F(ControlPanelAgainstStarter, RefusedChangeShowsTheStartersReasonAndChangesNothing)
{
    ActionAnnotator annotator(&controller, &annotations);
    ControlPanel panel(&controller);
    panel.setConfirm([](const QString &) { return true; });
    ASSERT_TRUE(waitForStatus());
    QSignalSpy finished(&controller, &LoadTesterController::actionFinished);
    panel.applyRate(5000); // over --max-rate
    ASSERT_TRUE(finished.wait(10000));
    const QString text = panel.resultText();
    EXPECT_TRUE(text.contains(QStringLiteral("400")) || text.contains(QStringLiteral("max")))
        << "the refusal must be explained: " << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("confirmed"))) << text.toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return controller.status(0).has_value(); }, 5000));
    EXPECT_EQ(controller.status(0)->rate, 20);
    ASSERT_EQ(annotations.rowCount(), 1);
    EXPECT_TRUE(annotations.annotations().front().failed);
}

TEST_F(ControlPanelAgainstStarter, BigChangeAsksFirstAndCancelSendsNothing)
{
    ControlPanel panel(&controller);
    QStringList asked;
    panel.setConfirm([&](const QString &reason) {
        asked << reason;
        return false;
    });
    ASSERT_TRUE(waitForStatus());
    QSignalSpy started(&controller, &LoadTesterController::actionStarted);
    panel.applyRate(0);   // stops the load
    panel.applyRate(100); // more than ×2
    EXPECT_EQ(asked.size(), 2);
    EXPECT_TRUE(panel.resultText().contains(QStringLiteral("cancelled")));
    EXPECT_EQ(started.size(), 0);
    panel.applyRate(25); // a small change goes straight through
    EXPECT_EQ(asked.size(), 2);
    EXPECT_EQ(started.size(), 1);
}

// While a big change is asked about, the field keeps the value the question is about, and the
// question says which change it is: once the field showed the old value again while the
// dialog still asked, and "more than ×2" did not say of what.
TEST_F(ControlPanelAgainstStarter, TheTypedValueStaysWhileItsConfirmationIsOpen)
{
    ControlPanel panel(&controller);
    panel.show();
    QApplication::setActiveWindow(&panel);
    ASSERT_TRUE(waitForStatus());
    auto *rate = panel.findChild<QDoubleSpinBox *>();
    ASSERT_NE(rate, nullptr);
    rate->setFocus();
    ASSERT_TRUE(QTest::qWaitFor([&] { return rate->hasFocus() && rate->value() == 20; }, 5000));

    QString question;
    double shownWhileAsked = 0;
    bool polledWhileAsked = false;
    panel.setConfirm([&](const QString &asked) {
        question = asked;
        // As a modal dialog does: the event loop runs, the status polls go on.
        QSignalSpy polled(&controller, &LoadTesterController::statusUpdated);
        polledWhileAsked = QTest::qWaitFor([&] { return polled.size() >= 2; }, 10000);
        shownWhileAsked = rate->value();
        return false;
    });
    rate->selectAll();
    QTest::keyClicks(rate, QStringLiteral("45"));
    QSignalSpy started(&controller, &LoadTesterController::actionStarted);
    QTest::keyClick(rate, Qt::Key_Return);
    ASSERT_TRUE(polledWhileAsked);
    EXPECT_EQ(shownWhileAsked, 45) << "the field kept the value asked about";
    EXPECT_TRUE(question.startsWith(QStringLiteral("rate 20 /s → 45 /s: more than twice the rate in force")))
        << question.toStdString();
    EXPECT_EQ(started.size(), 0);
    EXPECT_EQ(rate->value(), 20) << "No: the field shows the value in force again";
}

TEST_F(ControlPanelAgainstStarter, StoppedStarterIsReportedAsUnreachable)
{
    ControlPanel panel(&controller);
    ASSERT_TRUE(waitForStatus());
    starter.stop();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !controller.status(0).has_value(); }, 10000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.statusText().contains(QStringLiteral("✖")); }, 5000))
        << panel.statusText().toStdString();
    QSignalSpy finished(&controller, &LoadTesterController::actionFinished);
    panel.setConfirm([](const QString &) { return true; });
    panel.applyRate(21);
    ASSERT_TRUE(finished.wait(15000));
    EXPECT_TRUE(panel.resultText().contains(QStringLiteral("✖"))) << panel.resultText().toStdString();
}

TEST_F(ControlPanelAgainstStarter, InflightLimitIsSentWithEnterAndSteppedByItsButtons)
{
    ActionAnnotator annotator(&controller, &annotations);
    ControlPanel panel(&controller);
    panel.setConfirm([](const QString &) { return true; });
    panel.show();
    QApplication::setActiveWindow(&panel);
    ASSERT_TRUE(waitForStatus());
    ASSERT_EQ(controller.status(0)->inflightLimit, 0); // the starter runs without a limit
    QPushButton *minusTen = stepButton(panel, QStringLiteral("In-flight limit −10 %"));
    QPushButton *half = stepButton(panel, QStringLiteral("In-flight limit ×½"));
    ASSERT_TRUE(minusTen && half);
    ASSERT_TRUE(minusTen->isEnabled());

    // Unlimited: there is nothing to step from, so nothing is sent and the user is told why.
    QSignalSpy started(&controller, &LoadTesterController::actionStarted);
    minusTen->click();
    EXPECT_EQ(started.size(), 0);
    EXPECT_TRUE(panel.resultText().contains(QStringLiteral("type one"))) << panel.resultText().toStdString();

    // Typed and Enter: sent, read back, annotated.
    auto *limit = panel.findChild<QSpinBox *>();
    ASSERT_NE(limit, nullptr);
    limit->setFocus();
    ASSERT_TRUE(QTest::qWaitFor([&] { return limit->hasFocus(); }, 5000));
    limit->selectAll();
    QTest::keyClicks(limit, QStringLiteral("40"));
    QSignalSpy finished(&controller, &LoadTesterController::actionFinished);
    QTest::keyClick(limit, Qt::Key_Return);
    ASSERT_TRUE(finished.wait(10000));
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return controller.status(0) && controller.status(0)->inflightLimit == 40; }, 5000));

    // A step from 40 sends 36; the annotation says so.
    minusTen->click();
    ASSERT_TRUE(finished.wait(10000));
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return controller.status(0) && controller.status(0)->inflightLimit == 36; }, 5000));
    ASSERT_EQ(annotations.rowCount(), 2);
    const Annotation last = annotations.annotations().back();
    EXPECT_TRUE(last.text.contains(QStringLiteral("40")) && last.text.contains(QStringLiteral("36")))
        << last.text.toStdString();
    EXPECT_FALSE(last.failed);
    EXPECT_EQ(finished.size(), 2);
}

TEST(ControlPanelCapabilities, LocustHasNoInflightLimitAndSaysWhy)
{
    LoadTesterController controller;
    std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
    replicas.push_back(makeLoadTesterAdapter(QStringLiteral("locust"),
                                             QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(freeLoopbackPort()))));
    controller.setReplicas(std::move(replicas));
    ControlPanel panel(&controller);
    const auto spins = panel.findChildren<QSpinBox *>();
    ASSERT_EQ(spins.size(), 1); // the in-flight limit (the rate is a double spin box)
    EXPECT_FALSE(spins.first()->isEnabled());
    EXPECT_FALSE(spins.first()->toolTip().isEmpty());
    int limitSteps = 0;
    for (QPushButton *button : panel.findChildren<QPushButton *>()) {
        if (button->accessibleName().startsWith(QStringLiteral("In-flight limit"))) {
            ++limitSteps;
            EXPECT_FALSE(button->isEnabled()) << button->accessibleName().toStdString();
            EXPECT_EQ(button->toolTip(), spins.first()->toolTip());
        }
    }
    EXPECT_EQ(limitSteps, 4);
}

TEST_F(ControlPanelAgainstStarter, TheRateFieldShowsTheValueInForceAndNeverUndoesAChangeSilently)
{
    ControlPanel panel(&controller);
    QStringList questions;
    bool answer = false;
    panel.setConfirm([&](const QString &question) {
        questions << question;
        return answer;
    });
    panel.show();
    QApplication::setActiveWindow(&panel);
    ASSERT_TRUE(waitForStatus());
    auto *rate = panel.findChild<QDoubleSpinBox *>();
    ASSERT_NE(rate, nullptr);
    rate->setFocus();
    ASSERT_TRUE(QTest::qWaitFor([&] { return rate->hasFocus(); }, 5000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return rate->value() == 20; }, 5000));

    // Ctrl+Up with the cursor in the field: the starter goes to 22, and so does the field.
    QSignalSpy finished(&controller, &LoadTesterController::actionFinished);
    QTest::keyClick(rate, Qt::Key_Up, Qt::ControlModifier);
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_TRUE(QTest::qWaitFor([&] { return rate->value() == 22; }, 5000)) << rate->text().toStdString();
    // Enter now sends what the field shows, not a stale 20.
    QTest::keyClick(rate, Qt::Key_Return);
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_EQ(controller.status(0)->rate, 22);

    // The user types 50; meanwhile someone else sets 30.
    rate->selectAll();
    QTest::keyClicks(rate, QStringLiteral("50"));
    ASSERT_TRUE(controller.apply({LoadTesterAction::Kind::SetRate, 30}));
    ASSERT_TRUE(finished.wait(10000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return controller.status(0) && controller.status(0)->rate == 30; }, 5000));
    auto shownBeside = [&] {
        for (QLabel *label : panel.findChildren<QLabel *>())
            if (label->isVisible() && label->text().startsWith(QStringLiteral("Now 30")))
                return true;
        return false;
    };
    EXPECT_TRUE(QTest::qWaitFor(shownBeside, 5000)) << "the change from elsewhere is shown beside the field";
    EXPECT_EQ(rate->cleanText(), QStringLiteral("50")) << "the typing is kept";

    // Enter asks; No keeps 30.
    QSignalSpy started(&controller, &LoadTesterController::actionStarted);
    QTest::keyClick(rate, Qt::Key_Return);
    ASSERT_EQ(questions.size(), 1);
    EXPECT_TRUE(questions.first().contains(QStringLiteral("from 22")) &&
                questions.first().contains(QStringLiteral("30")) && questions.first().contains(QStringLiteral("50")))
        << questions.first().toStdString();
    EXPECT_EQ(started.size(), 0);
    EXPECT_TRUE(panel.resultText().contains(QStringLiteral("stays 30"))) << panel.resultText().toStdString();
    EXPECT_EQ(rate->value(), 30);

    // Typed again with nothing changed meanwhile: sent without a question.
    rate->selectAll();
    QTest::keyClicks(rate, QStringLiteral("50"));
    QTest::keyClick(rate, Qt::Key_Return);
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_EQ(questions.size(), 1);
    EXPECT_TRUE(QTest::qWaitFor([&] { return controller.status(0) && controller.status(0)->rate == 50; }, 5000));
}

TEST(ControlPanelKeys, TheWindowsShortcutsWorkFromTheNumberFields)
{
    LoadTesterController controller; // no replicas: the fields are there all the same
    QWidget window;
    auto *panel = new ControlPanel(&controller, &window);
    int marks = 0;
    int exports = 0;
    auto *mark = new QShortcut(QKeySequence(Qt::Key_M), &window);
    QObject::connect(mark, &QShortcut::activated, [&] { ++marks; });
    auto *exportKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_E), &window);
    QObject::connect(exportKey, &QShortcut::activated, [&] { ++exports; });
    window.show();
    QApplication::setActiveWindow(&window);
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    for (QAbstractSpinBox *field : panel->findChildren<QAbstractSpinBox *>()) {
        field->setEnabled(true);
        field->setFocus();
        ASSERT_TRUE(QTest::qWaitFor([&] { return field->hasFocus(); }, 2000));
        const int marksBefore = marks;
        const int exportsBefore = exports;
        QTest::keyClick(field, Qt::Key_M);
        QTest::keyClick(field, Qt::Key_E, Qt::ControlModifier);
        EXPECT_EQ(marks, marksBefore + 1) << "M from " << field->metaObject()->className();
        EXPECT_EQ(exports, exportsBefore + 1) << "Ctrl+E from " << field->metaObject()->className();
        // Digits are still the field's.
        field->selectAll();
        QTest::keyClicks(field, QStringLiteral("42"));
        EXPECT_TRUE(field->text().contains(QStringLiteral("42"))) << field->text().toStdString();
    }
}

TEST_F(ControlPanelAgainstStarter, FindTheCeilingIsOfferedOnlyWhileNothingElseSteers)
{
    ControlPanel panel(&controller);
    ASSERT_TRUE(waitForStatus());
    QPushButton *find = nullptr;
    for (QPushButton *button : panel.findChildren<QPushButton *>()) {
        if (button->text() == QStringLiteral("Find the ceiling…"))
            find = button;
    }
    ASSERT_NE(find, nullptr);
    EXPECT_TRUE(find->isEnabled());
    panel.setCeilingSearchAllowed(false); // a scenario runs
    EXPECT_FALSE(find->isEnabled());
    EXPECT_EQ(find->toolTip(), QStringLiteral("A scenario is running: it steers the load"));
    panel.setCeilingSearchAllowed(true);
    EXPECT_TRUE(panel.isCeilingSearchOffered());

    QSignalSpy requested(&panel, &ControlPanel::ceilingSearchRequested);
    CeilingSearchPlan plan;
    plan.from = 20;
    panel.requestCeilingSearch(plan);
    ASSERT_EQ(requested.size(), 1);
    EXPECT_EQ(requested.first().first().value<CeilingSearchPlan>().from, 20);
}
