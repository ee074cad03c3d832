// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/historyplanner.h"

#include "fetching/historytext.h"

#include <algorithm>
#include <utility>

HistoryPlanner::HistoryPlanner() : m_settings(Settings()) {}

void HistoryPlanner::LoadState::begin(const Plan &plan)
{
    failed = false;
    detailCancelled = false;
    finePlan = plan.fine;
    if (!plan.requests.empty())
        fineStepMs = plan.fineStepMs;
}

std::optional<HistoryPlanner::FinePlan> HistoryPlanner::LoadState::takeFinePlan()
{
    return std::exchange(finePlan, std::nullopt);
}

void HistoryPlanner::LoadState::drawn(Phase phase, qint64 stepMs)
{
    if (phase == Phase::Fine)
        return; // detail fills in what the coarse picture drew
    drawnStepMs = stepMs;
    tailStepMs = stepMs;
}

void HistoryPlanner::LoadState::complete()
{
    if (failed)
        return;
    // A cancelled load keeps the coarse picture of the past, but from now on the tail brings
    // (and the session records) the raw samples.
    if (!detailCancelled)
        drawnStepMs = std::min(drawnStepMs, fineStepMs);
    tailStepMs = std::min(drawnStepMs, fineStepMs);
}

int HistoryPlanner::LoadState::fail()
{
    failed = true;
    const std::optional<FinePlan> given = takeFinePlan();
    return given ? given->reservedChunks : 0;
}

int HistoryPlanner::LoadState::cancel(bool pending)
{
    const std::optional<FinePlan> given = takeFinePlan();
    // The detail is not fetched: the panel keeps telling the step it really has (the coarse
    // one, also when its answer is still on the way).
    if (pending)
        detailCancelled = true;
    return given ? given->reservedChunks : 0;
}

QString HistoryPlanner::LoadState::describe() const
{
    const auto step = [](std::optional<qint64> ms) {
        return ms && *ms > 0 ? HistoryText::step(*ms) : QStringLiteral("-");
    };
    QStringList parts{QStringLiteral("drawn %1").arg(step(drawnStepMs)),
                      QStringLiteral("tail %1").arg(step(tailStepMs)), QStringLiteral("fine %1").arg(step(fineStepMs))};
    if (finePlan)
        parts << QStringLiteral("%1 fine chunks reserved").arg(finePlan->reservedChunks);
    if (failed)
        parts << QStringLiteral("failed");
    if (detailCancelled)
        parts << QStringLiteral("cancelled");
    return parts.join(QStringLiteral(", "));
}

qint64 HistoryPlanner::panelStepMs(const TimeRange &visible, int widthPx) const
{
    return StepPlanner::chooseStepMs(visible.length(), widthPx, m_settings.scrapeIntervalMs);
}

qint64 HistoryPlanner::fineStepFor(qint64 lengthMs, int seriesCount) const
{
    const qint64 points = std::max(kSinglePassPoints, m_settings.fineSampleBudget / std::max(1, seriesCount));
    const qint64 wanted = (std::max<qint64>(lengthMs, 0) + points - 2) / (points - 1);
    // chooseStepMs with a width of one pixel is the nice step at least `wanted`, and never
    // finer than the scrape interval: finer steps would only repeat samples.
    return StepPlanner::chooseStepMs(std::max<qint64>(wanted, 1), 1, m_settings.scrapeIntervalMs);
}

qint64 HistoryPlanner::detailStepFor(qint64 panelStepMs) const
{
    if (m_settings.detailPointsPerColumn <= 0)
        return m_settings.scrapeIntervalMs;
    const qint64 wanted = std::max<qint64>(panelStepMs / m_settings.detailPointsPerColumn, 1);
    return StepPlanner::chooseStepMs(wanted, 1, m_settings.scrapeIntervalMs);
}

int HistoryPlanner::chunkCount(const TimeRange &range, qint64 stepMs) const
{
    const int maxPoints = std::max(1, m_settings.maxPointsPerRequest);
    const qint64 points = range.isEmpty() ? 0 : (range.endMs - range.startMs) / stepMs + 1;
    return int((points + maxPoints - 1) / maxPoints);
}

HistoryPlanner::Next HistoryPlanner::next(const View &view, qint64 panelStepMs, const Query &query, bool tail) const
{
    // History is what the visible range shows up to where we have fetched; in live mode the
    // part after that is the tail, which the refresh tick fetches incrementally.
    // Nothing after now is ever asked for: a server computes a rate at an instant that has not
    // happened from fewer samples, and the panel would draw (and the detectors judge) a fall
    // that is not there.
    const std::optional<qint64> fetchedUntil = query.coverage.fetchedUntil();
    TimeRange history = view.visible;
    history.endMs = std::min(history.endMs, view.nowMs);
    if (view.live && fetchedUntil)
        history.endMs = std::min(history.endMs, *fetchedUntil);
    if (history.isEmpty())
        return {}; // a view wholly after now: there is nothing yet
    const bool historyCovered = fetchedUntil && query.coverage.isCovered(history, panelStepMs);

    if (!historyCovered) {
        TimeRange wanted = view.visible;
        wanted.endMs = view.live ? view.nowMs : std::min(view.visible.endMs, view.nowMs);
        return {Next::Kind::History, wanted, panelStepMs};
    }
    if (!tail)
        return {};
    // Also while paused or zoomed: the tail keeps being recorded, at the resolution the
    // history was loaded with (never coarser than the panel needs).
    const qint64 tailStep = std::min(query.tailStepMs.value_or(panelStepMs), panelStepMs);
    const qint64 from = query.newestMs.value_or(*fetchedUntil);
    const qint64 overlap = std::max(kOverlapSteps * tailStep, query.revisedMs);
    // Never from before both the window and what the answers reached: a series silent for
    // longer than the window, or a sample a wrong answer dated far back, must not make every
    // later refresh ask for all of that. (A view zoomed into the last seconds still gets the
    // whole overlap: the floor is the earlier of the two.)
    const qint64 floorMs = std::min(view.visible.startMs, *fetchedUntil - overlap);
    const TimeRange wanted = StepPlanner::alignToStep({std::max(from - overlap, floorMs), view.nowMs}, tailStep);
    if (wanted.isEmpty())
        return {};
    return {Next::Kind::Tail, wanted, tailStep};
}

HistoryPlanner::Plan HistoryPlanner::plan(const TimeRange &wanted, qint64 panelStepMs, int knownSeriesCount) const
{
    Plan plan;
    const qint64 fine =
        std::min(std::max(fineStepFor(wanted.length(), knownSeriesCount), detailStepFor(panelStepMs)), panelStepMs);
    const TimeRange fineRange = StepPlanner::alignToStep(wanted, fine);
    if (fineRange.isEmpty())
        return plan;
    const qint64 finePoints = (fineRange.endMs - fineRange.startMs) / fine + 1;
    plan.fineStepMs = fine;
    if (fine >= panelStepMs || finePoints <= kSinglePassPoints) {
        plan.requests.push_back({Phase::Single, fineRange, fine, 0});
        return plan;
    }
    // The series count is known only after the coarse answer; until then the progress total
    // reserves the chunks of the finest fine step, and gives back what is not used.
    plan.fine = FinePlan{wanted, chunkCount(fineRange, fine)};
    plan.requests.push_back({Phase::Coarse, StepPlanner::alignToStep(wanted, panelStepMs), panelStepMs, 0});
    return plan;
}

HistoryPlanner::FineChunks HistoryPlanner::planFine(const FinePlan &plan, int seriesCount, qint64 drawnStepMs) const
{
    std::vector<TimeRange> chunks;
    // A query without series has no detail to add; one with many gets a coarser fine step.
    const qint64 fine = std::max(fineStepFor(plan.range.length(), seriesCount), detailStepFor(drawnStepMs));
    if (seriesCount > 0 && fine < drawnStepMs) {
        chunks =
            StepPlanner::splitRange(StepPlanner::alignToStep(plan.range, fine), fine, m_settings.maxPointsPerRequest);
    }
    FineChunks out;
    out.fineStepMs = chunks.empty() ? drawnStepMs : fine;
    const int count = int(chunks.size());
    for (int i = 0; i < count; ++i) {
        // Newest first: in live mode that is where the user looks.
        out.requests.push_back({Phase::Fine, chunks[std::size_t(i)], fine, count - 1 - i});
    }
    return out;
}

QString HistoryPlanner::describe(const Request &request, qint64 originMs)
{
    static const char *const kPhases[] = {"single", "coarse", "fine"};
    QString text = QStringLiteral("%1 %2 step %3")
                       .arg(QLatin1String(kPhases[int(request.phase)]), HistoryText::range(request.range, originMs),
                            HistoryText::step(request.stepMs));
    if (request.phase == Phase::Fine)
        text += QStringLiteral(" rank %1").arg(request.rank);
    return text;
}

QStringList HistoryPlanner::describe(const Plan &plan, qint64 originMs)
{
    QStringList lines;
    for (const Request &request : plan.requests)
        lines << describe(request, originMs);
    if (plan.fine)
        lines << QStringLiteral("reserve %1 fine chunks").arg(plan.fine->reservedChunks);
    return lines;
}

QStringList HistoryPlanner::describe(const FineChunks &chunks, qint64 originMs)
{
    QStringList lines;
    for (const Request &request : chunks.requests)
        lines << describe(request, originMs);
    lines << QStringLiteral("then step %1").arg(HistoryText::step(chunks.fineStepMs));
    return lines;
}

QString HistoryPlanner::describe(const Next &next, qint64 originMs)
{
    switch (next.kind) {
    case Next::Kind::Nothing:
        break;
    case Next::Kind::History:
        return QStringLiteral("history %1").arg(HistoryText::range(next.range, originMs));
    case Next::Kind::Tail:
        return QStringLiteral("tail %1 step %2")
            .arg(HistoryText::range(next.range, originMs), HistoryText::step(next.stepMs));
    }
    return QStringLiteral("nothing");
}

void HistoryQueue::push(int query, const HistoryPlanner::Request &request)
{
    m_entries.push_back({query, request, m_order++});
}

namespace {

bool sendsBefore(const HistoryQueue::Entry &a, const HistoryQueue::Entry &b)
{
    // Every query's picture before any query's detail; detail newest first across panels.
    const bool aFine = a.request.phase == HistoryPlanner::Phase::Fine;
    const bool bFine = b.request.phase == HistoryPlanner::Phase::Fine;
    if (aFine != bFine)
        return bFine;
    if (a.request.rank != b.request.rank)
        return a.request.rank < b.request.rank;
    return a.order < b.order;
}

} // namespace

std::optional<HistoryQueue::Entry> HistoryQueue::takeNext()
{
    if (m_entries.empty())
        return std::nullopt;
    const auto next = std::min_element(m_entries.begin(), m_entries.end(), sendsBefore);
    const Entry entry = *next;
    m_entries.erase(next);
    return entry;
}

int HistoryQueue::dropQuery(int query)
{
    const auto dropped =
        std::remove_if(m_entries.begin(), m_entries.end(), [query](const Entry &e) { return e.query == query; });
    const int count = int(m_entries.end() - dropped);
    m_entries.erase(dropped, m_entries.end());
    return count;
}

QStringList HistoryQueue::describe(qint64 originMs) const
{
    std::vector<Entry> sorted = m_entries;
    std::sort(sorted.begin(), sorted.end(), sendsBefore);
    QStringList lines;
    for (const Entry &entry : sorted)
        lines << QStringLiteral("q%1 %2").arg(entry.query).arg(HistoryPlanner::describe(entry.request, originMs));
    return lines;
}
