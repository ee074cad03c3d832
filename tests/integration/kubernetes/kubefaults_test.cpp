// SPDX-License-Identifier: GPL-3.0-or-later
// What the real cluster cannot be made to do on demand, injected by a fault server speaking
// the Kubernetes API: a watch cut in the middle of an event, a 410 Gone (as an answer and as
// an ERROR event in the stream), and a 409 Conflict on a change. Each is survived in the way
// an informer and kubectl survive it, said in words, and loses nothing.
#include "annotations/annotationmodel.h"
#include "faultserver.h"
#include "kubernetes/clustercontroller.h"
#include "kubernetes/kubeclient.h"
#include "kubernetes/resourcewatch.h"
#include "waitfor.h"

#include <QSignalSpy>
#include <gtest/gtest.h>

namespace {

using Reply = FaultServer::Reply;

const QByteArray kDeployments = "/apis/apps/v1/namespaces/chaos/deployments";

QByteArray deployment(const char *name, int replicas, int version)
{
    return QStringLiteral(R"({"metadata": {"name": "%1", "resourceVersion": "%3", "generation": 1},
        "spec": {"replicas": %2, "template": {"spec": {"containers": [{"name": "%1", "image": "chaoscope/worker"}]}}},
        "status": {"observedGeneration": 1, "replicas": %2, "readyReplicas": %2, "updatedReplicas": %2}})")
        .arg(QLatin1String(name))
        .arg(replicas)
        .arg(version)
        .toUtf8()
        .simplified();
}

QByteArray list(int version, const QByteArray &items)
{
    return R"({"kind": "DeploymentList", "metadata": {"resourceVersion": ")" + QByteArray::number(version) +
           R"("}, "items": [)" + items + "]}";
}

// One line of a watch stream: the object written on one line, as the API server writes it.
QByteArray event(const char *type, const QByteArray &object)
{
    return R"({"type": ")" + QByteArray(type) + R"(", "object": )" + object.simplified() + "}\n";
}

KubeTarget targetOf(const FaultServer &server)
{
    KubeTarget target;
    target.context = QStringLiteral("faults");
    target.cluster = QStringLiteral("faults");
    target.user = QStringLiteral("tester");
    target.server = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(server.port()));
    target.namespaceName = QStringLiteral("chaos");
    target.token = QStringLiteral("not-a-real-token");
    return target;
}

bool isWatch(const FaultServer::Request &request)
{
    return request.params().queryItemValue(QStringLiteral("watch")) == QLatin1String("1") ||
           request.params().queryItemValue(QStringLiteral("watch")) == QLatin1String("true");
}

// The watches asked for, with the version each started from.
QStringList watchVersions(const FaultServer &server)
{
    QStringList versions;
    for (const FaultServer::Request &request : server.requests) {
        if (request.path() == kDeployments && isWatch(request))
            versions << request.params().queryItemValue(QStringLiteral("resourceVersion"));
    }
    return versions;
}

} // namespace

TEST(KubeFaults, AWatchCutInTheMiddleOfAnEventResumesFromTheLastOneWhole)
{
    FaultServer server;
    int watches = 0;
    server.script(kDeployments, [&](const FaultServer::Request &request) {
        if (!isWatch(request))
            return FaultServer::json(list(10, deployment("worker", 1, 10)));
        if (++watches > 1)
            return FaultServer::neverAnswer(); // the resumed watch: quiet from here
        // One whole event, then half of the next, then the connection drops.
        Reply reply = FaultServer::cutOff(event("MODIFIED", deployment("worker", 2, 11)) +
                                          event("MODIFIED", deployment("worker", 3, 12)) +
                                          event("MODIFIED", deployment("worker", 3, 12)));
        reply.announceLength = false;
        return reply;
    });
    KubeClient client(targetOf(server));
    ResourceWatch watch(&client, QStringLiteral("apps/v1"), QStringLiteral("deployments"));
    QSignalSpy changed(&watch, &ResourceWatch::changed);
    watch.start();
    ASSERT_TRUE(waitFor([&] { return watchVersions(server).size() >= 2; }, 15000));
    EXPECT_EQ(watchVersions(server).front(), QStringLiteral("10"));
    ASSERT_EQ(changed.size(), 1) << "the event cut in half is not half-applied";
    EXPECT_EQ(changed.first().at(0).toString(), QStringLiteral("MODIFIED"));
    // Resumed from the last event read whole, without a new list: nothing missed, nothing twice.
    EXPECT_EQ(watch.lastVersion(), QStringLiteral("11"));
    EXPECT_EQ(watchVersions(server).at(1), QStringLiteral("11"));
    EXPECT_EQ(watch.lists(), 1);
}

TEST(KubeFaults, A410GoneAsAnswerOrAsAnEventStartsAgainWithAList)
{
    for (const bool asEvent : {false, true}) {
        FaultServer server;
        int lists = 0;
        int watches = 0;
        server.script(kDeployments, [&](const FaultServer::Request &request) {
            if (!isWatch(request)) {
                ++lists;
                return FaultServer::json(list(lists == 1 ? 10 : 50, deployment("worker", lists == 1 ? 1 : 4, 50)));
            }
            if (++watches > 1)
                return FaultServer::neverAnswer();
            const QByteArray status =
                R"json({"kind": "Status", "apiVersion": "v1", "status": "Failure",
                        "message": "too old resource version: 10 (40)", "reason": "Expired", "code": 410})json";
            if (asEvent)
                return FaultServer::json(event("ERROR", status));
            return FaultServer::json(status, 410);
        });
        AnnotationModel annotations;
        ClusterController controller(targetOf(server), &annotations);
        controller.start();
        ASSERT_TRUE(waitFor([&] { return lists >= 2; }, 15000))
            << (asEvent ? "as an event: " : "as an answer: ") << controller.stateText().toStdString();
        ASSERT_TRUE(waitFor(
            [&] {
                const Workload *w = controller.workload(QStringLiteral("deployments/worker"));
                return w && w->desired == 4;
            },
            15000));
        // What changed in the gap is a change all the same: marked, once.
        int marked = 0;
        for (const Annotation &a : annotations.annotations())
            marked += a.text == QStringLiteral("worker replicas 1 → 4, not by Chaoscope") ? 1 : 0;
        EXPECT_EQ(marked, 1) << (asEvent ? "as an event" : "as an answer");
    }
}

TEST(KubeFaults, AConflictIsAFailedMarkInTheApisWordsAndNothingIsRetriedBehindTheUsersBack)
{
    FaultServer server;
    server.script(kDeployments, [&](const FaultServer::Request &request) {
        return isWatch(request) ? FaultServer::neverAnswer() : FaultServer::json(list(10, deployment("worker", 1, 10)));
    });
    server.script(kDeployments + "/worker/scale",
                  FaultServer::json(R"({"kind": "Status", "apiVersion": "v1", "status": "Failure",
                      "message": "Operation cannot be fulfilled on deployments.apps \"worker\": the object has been modified; please apply your changes to the latest version and try again",
                      "reason": "Conflict", "code": 409})",
                                    409));
    AnnotationModel annotations;
    ClusterController controller(targetOf(server), &annotations);
    controller.start();
    ASSERT_TRUE(waitFor([&] { return controller.workload(QStringLiteral("deployments/worker")) != nullptr; }, 15000));
    const QFuture<Result<QString>> scaled = controller.scale(QStringLiteral("deployments/worker"), 2);
    ASSERT_TRUE(waitFor([&] { return scaled.isFinished(); }, 15000));
    ASSERT_FALSE(scaled.result().ok());
    EXPECT_TRUE(scaled.result().error().message.startsWith(
        QStringLiteral("worker replicas 1 → 2 refused: 409 Conflict: Operation cannot be fulfilled")))
        << scaled.result().error().message.toStdString();
    ASSERT_EQ(annotations.annotations().size(), 1u);
    EXPECT_TRUE(annotations.annotations().front().failed);
    EXPECT_EQ(server.requestCount(kDeployments + "/worker/scale"), 1);
    for (const Annotation &a : annotations.annotations())
        EXPECT_FALSE(a.text.contains(QStringLiteral("not-a-real-token")));
}
