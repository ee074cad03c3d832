// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/sessioncomparison.h"

#include "actions/sessionopening.h"
#include "annotations/annotationmodel.h"
#include "session/sessionreplay.h"
#include "store/samplestore.h"

#include <QDateTime>
#include <QFileInfo>

namespace SessionComparison {

namespace {

QString instant(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString rangeText(const TimeRange &range)
{
    return instant(range.startMs) + QLatin1Char('/') + instant(range.endMs);
}

} // namespace

QString queryDifference(const DashboardDefinition &first, const DashboardDefinition &second)
{
    if (first.panels.size() != second.panels.size())
        return QStringLiteral("%1 panels against %2").arg(first.panels.size()).arg(second.panels.size());
    for (size_t p = 0; p < first.panels.size(); ++p) {
        const auto &a = first.panels[p].series;
        const auto &b = second.panels[p].series;
        for (size_t q = 0; q < std::max(a.size(), b.size()); ++q) {
            const QString left = q < a.size() ? a[q].query : QString();
            const QString right = q < b.size() ? b[q].query : QString();
            if (left != right)
                return QStringLiteral("panel \"%1\", series %2: \"%3\" against \"%4\"")
                    .arg(first.panels[p].title)
                    .arg(q + 1)
                    .arg(left, right);
        }
    }
    return {};
}

TimeRange runOf(const SessionContents &contents)
{
    const TimeRange recorded = contents.recordedRange();
    TimeRange run{contents.createdAtMs > 0 ? contents.createdAtMs : recorded.startMs,
                  std::max(recorded.endMs, contents.lastEventMs)};
    if (contents.trimmedTo) {
        run.startMs = std::max(run.startMs, contents.trimmedTo->startMs);
        run.endMs = std::min(run.endMs, contents.trimmedTo->endMs);
    }
    return run;
}

namespace {

// Appends the samples of `series` within `range` to the columns.
void appendWithin(const SampleStore &store, const QString &key, const TimeRange &range, std::vector<qint64> &times,
                  std::vector<double> &values)
{
    const SampleStore::Series *series = store.contains(key) ? store.series(key) : nullptr;
    if (!series)
        return;
    const auto [first, last] = series->indexRange(range);
    const auto t = series->timestampsMs();
    const auto v = series->values();
    times.insert(times.end(), t.begin() + qsizetype(first), t.begin() + qsizetype(last));
    values.insert(values.end(), v.begin() + qsizetype(first), v.begin() + qsizetype(last));
}

} // namespace

Result<Second> addSecondRecording(const QString &path, const SessionContents &first,
                                  const DashboardDefinition &firstDashboard, SampleStore *store,
                                  AnnotationModel *annotations)
{
    const QString name = QFileInfo(path).fileName();
    SessionOpening::Options headless;
    headless.showProgress = false; // an export: nobody to show a dialog to
    Result<SessionContents> read = SessionOpening::read(path, headless);
    if (!read)
        return Error::make(read.error().kind, QStringLiteral("--compare-session: %1").arg(read.error().message));

    // Read into scratch first: what is refused leaves the first run's store as it was.
    SampleStore scratch;
    AnnotationModel scratchNotes;
    const SessionReplay::Loaded second = SessionReplay::load(read.value(), &scratch, &scratchNotes);
    if (const QString difference = queryDifference(firstDashboard, second.dashboard); !difference.isEmpty())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--compare-session: %1 was recorded with another dashboard (%2); "
                                          "compare two runs of the same dashboard")
                               .arg(name, difference));
    const TimeRange firstRun = runOf(first);
    const TimeRange secondRun = runOf(read.value());
    if (secondRun.startMs < firstRun.endMs && firstRun.startMs < secondRun.endMs)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--compare-session: %1 was recorded at the same time as the first "
                                          "recording (%2); two windows of one run are compared with --compare")
                               .arg(name, rangeText(secondRun)));

    // Each series: the first run's samples and the second's, in time order, nothing else.
    QStringList keys = store->keys() + scratch.keys();
    keys.removeDuplicates();
    const bool firstIsEarlier = firstRun.startMs < secondRun.startMs;
    for (const QString &key : keys) {
        std::vector<qint64> times;
        std::vector<double> values;
        const SampleStore::Series *labelled = store->contains(key) ? store->series(key) : scratch.series(key);
        const QMap<QString, QString> labels = labelled->labels();
        appendWithin(firstIsEarlier ? *store : scratch, key, firstIsEarlier ? firstRun : secondRun, times, values);
        appendWithin(firstIsEarlier ? scratch : *store, key, firstIsEarlier ? secondRun : firstRun, times, values);
        store->remove(key);
        store->merge(key, labels, times, values);
    }
    for (Annotation annotation : scratchNotes.annotations()) {
        annotation.id = 0; // a new id in the first run's model
        annotations->add(annotation);
    }
    return Second{secondRun, rangeText(firstRun) + QLatin1Char(',') + rangeText(secondRun)};
}

} // namespace SessionComparison
