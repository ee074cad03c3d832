// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeapi.h"

#include "clusterconfig.h"
#include "kubejson.h"
#include "kubelet.h"
#include "manifests.h"
#include "objectstore.h"
#include "patches.h"
#include "workloadvalidation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace {

bool isWorkload(const QString &resource)
{
    return resource == QLatin1String("deployments") || resource == QLatin1String("statefulsets");
}

QString apiVersionOf(const ApiResource &resource)
{
    return resource.group.isEmpty() ? QStringLiteral("v1") : resource.group + QStringLiteral("/v1");
}

std::optional<qint64> versionNumber(const QString &text)
{
    bool ok = false;
    const qint64 version = text.toLongLong(&ok);
    return ok && version >= 0 ? std::optional<qint64>(version) : std::nullopt;
}

} // namespace

KubeApi::KubeApi(ObjectStore &store, Kubelet &kubelet, const ClusterConfig &config)
    : m_store(store), m_kubelet(kubelet), m_config(config)
{}

ApiResponse KubeApi::respond(const ApiStatus &status)
{
    return ApiResponse{status.code, "application/json", status.body()};
}

ApiResponse KubeApi::respond(const QJsonObject &object, int status)
{
    return ApiResponse{status, "application/json", KubeJson::compact(object)};
}

bool KubeApi::wantsTable(const ApiRequest &request)
{
    return request.accept.contains("as=Table");
}

ResourceName KubeApi::nameOf(const Target &target)
{
    QString resource = target.resource->name;
    if (!target.info.subresource.isEmpty())
        resource += QLatin1Char('/') + target.info.subresource;
    return ResourceName{resource, target.resource->group};
}

std::variant<ApiResponse, WatchRequest> KubeApi::handle(const ApiRequest &request)
{
    const QString path =
        request.path.endsWith(QLatin1Char('/')) && request.path.size() > 1 ? request.path.chopped(1) : request.path;
    if (request.method == "GET") {
        if (path == QLatin1String("/version"))
            return respond(ApiResources::version());
        if (path == QLatin1String("/api"))
            return respond(ApiResources::coreVersions(m_serverAddress));
        if (path == QLatin1String("/apis"))
            return respond(ApiResources::groups());
        if (path == QLatin1String("/healthz") || path == QLatin1String("/livez") || path == QLatin1String("/readyz"))
            return ApiResponse{200, "text/plain; charset=utf-8", "ok"};
        if (path.startsWith(QLatin1String("/apis/")) && path.count(QLatin1Char('/')) == 2) {
            const QJsonObject group = ApiResources::group(path.mid(6));
            return group.isEmpty() ? respond(ApiStatus::pathNotFound()) : respond(group);
        }
        const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        if ((parts.size() == 2 && parts.at(0) == QLatin1String("api")) ||
            (parts.size() == 3 && parts.at(0) == QLatin1String("apis"))) {
            const QJsonObject list = parts.size() == 2 ? ApiResources::resourceList(QString(), parts.at(1))
                                                       : ApiResources::resourceList(parts.at(1), parts.at(2));
            return list.isEmpty() ? respond(ApiStatus::pathNotFound()) : respond(list);
        }
    }

    Target target;
    target.info = RequestInfo::parse(path);
    if (!target.info.isResource || target.info.version != QLatin1String("v1"))
        return respond(ApiStatus::pathNotFound());
    target.resource = ApiResources::find(target.info.group, target.info.resource);
    if (!target.resource)
        return respond(ApiStatus::pathNotFound());
    if (target.resource->namespaced == target.info.ns.isEmpty() && !target.info.name.isEmpty())
        return respond(ApiStatus::pathNotFound());
    if (!target.info.subresource.isEmpty() && !target.resource->subresources.contains(target.info.subresource))
        return respond(ApiStatus::pathNotFound());

    const bool watch = request.query.queryItemValue(QStringLiteral("watch")) == QLatin1String("true") ||
                       request.query.queryItemValue(QStringLiteral("watch")) == QLatin1String("1");
    if (request.method == "GET")
        target.verb = target.info.name.isEmpty() ? (watch ? QStringLiteral("watch") : QStringLiteral("list"))
                                                 : QStringLiteral("get");
    else if (request.method == "PATCH")
        target.verb = QStringLiteral("patch");
    else if (request.method == "PUT")
        target.verb = QStringLiteral("update");
    else if (request.method == "DELETE")
        target.verb = target.info.name.isEmpty() ? QStringLiteral("deletecollection") : QStringLiteral("delete");
    else if (request.method == "POST")
        target.verb = QStringLiteral("create");
    else
        return respond(ApiStatus::methodNotAllowed());
    return handleResource(request, target);
}

std::variant<ApiResponse, WatchRequest> KubeApi::handleResource(const ApiRequest &request, const Target &target)
{
    const bool reads = target.verb == QLatin1String("get") || target.verb == QLatin1String("list") ||
                       target.verb == QLatin1String("watch");
    const ResourceName name = nameOf(target);
    if (!reads && !request.user.canWrite())
        return respond(ApiStatus::forbidden(name, target.info.name, request.user.name, target.verb, target.info.ns));
    const QString sub = target.info.subresource;
    if (reads) {
        if (sub == QLatin1String("log"))
            return logs(request, target);
        if (target.verb == QLatin1String("get"))
            return get(request, target);
        if (!sub.isEmpty())
            return respond(ApiStatus::methodNotAllowed());
        return list(request, target);
    }
    // Writes: what this cluster lets change.
    const bool workload = isWorkload(target.resource->name);
    if ((target.verb == QLatin1String("patch") || target.verb == QLatin1String("update")) && workload &&
        (sub.isEmpty() || sub == QLatin1String("scale")))
        return target.verb == QLatin1String("patch") ? patch(request, target) : update(request, target);
    if (target.verb == QLatin1String("delete") && target.resource->name == QLatin1String("pods") && sub.isEmpty())
        return remove(request, target);
    if ((target.verb == QLatin1String("create") || target.verb == QLatin1String("delete") ||
         target.verb == QLatin1String("deletecollection")) &&
        (workload || target.resource->name == QLatin1String("pods") ||
         target.resource->name == QLatin1String("replicasets")))
        return respond(ApiStatus::forbidden(name, target.info.name, request.user.name, target.verb, target.info.ns,
                                            QStringLiteral("the testbed cluster's workloads come "
                                                           "from its config file; scale, set env, "
                                                           "set resources, patch or delete their "
                                                           "pods instead")));
    return respond(ApiStatus::methodNotAllowed());
}

ApiResponse KubeApi::get(const ApiRequest &request, const Target &target)
{
    const std::optional<QJsonObject> object = m_store.get(target.resource->name, target.info.ns, target.info.name);
    if (!object)
        return respond(
            ApiStatus::notFound(ResourceName{target.resource->name, target.resource->group}, target.info.name));
    if (target.info.subresource == QLatin1String("scale"))
        return respond(Manifests::scale(*object));
    if (wantsTable(request) && Tables::knows(target.resource->name))
        return respond(
            Tables::table(target.resource->name, {*object},
                          KubeJson::at(*object, QStringLiteral("metadata.resourceVersion")).toString(),
                          Tables::includeObjectFrom(request.query.queryItemValue(QStringLiteral("includeObject")))));
    return respond(*object);
}

std::variant<ApiResponse, WatchRequest> KubeApi::list(const ApiRequest &request, const Target &target)
{
    QString error;
    const std::optional<LabelSelector> labels =
        LabelSelector::parse(request.query.queryItemValue(QStringLiteral("labelSelector"), QUrl::FullyDecoded), &error);
    if (!labels)
        return respond(ApiStatus::badRequest(error));
    const std::optional<FieldSelector> fields =
        FieldSelector::parse(request.query.queryItemValue(QStringLiteral("fieldSelector"), QUrl::FullyDecoded), &error);
    if (!fields)
        return respond(ApiStatus::badRequest(error));
    const QString versionText = request.query.queryItemValue(QStringLiteral("resourceVersion"));
    std::optional<qint64> version;
    if (!versionText.isEmpty()) {
        version = versionNumber(versionText);
        if (!version)
            return respond(ApiStatus::badRequest(QStringLiteral("invalid resource version \"%1\"").arg(versionText)));
    }
    const bool table = wantsTable(request) && Tables::knows(target.resource->name);
    const Tables::IncludeObject include =
        Tables::includeObjectFrom(request.query.queryItemValue(QStringLiteral("includeObject")));

    if (target.verb == QLatin1String("watch")) {
        WatchRequest watch;
        watch.resource = target.resource->name;
        watch.ns = target.info.ns;
        watch.labels = *labels;
        watch.fields = *fields;
        watch.table = table;
        watch.include = include;
        watch.timeoutSeconds = request.query.queryItemValue(QStringLiteral("timeoutSeconds")).toInt();
        watch.initialState = !version || *version == 0;
        watch.since = version.value_or(0);
        if (!watch.initialState && *version < m_store.oldestWatchableVersion())
            return respond(ApiStatus::expired(*version, m_store.oldestWatchableVersion()));
        return watch;
    }
    if (version && *version > 0 &&
        request.query.queryItemValue(QStringLiteral("resourceVersionMatch")) == QLatin1String("Exact") &&
        *version < m_store.oldestWatchableVersion())
        return respond(ApiStatus::expired(*version, m_store.oldestWatchableVersion()));

    QList<QJsonObject> items;
    for (const QJsonObject &object : m_store.list(target.resource->name, target.info.ns)) {
        if (labels->matches(KubeJson::at(object, QStringLiteral("metadata.labels")).toObject()) &&
            fields->matches(object))
            items << object;
    }
    const QString resourceVersion = QString::number(m_store.resourceVersion());
    if (table)
        return respond(Tables::table(target.resource->name, items, resourceVersion, include));
    QJsonArray array;
    for (const QJsonObject &item : std::as_const(items))
        array.append(item);
    return respond(
        QJsonObject{{QStringLiteral("kind"), target.resource->kind + QStringLiteral("List")},
                    {QStringLiteral("apiVersion"), apiVersionOf(*target.resource)},
                    {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("resourceVersion"), resourceVersion}}},
                    {QStringLiteral("items"), array}});
}

ApiResponse KubeApi::logs(const ApiRequest &request, const Target &target)
{
    const std::optional<QJsonObject> pod = m_store.get(QStringLiteral("pods"), target.info.ns, target.info.name);
    if (!pod)
        return respond(ApiStatus::notFound(ResourceName{QStringLiteral("pods"), {}}, target.info.name));
    const bool previous = request.query.queryItemValue(QStringLiteral("previous")) == QLatin1String("true");
    std::optional<QByteArray> text = m_kubelet.logs(target.info.ns, target.info.name, previous);
    if (!text || (previous && text->isEmpty()))
        return respond(ApiStatus::badRequest(
            previous ? QStringLiteral("previous terminated container \"%1\" in pod \"%2\" not found")
                           .arg(KubeJson::at(*pod, QStringLiteral("spec.containers"))
                                    .toArray()
                                    .at(0)
                                    .toObject()
                                    .value(QStringLiteral("name"))
                                    .toString(),
                                target.info.name)
                     : QStringLiteral("container in pod \"%1\" is waiting to start").arg(target.info.name)));
    bool ok = false;
    const int tail = request.query.queryItemValue(QStringLiteral("tailLines")).toInt(&ok);
    if (ok && tail >= 0) {
        QList<QByteArray> lines = text->split('\n');
        if (!lines.isEmpty() && lines.last().isEmpty())
            lines.removeLast();
        *text = lines.mid(std::max<qsizetype>(0, lines.size() - tail)).join('\n');
        if (!text->isEmpty())
            *text += '\n';
    }
    const int limit = request.query.queryItemValue(QStringLiteral("limitBytes")).toInt(&ok);
    if (ok && limit > 0)
        *text = text->left(limit);
    return ApiResponse{200, "text/plain", *text};
}

ApiResponse KubeApi::patch(const ApiRequest &request, const Target &target)
{
    const ResourceName plain{target.resource->name, target.resource->group};
    const std::optional<QJsonObject> current = m_store.get(target.resource->name, target.info.ns, target.info.name);
    if (!current)
        return respond(ApiStatus::notFound(plain, target.info.name));
    const std::optional<Patches::Type> type = Patches::typeOf(request.contentType);
    if (!type)
        return respond(ApiStatus::unsupportedMediaType(QString::fromLatin1(request.contentType)));

    const bool scale = target.info.subresource == QLatin1String("scale");
    const QJsonObject base = scale ? Manifests::scale(*current) : *current;
    const Patches::Result patched = Patches::apply(*type, base, request.body);
    if (!patched.object)
        return respond(ApiStatus::badRequest(patched.error));
    const QString wanted = KubeJson::at(*patched.object, QStringLiteral("metadata.resourceVersion")).toString();
    if (!wanted.isEmpty() && wanted != KubeJson::at(*current, QStringLiteral("metadata.resourceVersion")).toString())
        return respond(ApiStatus::conflict(plain, target.info.name));
    QJsonObject candidate = *current;
    if (scale) {
        KubeJson::set(candidate, QStringLiteral("spec.replicas"),
                      KubeJson::at(*patched.object, QStringLiteral("spec.replicas")));
    } else {
        candidate = *patched.object;
        candidate.insert(QStringLiteral("status"), current->value(QStringLiteral("status")));
    }
    return commit(request, target, *current, candidate);
}

ApiResponse KubeApi::update(const ApiRequest &request, const Target &target)
{
    const ResourceName plain{target.resource->name, target.resource->group};
    const std::optional<QJsonObject> current = m_store.get(target.resource->name, target.info.ns, target.info.name);
    if (!current)
        return respond(ApiStatus::notFound(plain, target.info.name));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return respond(ApiStatus::badRequest(QStringLiteral("the body must be a JSON object")));
    const QJsonObject body = document.object();
    const bool scale = target.info.subresource == QLatin1String("scale");
    const QString kind = scale ? QStringLiteral("Scale") : target.resource->kind;
    if (body.value(QStringLiteral("kind")).toString(kind) != kind)
        return respond(ApiStatus::badRequest(
            QStringLiteral("the body is a %1, not a %2").arg(body.value(QStringLiteral("kind")).toString(), kind)));
    const QString wanted = KubeJson::at(body, QStringLiteral("metadata.resourceVersion")).toString();
    if (!wanted.isEmpty() && wanted != KubeJson::at(*current, QStringLiteral("metadata.resourceVersion")).toString())
        return respond(ApiStatus::conflict(plain, target.info.name));
    QJsonObject candidate = *current;
    if (scale) {
        KubeJson::set(candidate, QStringLiteral("spec.replicas"), KubeJson::at(body, QStringLiteral("spec.replicas")));
    } else {
        candidate = body;
        candidate.insert(QStringLiteral("kind"), current->value(QStringLiteral("kind")));
        candidate.insert(QStringLiteral("apiVersion"), current->value(QStringLiteral("apiVersion")));
        candidate.insert(QStringLiteral("status"), current->value(QStringLiteral("status")));
    }
    return commit(request, target, *current, candidate);
}

ApiResponse KubeApi::commit(const ApiRequest &request, const Target &target, const QJsonObject &current,
                            QJsonObject candidate)
{
    const bool scale = target.info.subresource == QLatin1String("scale");
    // What the server owns is not the client's to change.
    QJsonObject metadata = candidate.value(QStringLiteral("metadata")).toObject();
    const QJsonObject oldMetadata = current.value(QStringLiteral("metadata")).toObject();
    for (const char *field : {"uid", "creationTimestamp", "generation", "resourceVersion", "ownerReferences"}) {
        const QString name = QLatin1String(field);
        if (oldMetadata.contains(name))
            metadata.insert(name, oldMetadata.value(name));
        else
            metadata.remove(name);
    }
    candidate.insert(QStringLiteral("metadata"), metadata);

    const QList<ApiStatus::Cause> causes = WorkloadValidation::validate(candidate, current, m_config.maxReplicas);
    if (!causes.isEmpty())
        return respond(
            scale ? ApiStatus::invalid(QStringLiteral("Scale"), QStringLiteral("autoscaling"), target.info.name, causes)
                  : ApiStatus::invalid(target.resource->kind, target.resource->group, target.info.name, causes));
    const bool dryRun = request.query.queryItemValue(QStringLiteral("dryRun")) == QLatin1String("All");
    const QJsonObject stored = dryRun ? candidate : m_store.update(target.resource->name, candidate);
    return respond(scale ? Manifests::scale(stored) : stored);
}

ApiResponse KubeApi::remove(const ApiRequest &request, const Target &target)
{
    const std::optional<QJsonObject> pod = m_store.get(QStringLiteral("pods"), target.info.ns, target.info.name);
    if (!pod)
        return respond(ApiStatus::notFound(ResourceName{QStringLiteral("pods"), {}}, target.info.name));
    int grace = KubeJson::at(*pod, QStringLiteral("spec.terminationGracePeriodSeconds")).toInt(30);
    bool ok = false;
    const int queryGrace = request.query.queryItemValue(QStringLiteral("gracePeriodSeconds")).toInt(&ok);
    if (ok && queryGrace >= 0)
        grace = queryGrace;
    const QJsonObject options = QJsonDocument::fromJson(request.body).object();
    if (options.value(QStringLiteral("gracePeriodSeconds")).isDouble())
        grace = std::max(0, options.value(QStringLiteral("gracePeriodSeconds")).toInt());
    if (request.query.queryItemValue(QStringLiteral("dryRun")) == QLatin1String("All"))
        return respond(*pod);
    m_kubelet.deletePod(target.info.ns, target.info.name, grace);
    return respond(m_store.get(QStringLiteral("pods"), target.info.ns, target.info.name).value_or(*pod));
}
