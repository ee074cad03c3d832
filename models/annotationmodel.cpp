// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotationmodel.h"

#include <QDateTime>

#include <algorithm>

#include <pwd.h>
#include <unistd.h>

namespace {

QString osUser()
{
    // The account, not $USER: CI jobs and services often run without it.
    if (const passwd *entry = getpwuid(geteuid()); entry && entry->pw_name)
        return QString::fromLocal8Bit(entry->pw_name);
    return qEnvironmentVariable("USER", QStringLiteral("unknown"));
}

QString formatTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

AnnotationModel::AnnotationModel(QObject *parent) : QAbstractTableModel(parent) {}

int AnnotationModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_annotations.size());
}

int AnnotationModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AnnotationModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Annotation &a = m_annotations[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn: return formatTime(a.timeMs);
        case EndColumn: return a.endMs ? formatTime(*a.endMs) : QString();
        case TextColumn: return a.text;
        case TagsColumn: return a.tags.join(QStringLiteral(", "));
        case SourceColumn: return Annotation::sourceName(a.source);
        }
        break;
    case Qt::ToolTipRole:
        return QStringLiteral("%1\n%2 · %3").arg(a.text, Annotation::sourceName(a.source), a.author);
    case AnnotationIdRole: return QVariant::fromValue(a.id);
    case TimeMsRole: return QVariant::fromValue(a.timeMs);
    case EndMsRole: return a.endMs ? QVariant::fromValue(*a.endMs) : QVariant();
    case FailedRole: return a.failed;
    }
    return {};
}

QVariant AnnotationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case EndColumn: return tr("End");
    case TextColumn: return tr("Text");
    case TagsColumn: return tr("Tags");
    case SourceColumn: return tr("Source");
    }
    return {};
}

int AnnotationModel::insertionRow(qint64 timeMs) const
{
    const auto it = std::upper_bound(m_annotations.begin(), m_annotations.end(), timeMs,
                                     [](qint64 t, const Annotation &a) { return t < a.timeMs; });
    return int(it - m_annotations.begin());
}

int AnnotationModel::rowOf(quint64 id) const
{
    const auto it = std::find_if(m_annotations.begin(), m_annotations.end(),
                                 [id](const Annotation &a) { return a.id == id; });
    return it == m_annotations.end() ? -1 : int(it - m_annotations.begin());
}

quint64 AnnotationModel::add(Annotation annotation)
{
    annotation.id = m_nextId++;
    if (annotation.author.isEmpty())
        annotation.author = osUser();
    if (annotation.createdAtMs == 0)
        annotation.createdAtMs = QDateTime::currentMSecsSinceEpoch();
    if (annotation.endMs && *annotation.endMs < annotation.timeMs)
        std::swap(*annotation.endMs, annotation.timeMs);
    const int row = insertionRow(annotation.timeMs);
    beginInsertRows({}, row, row);
    m_annotations.insert(m_annotations.begin() + row, std::move(annotation));
    endInsertRows();
    emit annotationsChanged();
    return m_annotations[std::size_t(row)].id;
}

bool AnnotationModel::remove(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0)
        return false;
    beginRemoveRows({}, row, row);
    m_annotations.erase(m_annotations.begin() + row);
    endRemoveRows();
    emit annotationsChanged();
    return true;
}

bool AnnotationModel::update(const Annotation &annotation)
{
    const int row = rowOf(annotation.id);
    if (row < 0)
        return false;
    Annotation updated = annotation;
    if (updated.endMs && *updated.endMs < updated.timeMs)
        std::swap(*updated.endMs, updated.timeMs);
    if (updated.timeMs == m_annotations[std::size_t(row)].timeMs) {
        m_annotations[std::size_t(row)] = updated;
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    } else {
        // A new time may move it: remove and re-insert keeps the order and the views honest.
        beginRemoveRows({}, row, row);
        m_annotations.erase(m_annotations.begin() + row);
        endRemoveRows();
        const int newRow = insertionRow(updated.timeMs);
        beginInsertRows({}, newRow, newRow);
        m_annotations.insert(m_annotations.begin() + newRow, updated);
        endInsertRows();
    }
    emit annotationsChanged();
    return true;
}

std::optional<Annotation> AnnotationModel::find(quint64 id) const
{
    const int row = rowOf(id);
    if (row < 0)
        return std::nullopt;
    return m_annotations[std::size_t(row)];
}

std::vector<Annotation> AnnotationModel::inRange(const TimeRange &range) const
{
    std::vector<Annotation> out;
    for (const Annotation &a : m_annotations) {
        const qint64 end = a.endMs.value_or(a.timeMs);
        if (end >= range.startMs && a.timeMs <= range.endMs)
            out.push_back(a);
    }
    return out;
}
