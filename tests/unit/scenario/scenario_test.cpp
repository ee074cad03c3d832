// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/loadtesteraction.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

TEST(ScenarioLoader, BuiltinsParseWithoutIssues)
{
    for (const QString &name : ScenarioLoader::builtinNames()) {
        const auto loaded = ScenarioLoader::load(name);
        EXPECT_TRUE(loaded.usable) << name.toStdString();
        for (const auto &issue : loaded.issues)
            ADD_FAILURE() << name.toStdString() << ": " << issue.toString().toStdString();
        EXPECT_FALSE(loaded.scenario.steps.empty());
    }
}

TEST(ScenarioLoader, StepsAndTiming)
{
    const auto loaded = ScenarioLoader::fromJson(R"({"title": "t", "steps": [
        {"at": "+2m", "setRate": 500},
        {"after": "10s", "setInflightLimit": 0},
        {"waitFor": "sum(x) > 1000", "timeout": "5m", "continueOnError": true},
        {"annotate": "note", "tags": ["a", "b"]},
        {"pause": true}, {"resume": true},
        {"at": "+20m", "screenshot": "end.png"}]})");
    ASSERT_TRUE(loaded.usable) << loaded.issues.value(0).toString().toStdString();
    const auto &steps = loaded.scenario.steps;
    ASSERT_EQ(steps.size(), 7u);
    EXPECT_EQ(steps[0].kind, ScenarioStep::Kind::SetRate);
    EXPECT_EQ(steps[0].atMs, 120'000);
    EXPECT_EQ(steps[1].afterMs, 10'000);
    EXPECT_EQ(steps[1].describe(), QStringLiteral("remove the in-flight limit"));
    EXPECT_EQ(steps[2].timeoutMs, 300'000);
    EXPECT_TRUE(steps[2].continueOnError);
    EXPECT_EQ(steps[3].tags, (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    EXPECT_EQ(steps[6].text, QStringLiteral("end.png"));
}

TEST(ScenarioLoader, MistakesAreLocatedAndStopTheRun)
{
    const auto loaded = ScenarioLoader::fromJson(R"({"steps": [
        {"at": "+2m", "setRate": -5},
        {"at": "soon", "pause": true},
        {"annotate": "x", "screenshot": "y.png"},
        {"at": "+1m", "resume": true},
        {"setRate": 1, "colour": "red"}]})");
    EXPECT_FALSE(loaded.usable);
    QStringList texts;
    for (const auto &issue : loaded.issues)
        texts << issue.toString();
    const QString all = texts.join(QLatin1Char('\n'));
    EXPECT_TRUE(all.contains(QStringLiteral("steps[0].setRate: must be a number"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[1].at: is not a duration"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[2]: has several actions"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[4].colour: unknown key"))) << all.toStdString();
    EXPECT_FALSE(ScenarioLoader::fromJson("{").usable);
    EXPECT_FALSE(ScenarioLoader::load(QStringLiteral("/nonexistent/scenario.json")).usable);
}

// A scenario file from elsewhere must not write outside the chosen output folder.
TEST(ScenarioLoader, ScreenshotsStayInsideTheOutputFolder)
{
    for (const char *bad : {"/etc/cron.d/x.png", "../x.png", "shots/../../x.png", "..\\x.png", "~/x.png", "C:/x.png",
                            "\\\\server\\share\\x.png"}) {
        const QByteArray json =
            QByteArray(R"({"steps": [{"screenshot": ")") + QByteArray(bad).replace("\\", "\\\\") + R"("}]})";
        const auto loaded = ScenarioLoader::fromJson(json);
        EXPECT_FALSE(loaded.usable) << bad;
        ASSERT_EQ(loaded.issues.size(), 1) << bad;
        EXPECT_EQ(loaded.issues.first().path, QStringLiteral("steps[0].screenshot")) << bad;
        EXPECT_TRUE(loaded.issues.first().message.contains(QStringLiteral("output folder"))) << bad;
    }
    const auto good =
        ScenarioLoader::fromJson(R"({"steps": [{"screenshot": "a.png"}, {"screenshot": "run1/b..c.png"}]})");
    EXPECT_TRUE(good.usable) << (good.issues.isEmpty() ? std::string() : good.issues.first().toString().toStdString());
}

TEST(ScenarioLoader, AStepSaysWhatItDoesInTheWordsOfTheActionItBecomes)
{
    // The Scenario dock and the headless log once wrote "set rate to 1.23457e+06" where the
    // Load tester dock wrote the action as typed.
    const auto result = ScenarioLoader::fromJson(R"({"steps": [{"setRate": 1234567}, {"setInflightLimit": 0},
                                                              {"pause": true}, {"resume": true}]})");
    ASSERT_TRUE(result.usable);
    ASSERT_EQ(result.scenario.steps.size(), 4u);
    EXPECT_EQ(result.scenario.steps[0].describe(),
              (LoadTesterAction{LoadTesterAction::Kind::SetRate, 1234567}.describe()));
    EXPECT_EQ(result.scenario.steps[0].describe(), QStringLiteral("set rate to 1234567"));
    EXPECT_EQ(result.scenario.steps[1].describe(), QStringLiteral("remove the in-flight limit"));
    EXPECT_EQ(result.scenario.steps[2].describe(), QStringLiteral("pause the load"));
    EXPECT_EQ(result.scenario.steps[3].describe(), QStringLiteral("resume the load"));
}

TEST(ScenarioLoader, KubernetesStepsAreReadWithTheirWorkloadAndChange)
{
    const auto loaded = ScenarioLoader::fromJson(R"({"steps": [
        {"scale": {"workload": "worker", "replicas": 0}},
        {"setResources": {"workload": "starter", "limits": {"cpu": "500m"}, "requests": {"memory": "256Mi"}}},
        {"setEnv": {"workload": "starter", "container": "main", "env": {"RATE": 40}}},
        {"restart": "starter"},
        {"waitForRollout": "starter", "timeout": "2m"}]})");
    ASSERT_TRUE(loaded.usable) << loaded.issues.value(0).toString().toStdString();
    const auto &steps = loaded.scenario.steps;
    ASSERT_EQ(steps.size(), 5u);
    EXPECT_EQ(steps[0].kind, ScenarioStep::Kind::ChangeWorkload);
    EXPECT_EQ(steps[0].describe(), QStringLiteral("scale worker to 0"));
    EXPECT_EQ(steps[1].describe(), QStringLiteral("set starter requests memory=256Mi, limits cpu=500m"));
    EXPECT_EQ(steps[2].change.env.value(QStringLiteral("RATE")), QStringLiteral("40")) << "a number is a value too";
    EXPECT_EQ(steps[2].describe(), QStringLiteral("set starter/main env RATE=40"));
    EXPECT_EQ(steps[3].change.kind, WorkloadChange::Kind::Restart);
    EXPECT_EQ(steps[3].describe(), QStringLiteral("restart starter"));
    EXPECT_EQ(steps[4].kind, ScenarioStep::Kind::WaitForRollout);
    EXPECT_EQ(steps[4].describe(), QStringLiteral("wait for the rollout of starter (at most 2m)"));
}

TEST(ScenarioLoader, KubernetesStepMistakesAreLocated)
{
    const auto loaded = ScenarioLoader::fromJson(R"({"steps": [
        {"scale": {"workload": "worker", "replicas": -1}},
        {"scale": {"replicas": 2}},
        {"setResources": {"workload": "starter", "limits": {"cpu": "half"}}},
        {"setResources": {"workload": "starter", "limits": {"gpu": "1"}}},
        {"setEnv": {"workload": "starter", "env": {}}},
        {"setEnv": {"workload": "starter", "env": {"RATE": "1"}, "colour": "red"}},
        {"restart": ""}]})");
    EXPECT_FALSE(loaded.usable);
    QStringList texts;
    for (const auto &issue : loaded.issues)
        texts << issue.toString();
    const QString all = texts.join(QLatin1Char('\n'));
    EXPECT_TRUE(all.contains(QStringLiteral("steps[0].scale.replicas: must be a whole number ≥ 0")))
        << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[1].scale.workload: missing"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[2].setResources: cpu \"half\" is not a Kubernetes quantity")))
        << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[3].setResources: \"gpu\" is not a resource"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[4].setEnv.env: must be an object"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[5].setEnv.colour: unknown key"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("steps[6].restart: must name a workload"))) << all.toStdString();
}
