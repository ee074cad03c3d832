// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotations/annotationmodel.h"

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
    return AnnotationModel::displayTime(ms, QDate::currentDate());
}

// What an editor starts with: a time that parses back to the same second (the shown
// "May 1" form does not parse, so other days get the full date).
QString editTime(qint64 ms)
{
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(ms);
    return local.toString(local.date() == QDate::currentDate() ? QStringLiteral("HH:mm:ss")
                                                               : QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString editText(const Annotation &a, int column)
{
    switch (column) {
    case AnnotationModel::TimeColumn:
        return editTime(a.timeMs);
    case AnnotationModel::EndColumn:
        return a.endMs ? editTime(*a.endMs) : QString();
    case AnnotationModel::TextColumn:
        return a.text;
    case AnnotationModel::TagsColumn:
        return a.tags.join(QStringLiteral(", "));
    }
    return {};
}

QStringList parseTags(const QString &text)
{
    QStringList tags;
    for (QString tag : text.split(QLatin1Char(','))) {
        tag = tag.trimmed();
        // "#exporter" is how people write a tag in chat; the tag itself is "exporter".
        if (tag.startsWith(QLatin1Char('#')))
            tag = tag.mid(1).trimmed();
        if (!tag.isEmpty() && !tags.contains(tag))
            tags << tag;
    }
    return tags;
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
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Annotation &a = m_annotations[std::size_t(index.row())];
    switch (role) {
    case Qt::EditRole:
        return editText(a, index.column());
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return formatTime(a.timeMs);
        case EndColumn:
            return a.endMs ? formatTime(*a.endMs) : QString();
        case TextColumn:
            return a.text;
        case TagsColumn:
            return a.tags.join(QStringLiteral(", "));
        case SourceColumn:
            // Short, so the column stays narrow in the dock; the tooltip says it in words.
            if (a.suggested)
                return tr("%1 ?").arg(Annotation::sourceName(a.source));
            if (a.source == Annotation::Source::Query) // which query: "query: restarts"
                return QStringLiteral("%1: %2").arg(Annotation::sourceName(a.source), a.author);
            return a.failed ? tr("%1 \u2717").arg(Annotation::sourceName(a.source)) : Annotation::sourceName(a.source);
        }
        break;
    case Qt::ToolTipRole:
        return QStringLiteral("%1\n%2 · %3%4")
            .arg(a.text, Annotation::sourceName(a.source), a.author,
                 a.failed      ? tr(" · did not take effect")
                 : a.suggested ? tr(" · suggested: accept or dismiss it")
                               : QString());
    case AnnotationIdRole:
        return QVariant::fromValue(a.id);
    case TimeMsRole:
        return QVariant::fromValue(a.timeMs);
    case EndMsRole:
        return a.endMs ? QVariant::fromValue(*a.endMs) : QVariant();
    case FailedRole:
        return a.failed;
    case SourceRole:
        return int(a.source);
    case TagsRole:
        return a.tags;
    case SuggestedRole:
        return a.suggested;
    }
    return {};
}

Qt::ItemFlags AnnotationModel::flags(const QModelIndex &index) const
{
    // Views (and QAbstractItemModelTester) ask for the root's flags: not an error.
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (index.column() != SourceColumn && !m_annotations[std::size_t(index.row())].isReadOnly())
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool AnnotationModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        !(flags(index) & Qt::ItemIsEditable))
        return false;
    const Result<Annotation> result = edited(m_annotations[std::size_t(index.row())], index.column(), value.toString());
    if (!result) {
        emit editRejected(result.error().message);
        return false;
    }
    if (result.value() == m_annotations[std::size_t(index.row())])
        return true;
    return update(result.value());
}

Result<Annotation> AnnotationModel::edited(const Annotation &annotation, int column, const QString &text)
{
    // Opening an editor and pressing Enter must not change anything, not even the
    // milliseconds the shown "hh:mm:ss" leaves out.
    if (text == editText(annotation, column))
        return annotation;
    Annotation out = annotation;
    switch (column) {
    case TextColumn:
        out.text = text.trimmed();
        if (out.text.isEmpty())
            return Error::make(Error::Kind::Invalid, tr("Text: an annotation needs some text."));
        return out;
    case TagsColumn:
        out.tags = parseTags(text);
        return out;
    case TimeColumn: {
        const Result<qint64> time = parseTime(text, annotation.timeMs);
        if (!time)
            return Error::make(Error::Kind::Invalid, tr("Time: %1").arg(time.error().message));
        out.timeMs = time.value();
        if (out.endMs && *out.endMs <= out.timeMs)
            return Error::make(Error::Kind::Invalid, tr("Time: %1 is not before the region's end (%2).")
                                                         .arg(formatTime(out.timeMs), formatTime(*out.endMs)));
        return out;
    }
    case EndColumn: {
        if (text.trimmed().isEmpty()) {
            out.endMs.reset(); // no end: the region becomes a point
            return out;
        }
        const Result<qint64> end = parseTime(text, annotation.endMs.value_or(annotation.timeMs));
        if (!end)
            return Error::make(Error::Kind::Invalid, tr("End: %1").arg(end.error().message));
        if (end.value() <= annotation.timeMs)
            return Error::make(
                Error::Kind::Invalid,
                tr("End: %1 is not after the start (%2).").arg(formatTime(end.value()), formatTime(annotation.timeMs)));
        out.endMs = end.value();
        return out;
    }
    }
    return Error::make(Error::Kind::Invalid, tr("This column cannot be edited."));
}

QString AnnotationModel::displayTime(qint64 ms, const QDate &today)
{
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(ms);
    if (local.date() == today)
        return local.toString(QStringLiteral("HH:mm:ss"));
    // Short enough for a narrow dock; English month names (Qt's format strings use the C
    // locale) are unambiguous where 05-01 is not.
    if (local.date().year() == today.year())
        return local.toString(QStringLiteral("MMM d HH:mm:ss"));
    return local.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

Result<qint64> AnnotationModel::parseTime(const QString &text, qint64 dayOfMs)
{
    const QString trimmed = text.trimmed();
    // A clock time alone, on the annotation's own (local) day.
    for (const QString &format : {QStringLiteral("H:mm:ss.zzz"), QStringLiteral("H:mm:ss"), QStringLiteral("H:mm")}) {
        const QTime time = QTime::fromString(trimmed, format);
        if (time.isValid()) {
            const QDateTime at(QDateTime::fromMSecsSinceEpoch(dayOfMs).date(), time);
            if (at.isValid())
                return at.toMSecsSinceEpoch();
        }
    }
    // A date and time: ISO-8601 ("2024-05-01T09:43:00Z", "…+02:00"; local time without a zone),
    // also with a space for the "T", as the view shows it.
    QString iso = trimmed;
    if (iso.size() > 10 && iso.at(10) == QLatin1Char(' '))
        iso[10] = QLatin1Char('T');
    const QDateTime at = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (at.isValid())
        return at.toMSecsSinceEpoch();
    return Error::make(
        Error::Kind::Invalid,
        tr("\u201c%1\u201d is not a time; use hh:mm:ss, or a date and time such as 2024-05-01 09:43:00.").arg(trimmed));
}

QVariant AnnotationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case EndColumn:
        return tr("End");
    case TextColumn:
        return tr("Text");
    case TagsColumn:
        return tr("Tags");
    case SourceColumn:
        return tr("Source");
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
    const auto it =
        std::find_if(m_annotations.begin(), m_annotations.end(), [id](const Annotation &a) { return a.id == id; });
    return it == m_annotations.end() ? -1 : int(it - m_annotations.begin());
}

void AnnotationModel::insertSorted(const Annotation &annotation)
{
    const int row = insertionRow(annotation.timeMs);
    beginInsertRows({}, row, row);
    m_annotations.insert(m_annotations.begin() + row, annotation);
    endInsertRows();
}

static void normaliseRegion(Annotation &annotation)
{
    if (annotation.endMs && *annotation.endMs < annotation.timeMs)
        std::swap(*annotation.endMs, annotation.timeMs);
}

quint64 AnnotationModel::add(Annotation annotation)
{
    annotation.id = m_nextId++;
    if (annotation.author.isEmpty())
        annotation.author = osUser();
    if (annotation.createdAtMs == 0)
        annotation.createdAtMs = QDateTime::currentMSecsSinceEpoch();
    normaliseRegion(annotation);
    insertSorted(annotation);
    emit annotationAdded(annotation);
    emit annotationsChanged();
    return annotation.id;
}

bool AnnotationModel::restore(const Annotation &annotation)
{
    if (annotation.id == 0 || rowOf(annotation.id) >= 0)
        return false;
    Annotation restored = annotation;
    normaliseRegion(restored);
    m_nextId = std::max(m_nextId, restored.id + 1);
    insertSorted(restored);
    emit annotationAdded(restored);
    emit annotationsChanged();
    return true;
}

bool AnnotationModel::remove(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0)
        return false;
    const Annotation removed = m_annotations[std::size_t(row)];
    beginRemoveRows({}, row, row);
    m_annotations.erase(m_annotations.begin() + row);
    endRemoveRows();
    emit annotationRemoved(removed);
    emit annotationsChanged();
    return true;
}

bool AnnotationModel::update(const Annotation &annotation)
{
    const int row = rowOf(annotation.id);
    if (row < 0)
        return false;
    const Annotation before = m_annotations[std::size_t(row)];
    Annotation updated = annotation;
    normaliseRegion(updated);
    // A new time may move it. A row move (not remove and insert) keeps a view's selection and
    // open editor on it, so the row someone just edited stays selected where it lands.
    const auto first = m_annotations.begin();
    const auto byTime = [](qint64 t, const Annotation &a) { return t < a.timeMs; };
    const bool staysInOrder = (row == 0 || m_annotations[std::size_t(row - 1)].timeMs <= updated.timeMs) &&
                              (row + 1 == rowCount() || updated.timeMs <= m_annotations[std::size_t(row) + 1].timeMs);
    int newRow = row;
    if (!staysInOrder) {
        newRow = updated.timeMs < before.timeMs
                     ? int(std::upper_bound(first, first + row, updated.timeMs, byTime) - first)
                     : int(std::upper_bound(first + row + 1, m_annotations.end(), updated.timeMs, byTime) - first) - 1;
    }
    if (newRow != row) {
        // beginMoveRows counts the destination in rows before the move.
        beginMoveRows({}, row, row, {}, newRow > row ? newRow + 1 : newRow);
        if (newRow < row)
            std::rotate(first + newRow, first + row, first + row + 1);
        else
            std::rotate(first + row, first + row + 1, first + newRow + 1);
        m_annotations[std::size_t(newRow)] = updated;
        endMoveRows();
    } else {
        m_annotations[std::size_t(row)] = updated;
    }
    emit dataChanged(index(newRow, 0), index(newRow, ColumnCount - 1));
    emit annotationUpdated(before, updated);
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
