// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/grafanaimportaction.h"

#include "actions/filemenu.h"
#include "actions/grafanaimport.h"
#include "base/format.h"
#include "base/whenfinished.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>
#include <optional>

namespace {
const QString kTitle = QStringLiteral("Import Grafana dashboard");
}

GrafanaImportAction::GrafanaImportAction(QMainWindow *window, const QUrl &prometheusUrl,
                                         const QStringList &connectionArguments)
    : QObject(window), m_window(window), m_launcher{prometheusUrl, connectionArguments}
{
    QMenu *file = sharedFileMenu(window);
    QAction *action = file->addAction(tr("Import &Grafana dashboard…"));
    setFileGroup(action, FileGroup::Import);
    action->setObjectName(QStringLiteral("importGrafanaAction"));
    action->setToolTip(tr("Convert a Grafana dashboard's JSON export into a Chaoscope dashboard and open it."));
    connect(action, &QAction::triggered, this, &GrafanaImportAction::chooseFile);
}

void GrafanaImportAction::chooseFile()
{
    const QString path =
        QFileDialog::getOpenFileName(m_window, kTitle, QString(), tr("Grafana dashboards (*.json);;All files (*)"));
    if (!path.isEmpty())
        importFile(path);
}

void GrafanaImportAction::importFile(const QString &inputPath, const QString &outputPath, bool openWindow)
{
    m_window->statusBar()->showMessage(tr("Converting %1…").arg(QFileInfo(inputPath).fileName()));
    whenFinished(
        QtConcurrent::run([inputPath] { return GrafanaImport::readFile(inputPath); }), this,
        [this, inputPath, outputPath, openWindow](const Result<GrafanaImporter::Conversion> &conversion) {
            if (!conversion) {
                m_window->statusBar()->showMessage(conversion.error().message, 15'000);
                QMessageBox::warning(m_window, kTitle, conversion.error().message);
                emit finished(false, conversion.error().message);
                return;
            }
            // What did not come along is said before anything is written, so the user can stop here.
            if (!conversion->notConverted.isEmpty() && outputPath.isEmpty()) {
                QMessageBox box(
                    QMessageBox::Information, kTitle,
                    tr("%1 and %2 converted; %3 could not be converted.")
                        .arg(Format::counted(qint64(conversion->dashboard.panels.size()), tr("panel"), tr("panels")),
                             Format::counted(qint64(conversion->dashboard.variableDefinitions.size()), tr("variable"),
                                             tr("variables")),
                             Format::counted(conversion->notConverted.size(), tr("thing"), tr("things"))),
                    QMessageBox::Ok | QMessageBox::Cancel, m_window);
                box.setInformativeText(conversion->notConverted.mid(0, 8).join(QLatin1Char('\n')) +
                                       (conversion->notConverted.size() > 8 ? QStringLiteral("\n…") : QString()));
                box.setDetailedText(conversion->notConverted.join(QLatin1Char('\n')));
                if (box.exec() != QMessageBox::Ok) {
                    m_window->statusBar()->clearMessage();
                    return;
                }
            }
            QString target = outputPath;
            if (target.isEmpty()) {
                const QFileInfo input(inputPath);
                target = QFileDialog::getSaveFileName(
                    m_window, kTitle,
                    input.dir().filePath(input.completeBaseName() + QStringLiteral("-chaoscope.json")),
                    tr("Chaoscope dashboards (*.json)"));
                if (target.isEmpty()) {
                    m_window->statusBar()->clearMessage();
                    return;
                }
                if (QFileInfo(target).suffix().isEmpty())
                    target += QStringLiteral(".json");
            }
            const DashboardDefinition dashboard = conversion->dashboard;
            const QString summary = GrafanaImport::summary(conversion.value(), target);
            whenFinished(
                QtConcurrent::run(
                    [dashboard, target, inputPath] { return GrafanaImport::writeFile(dashboard, target, inputPath); }),
                this, [this, target, summary, openWindow](const std::optional<Error> &error) {
                    if (error) {
                        m_window->statusBar()->showMessage(error->message, 15'000);
                        QMessageBox::warning(m_window, kTitle, error->message);
                        emit finished(false, error->message);
                        return;
                    }
                    m_window->statusBar()->showMessage(summary, 15'000);
                    // Its own process: the dashboard shown here keeps polling and recording.
                    if (openWindow && !m_launcher.start(target)) {
                        QMessageBox::warning(m_window, kTitle,
                                             tr("Saved %1, but could not start Chaoscope to show it.").arg(target));
                    }
                    emit finished(true, summary);
                });
        });
}

QStringList GrafanaImportAction::windowArguments(const QString &dashboardPath) const
{
    return m_launcher.arguments(dashboardPath);
}
