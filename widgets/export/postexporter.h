// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/annotationscope.h"
#include "annotations/annotation.h"
#include "base/result.h"
#include "base/timerange.h"
#include "export/exportfigure.h"
#include "export/exporttheme.h"
#include "fetching/dashboardsnapshot.h"
#include "report/comparedrun.h"
#include "report/postdraft.h"
#include "report/runtable.h"
#include "scenario/scenarioverdict.h"

#include <QDate>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QTimeZone>
#include <optional>
#include <utility>
#include <vector>

class SampleStore;

// What a post is drafted from: one run of a dashboard, live or recorded.
struct PostRun
{
    DashboardSnapshot snapshot;             // the panels and the store series they draw
    const SampleStore *store = nullptr;     // not owned
    std::vector<Annotation> annotations;    // every mark of the run; suggestions are left out
    AnnotationScope scope;                  // which panel draws which marks
    TimeRange range;                        // the run: from its start to its end
    QString source;                         // the Prometheus URL, or the recording's file
    QString scenario;                       // the scenario's title; empty without one
    std::optional<ScenarioVerdict> verdict; // the scenario's; unset: the one its marks keep, if any
};

// How the post is to be written: the words of its front matter and the pictures' form.
struct PostSettings
{
    QString title; // empty: the scenario's title, else the dashboard's with the date
    QStringList authors;
    QStringList tags;
    QStringList categories{QStringLiteral("chaos_experiment")};
    QStringList headlinePanels; // titles; empty: the dashboard's headline panels, else all
    std::optional<QDate> date;  // unset: the day the run started
    QTimeZone timeZone = QTimeZone::systemTimeZone();
    double scale = 2;
    QSize size{1200, 675};
    QString version; // "Chaoscope 0.1.0" in the captions; empty: left out
    // Runs compared in the post: pictures of them overlaid and side by side, and the run table.
    std::vector<ComparedRun> compared;
    std::vector<RunTable::Request> tableColumns; // empty: RunTable::defaultRequests
    QStringList overlaid;                        // what the overlay draws per run; empty: each panel's first
};

// Drafts a post from a run (PostDraft) and writes it: index.md and every picture it names,
// PNG in the blog theme at the settings' scale, each named for what it shows
// ("phase-2-rate-400.png"). The pictures label each action by its change only ("rate 150 →
// 400 /s"); who applied it and how it went are in the post's action table.
class PostExporter
{
public:
    explicit PostExporter(ExportTheme theme = ExportTheme::blog());

    struct Planned
    {
        PostDraft draft;
        std::vector<std::pair<QString, ExportFigure>> pictures; // file name, figure
        std::optional<RunTable> runTable;                       // with runs compared
    };
    // The draft and the figures of its pictures, without writing anything. An error names
    // what the settings ask for that the run does not have (a headline panel, a column).
    Result<Planned> plan(const PostRun &run, const PostSettings &settings) const;

    struct Written
    {
        QString index;           // the absolute path of the draft (index.md, or index.md.new)
        bool keptEdited = false; // index.md had been edited: the draft went beside it
        QStringList pictures;    // absolute paths
        Planned planned;
    };
    // Plans, writes the pictures into `folder` (made when missing), then the draft (PostFolder:
    // an index.md the author has edited is kept).
    Result<Written> write(const QString &folder, const PostRun &run, const PostSettings &settings) const;

private:
    ExportTheme m_theme;
};
