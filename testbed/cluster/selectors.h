// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// labelSelector and fieldSelector of a list or watch, as kubectl sends them
// ("app=starter,tier!=db", "environment in (a,b)", "!canary"; "metadata.name=starter").
class LabelSelector
{
public:
    static std::optional<LabelSelector> parse(const QString &text, QString *error);
    bool matches(const QJsonObject &labels) const;
    bool isEmpty() const { return m_requirements.isEmpty(); }

private:
    enum class Op
    {
        Equals,
        NotEquals,
        In,
        NotIn,
        Exists,
        DoesNotExist
    };
    struct Requirement
    {
        QString key;
        Op op = Op::Equals;
        QStringList values;
    };
    QList<Requirement> m_requirements;
};

class FieldSelector
{
public:
    // Field paths are dotted paths into the object ("involvedObject.uid", "status.phase").
    static std::optional<FieldSelector> parse(const QString &text, QString *error);
    bool matches(const QJsonObject &object) const;

private:
    struct Requirement
    {
        QString path;
        bool equals = true;
        QString value;
    };
    QList<Requirement> m_requirements;
};
