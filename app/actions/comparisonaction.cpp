// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/comparisonaction.h"

#include "actions/comparisonruns.h"
#include "actions/filemenu.h"
#include "annotations/annotationmodel.h"
#include "compare/comparisonwindow.h"
#include "fetching/dashboardpoller.h"
#include "timeline/timewindow.h"

#include <QAction>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>

ComparisonAction::ComparisonAction(QMainWindow *window, const SampleStore *store, const AnnotationModel *annotations,
                                   const DashboardPoller *poller, const TimeWindow *timeWindow, ComparisonRuns *runs,
                                   std::function<ComparedRun()> thisRun)
    : QObject(window), m_window(window), m_store(store), m_annotations(annotations), m_poller(poller),
      m_timeWindow(timeWindow), m_runs(runs), m_thisRun(std::move(thisRun))
{
    QAction *action = sharedFileMenu(window)->addAction(tr("Compare &runs…"));
    action->setObjectName(QStringLiteral("compareRunsAction"));
    action->setToolTip(tr("2 to 8 runs overlaid or side by side on one time scale, and their table of numbers."));
    connect(action, &QAction::triggered, this, &ComparisonAction::open);
    // A variable's runs fill in as their answers come: the window follows them.
    m_followVariables.setInterval(5000);
    connect(&m_followVariables, &QTimer::timeout, this, [this] {
        if (m_comparison && m_comparison->isVisible())
            push();
    });
}

ComparisonWindow *ComparisonAction::window() const
{
    return m_comparison.data();
}

void ComparisonAction::open()
{
    if (!m_comparison) {
        m_comparison = new ComparisonWindow(m_window);
        connect(m_comparison, &ComparisonWindow::addViewRequested, this, &ComparisonAction::addView);
        connect(m_comparison, &ComparisonWindow::addRecordingsRequested, this, &ComparisonAction::chooseRecordings);
        connect(m_comparison, &ComparisonWindow::addVariableRequested, this, &ComparisonAction::chooseVariableValues);
        connect(m_comparison, &ComparisonWindow::removeRequested, this, [this](int index) {
            if (index >= 0 && index < int(m_entries.size()))
                m_entries.erase(m_entries.begin() + index);
            push();
        });
        m_entries.push_back({m_thisRun(), -1}); // the run shown comes first
        // Then the recordings given with it (--session a --session b …).
        m_comparisonCount = int(m_runs->runs(m_timeWindow->range()).size());
        for (int i = 0; i < m_comparisonCount; ++i)
            m_entries.push_back({std::nullopt, i});
        push();
    }
    m_comparison->show();
    m_comparison->raise();
    m_comparison->activateWindow();
}

void ComparisonAction::addView()
{
    ComparedRun view = m_thisRun();
    view.range = m_timeWindow->range();
    view.zeroMs = view.range.startMs;
    view.steady = view.range;
    view.title = QDateTime::fromMSecsSinceEpoch(view.range.startMs).toString(QStringLiteral("HH:mm:ss"));
    m_entries.push_back({view, -1});
    push();
}

QString ComparisonAction::addRecordings(const QStringList &paths)
{
    QStringList problems;
    for (const QString &path : paths) {
        const Result<bool> added = m_runs->addRecording(path, m_poller->dashboard());
        if (!added) {
            problems << added.error().message;
            continue;
        }
        m_entries.push_back({std::nullopt, m_comparisonCount++});
    }
    push();
    return problems.join(QLatin1Char('\n'));
}

QString ComparisonAction::addVariableValues(const QString &name, const QStringList &values)
{
    const Result<bool> added = m_runs->addVariableValues(m_poller->dashboard(), name, values);
    if (!added)
        return added.error().message;
    for (int i = 0; i < int(values.size()); ++i)
        m_entries.push_back({std::nullopt, m_comparisonCount++});
    m_runs->start();
    m_followVariables.start();
    push();
    return {};
}

void ComparisonAction::push()
{
    if (!m_comparison)
        return;
    const std::vector<ComparedRun> compared = m_runs->runs(m_timeWindow->range());
    std::vector<Annotation> marks;
    for (const Annotation &annotation : m_annotations->annotations())
        if (!annotation.suggested)
            marks.push_back(annotation);
    std::vector<ComparedRun> runs;
    for (const Entry &entry : m_entries) {
        if (entry.view) {
            runs.push_back(*entry.view);
        } else if (entry.comparison >= 0 && entry.comparison < int(compared.size())) {
            ComparedRun run = compared[std::size_t(entry.comparison)];
            if (run.store == m_store && run.annotations.empty())
                run.annotations = marks; // a variable's run: the marks of this one
            runs.push_back(std::move(run));
        }
    }
    m_comparison->setRuns(std::move(runs));
}

void ComparisonAction::chooseRecordings()
{
    const QStringList paths = QFileDialog::getOpenFileNames(m_comparison, tr("Add recordings"), QString(),
                                                            tr("Chaoscope sessions (*.chaoscope);;All files (*)"));
    if (paths.isEmpty())
        return;
    if (const QString problems = addRecordings(paths); !problems.isEmpty())
        QMessageBox::warning(m_comparison, tr("Add recordings"), problems);
}

void ComparisonAction::chooseVariableValues()
{
    const std::vector<VariableDefinition> &variables = m_poller->dashboard().variableDefinitions;
    if (variables.empty()) {
        QMessageBox::information(m_comparison, tr("Add values of a variable"),
                                 tr("This dashboard has no variables: add recordings or views instead."));
        return;
    }
    QStringList names;
    for (const VariableDefinition &variable : variables)
        names << variable.name;
    bool ok = false;
    const QString name =
        QInputDialog::getItem(m_comparison, tr("Add values of a variable"), tr("Variable"), names, 0, false, &ok);
    if (!ok)
        return;
    const auto variable =
        std::find_if(variables.begin(), variables.end(), [&](const VariableDefinition &v) { return v.name == name; });
    const QString values = QInputDialog::getText(m_comparison, tr("Add values of a variable"),
                                                 tr("Values of $%1, comma-separated").arg(name), QLineEdit::Normal,
                                                 variable->choices.join(QStringLiteral(", ")), &ok);
    if (!ok)
        return;
    QStringList chosen;
    for (const QString &value : values.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!value.trimmed().isEmpty())
            chosen << value.trimmed();
    if (const QString problem = addVariableValues(name, chosen); !problem.isEmpty())
        QMessageBox::warning(m_comparison, tr("Add values of a variable"), problem);
}
