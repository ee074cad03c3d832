// SPDX-License-Identifier: GPL-3.0-or-later
#include "patches.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QMap>

namespace Patches {
namespace {

// The merge keys of the lists kubectl's patches touch (from the Kubernetes API types'
// patchMergeKey tags). Other lists are replaced as a whole.
QString mergeKeyOf(const QString &field)
{
    static const QMap<QString, QString> keys{
        {QStringLiteral("containers"), QStringLiteral("name")},
        {QStringLiteral("initContainers"), QStringLiteral("name")},
        {QStringLiteral("env"), QStringLiteral("name")},
        {QStringLiteral("volumes"), QStringLiteral("name")},
        {QStringLiteral("imagePullSecrets"), QStringLiteral("name")},
        {QStringLiteral("volumeMounts"), QStringLiteral("mountPath")},
        {QStringLiteral("ports"), QStringLiteral("containerPort")},
        {QStringLiteral("conditions"), QStringLiteral("type")},
    };
    return keys.value(field);
}

bool sameKey(const QJsonValue &a, const QJsonValue &b)
{
    return a == b;
}

std::optional<QJsonArray> mergeList(const QJsonArray &target, const QJsonArray &patch, const QString &key,
                                    QString *error);
std::optional<QJsonObject> strategic(const QJsonObject &target, const QJsonObject &patch, QString *error);

std::optional<QJsonArray> mergeList(const QJsonArray &target, const QJsonArray &patch, const QString &key,
                                    QString *error)
{
    QJsonArray result = target;
    for (const QJsonValue item : patch) {
        if (!item.isObject()) {
            *error = QStringLiteral("the list items merged by '%1' must be objects").arg(key);
            return std::nullopt;
        }
        QJsonObject patchItem = item.toObject();
        const QString directive = patchItem.value(QStringLiteral("$patch")).toString();
        patchItem.remove(QStringLiteral("$patch"));
        const QJsonValue keyValue = patchItem.value(key);
        if (keyValue.isUndefined()) {
            *error = QStringLiteral("an item of a list merged by '%1' lacks its '%1'").arg(key);
            return std::nullopt;
        }
        qsizetype found = -1;
        for (qsizetype i = 0; i < result.size(); ++i)
            if (sameKey(result.at(i).toObject().value(key), keyValue))
                found = i;
        if (directive == QLatin1String("delete")) {
            if (found >= 0)
                result.removeAt(found);
            continue;
        }
        if (!directive.isEmpty() && directive != QLatin1String("replace") && directive != QLatin1String("merge")) {
            *error = QStringLiteral("unknown patch directive '%1'").arg(directive);
            return std::nullopt;
        }
        if (found < 0) {
            std::optional<QJsonObject> added = strategic(QJsonObject(), patchItem, error);
            if (!added)
                return std::nullopt;
            result.append(*added);
            continue;
        }
        if (directive == QLatin1String("replace")) {
            result[found] = patchItem;
            continue;
        }
        std::optional<QJsonObject> merged = strategic(result.at(found).toObject(), patchItem, error);
        if (!merged)
            return std::nullopt;
        result[found] = *merged;
    }
    return result;
}

std::optional<QJsonObject> strategic(const QJsonObject &target, const QJsonObject &patch, QString *error)
{
    if (patch.value(QStringLiteral("$patch")).toString() == QLatin1String("replace")) {
        QJsonObject replaced = patch;
        replaced.remove(QStringLiteral("$patch"));
        return replaced;
    }
    if (patch.value(QStringLiteral("$patch")).toString() == QLatin1String("delete"))
        return QJsonObject();
    QJsonObject result = target;
    QStringList retainKeys;
    bool retain = false;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        const QString field = it.key();
        if (field == QLatin1String("$patch"))
            continue;
        if (field == QLatin1String("$retainKeys")) {
            retain = true;
            for (const QJsonValue key : it.value().toArray())
                retainKeys << key.toString();
            continue;
        }
        if (field.startsWith(QLatin1String("$setElementOrder/")))
            continue; // an ordering hint; our lists keep their order
        if (field.startsWith(QLatin1String("$deleteFromPrimitiveList/"))) {
            const QString list = field.mid(static_cast<qsizetype>(qstrlen("$deleteFromPrimitiveList/")));
            QJsonArray kept;
            const QJsonArray remove = it.value().toArray();
            for (const QJsonValue value : result.value(list).toArray())
                if (!remove.contains(value))
                    kept.append(value);
            result.insert(list, kept);
            continue;
        }
        if (field.startsWith(QLatin1Char('$'))) {
            *error = QStringLiteral("unknown patch directive '%1'").arg(field);
            return std::nullopt;
        }
        const QJsonValue value = it.value();
        if (value.isNull()) {
            result.remove(field);
            continue;
        }
        const QJsonValue current = result.value(field);
        if (value.isObject() && (current.isObject() || current.isUndefined())) {
            std::optional<QJsonObject> merged = strategic(current.toObject(), value.toObject(), error);
            if (!merged)
                return std::nullopt;
            result.insert(field, *merged);
            continue;
        }
        const QString key = mergeKeyOf(field);
        if (value.isArray() && !key.isEmpty() && (current.isArray() || current.isUndefined())) {
            std::optional<QJsonArray> merged = mergeList(current.toArray(), value.toArray(), key, error);
            if (!merged)
                return std::nullopt;
            result.insert(field, *merged);
            continue;
        }
        result.insert(field, value);
    }
    if (retain) {
        for (const QString &field : result.keys())
            if (!retainKeys.contains(field))
                result.remove(field);
    }
    return result;
}

// RFC 6901 pointers: "/spec/replicas", "~1" for '/', "~0" for '~'.
std::optional<QStringList> pointer(const QString &path, QString *error)
{
    if (path.isEmpty())
        return QStringList();
    if (!path.startsWith(QLatin1Char('/'))) {
        *error = QStringLiteral("the path '%1' is not a JSON pointer").arg(path);
        return std::nullopt;
    }
    QStringList steps = path.mid(1).split(QLatin1Char('/'));
    for (QString &step : steps)
        step =
            step.replace(QStringLiteral("~1"), QStringLiteral("/")).replace(QStringLiteral("~0"), QStringLiteral("~"));
    return steps;
}

// Applies `op` at `steps` inside `node`; false with a message when the path does not exist.
bool applyAt(QJsonValue &node, const QStringList &steps, qsizetype index, const QString &op, const QJsonValue &value,
             QJsonValue *removed, QString *error)
{
    const QString &step = steps.at(index);
    const bool last = index == steps.size() - 1;
    if (node.isObject()) {
        QJsonObject object = node.toObject();
        if (last) {
            // "add" sets a member whether or not it exists; the others need it.
            if (op == QLatin1String("add") || (op == QLatin1String("replace") && object.contains(step))) {
                object.insert(step, value);
            } else if (!object.contains(step)) {
                *error = QStringLiteral("the path does not exist at '%1'").arg(step);
                return false;
            } else if (op == QLatin1String("remove")) {
                *removed = object.take(step);
            } else if (op == QLatin1String("test")) {
                if (object.value(step) != value) {
                    *error = QStringLiteral("test failed at '%1'").arg(step);
                    return false;
                }
            } else if (op == QLatin1String("get")) {
                *removed = object.value(step);
            }
        } else {
            if (!object.contains(step)) {
                *error = QStringLiteral("the path does not exist at '%1'").arg(step);
                return false;
            }
            QJsonValue child = object.value(step);
            if (!applyAt(child, steps, index + 1, op, value, removed, error))
                return false;
            object.insert(step, child);
        }
        node = object;
        return true;
    }
    if (node.isArray()) {
        QJsonArray array = node.toArray();
        bool ok = false;
        qsizetype position = step == QLatin1String("-") ? array.size() : step.toLongLong(&ok);
        if (step == QLatin1String("-"))
            ok = true;
        const bool inRange =
            ok && position >= 0 &&
            (position < array.size() || (last && op == QLatin1String("add") && position == array.size()));
        if (!inRange) {
            *error = QStringLiteral("the index '%1' is out of range").arg(step);
            return false;
        }
        if (last) {
            if (op == QLatin1String("add"))
                array.insert(position, value);
            else if (op == QLatin1String("remove"))
                *removed = array.takeAt(position);
            else if (op == QLatin1String("replace"))
                array[position] = value;
            else if (op == QLatin1String("test") && array.at(position) != value) {
                *error = QStringLiteral("test failed at index %1").arg(position);
                return false;
            } else if (op == QLatin1String("get"))
                *removed = array.at(position);
        } else {
            QJsonValue child = array.at(position);
            if (!applyAt(child, steps, index + 1, op, value, removed, error))
                return false;
            array[position] = child;
        }
        node = array;
        return true;
    }
    *error = QStringLiteral("the path goes through a value that is neither object nor list");
    return false;
}

Result jsonPatch(const QJsonObject &target, const QJsonArray &operations)
{
    QJsonValue document = target;
    for (const QJsonValue entry : operations) {
        const QJsonObject operation = entry.toObject();
        const QString op = operation.value(QStringLiteral("op")).toString();
        QString error;
        const std::optional<QStringList> path = pointer(operation.value(QStringLiteral("path")).toString(), &error);
        if (!path)
            return {std::nullopt, error};
        if (path->isEmpty())
            return {std::nullopt, QStringLiteral("a JSON patch may not replace the whole object")};
        QJsonValue value = operation.value(QStringLiteral("value"));
        QJsonValue taken;
        if (op == QLatin1String("move") || op == QLatin1String("copy")) {
            const std::optional<QStringList> from = pointer(operation.value(QStringLiteral("from")).toString(), &error);
            if (!from || from->isEmpty() ||
                !applyAt(document, *from, 0,
                         op == QLatin1String("move") ? QStringLiteral("remove") : QStringLiteral("get"), {}, &taken,
                         &error))
                return {std::nullopt, error.isEmpty() ? QStringLiteral("bad 'from'") : error};
            if (!applyAt(document, *path, 0, QStringLiteral("add"), taken, &taken, &error))
                return {std::nullopt, error};
            continue;
        }
        if (op != QLatin1String("add") && op != QLatin1String("remove") && op != QLatin1String("replace") &&
            op != QLatin1String("test"))
            return {std::nullopt, QStringLiteral("unknown JSON patch operation '%1'").arg(op)};
        if (op != QLatin1String("remove") && !operation.contains(QStringLiteral("value")))
            return {std::nullopt, QStringLiteral("the '%1' operation needs a value").arg(op)};
        if (!applyAt(document, *path, 0, op, value, &taken, &error))
            return {std::nullopt, error};
    }
    return {document.toObject(), {}};
}

} // namespace

std::optional<Type> typeOf(const QByteArray &contentType)
{
    const QByteArray media = contentType.split(';').first().trimmed().toLower();
    if (media == "application/merge-patch+json")
        return Type::Merge;
    if (media == "application/strategic-merge-patch+json")
        return Type::Strategic;
    if (media == "application/json-patch+json")
        return Type::Json;
    return std::nullopt;
}

QJsonObject mergePatch(const QJsonObject &target, const QJsonObject &patch)
{
    QJsonObject result = target;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        if (it.value().isNull())
            result.remove(it.key());
        else if (it.value().isObject())
            result.insert(it.key(), mergePatch(result.value(it.key()).toObject(), it.value().toObject()));
        else
            result.insert(it.key(), it.value());
    }
    return result;
}

Result strategicMergePatch(const QJsonObject &target, const QJsonObject &patch)
{
    QString error;
    std::optional<QJsonObject> result = strategic(target, patch, &error);
    return {result, error};
}

Result apply(Type type, const QJsonObject &target, const QByteArray &patch)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(patch, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return {std::nullopt, QStringLiteral("the patch is not JSON: %1").arg(parseError.errorString())};
    if (type == Type::Json) {
        if (!document.isArray())
            return {std::nullopt, QStringLiteral("a JSON patch must be a list of operations")};
        return jsonPatch(target, document.array());
    }
    if (!document.isObject())
        return {std::nullopt, QStringLiteral("the patch must be a JSON object")};
    if (type == Type::Merge)
        return {mergePatch(target, document.object()), {}};
    return strategicMergePatch(target, document.object());
}

} // namespace Patches
