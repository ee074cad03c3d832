// SPDX-License-Identifier: GPL-3.0-or-later
#include "steering/scenariopanel.h"

#include "base/format.h"
#include "scenario/scenariorunner.h"
#include "theme/uitheme.h"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

ScenarioPanel::ScenarioPanel(ScenarioRunner *runner, QWidget *parent)
    : QWidget(parent), m_runner(runner), m_title(new QLabel), m_next(new QLabel), m_steps(new QListWidget),
      m_stop(new QPushButton(tr("Stop scenario")))
{
    m_title->setWordWrap(true);
    m_next->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_next);
    layout->addWidget(m_steps, 1);
    layout->addWidget(m_stop);
    connect(m_stop, &QPushButton::clicked, m_runner, &ScenarioRunner::stop);
    connect(m_runner, &ScenarioRunner::stepStarted, this, &ScenarioPanel::refreshCountdown);
    connect(m_runner, &ScenarioRunner::stepFinished, this, [this](int index, bool ok, const QString &message) {
        if (QListWidgetItem *item = m_steps->item(index)) {
            item->setText((ok ? QStringLiteral("✔ ") : QStringLiteral("✖ ")) + item->data(Qt::UserRole).toString() +
                          (message.isEmpty() ? QString() : QStringLiteral(" — ") + message));
            item->setForeground(ok ? UiTheme::instance()->colors().ok : UiTheme::instance()->colors().error);
        }
        refreshCountdown();
    });
    connect(m_runner, &ScenarioRunner::finished, this, [this](bool ok, const QString &message) {
        m_next->setText(ok ? tr("Finished: %1").arg(message.toHtmlEscaped())
                           : QStringLiteral("<b style='color:%1'>%2</b>")
                                 .arg(UiTheme::css(UiTheme::instance()->colors().error),
                                      tr("Stopped: %1").arg(message.toHtmlEscaped())));
        m_stop->setEnabled(false);
        m_tick.stop();
    });
    m_tick.setInterval(500);
    connect(&m_tick, &QTimer::timeout, this, &ScenarioPanel::refreshCountdown);
    reload();
    m_tick.start();
}

void ScenarioPanel::reload()
{
    m_title->setText(QStringLiteral("<b>%1</b>").arg(m_runner->scenario().title.toHtmlEscaped()));
    m_steps->clear();
    for (const ScenarioStep &step : m_runner->scenario().steps) {
        QString when = step.atMs ? QStringLiteral("+%1").arg(Format::duration(*step.atMs)) : QStringLiteral("then");
        const QString text = when + QStringLiteral("  ") + step.describe();
        auto *item = new QListWidgetItem(QStringLiteral("· ") + text);
        item->setData(Qt::UserRole, text);
        m_steps->addItem(item);
    }
    refreshCountdown();
}

void ScenarioPanel::refreshCountdown()
{
    if (!m_runner->isRunning())
        return;
    m_stop->setEnabled(true);
    const int index = m_runner->currentStep();
    if (index < 0 || index >= int(m_runner->scenario().steps.size()))
        return;
    const qint64 ms = m_runner->msUntilCurrentStep();
    const QString what = m_runner->scenario().steps[std::size_t(index)].describe().toHtmlEscaped();
    m_next->setText(ms > 0 ? tr("Next: %1 in <b>%2 s</b>").arg(what).arg((ms + 999) / 1000)
                           : tr("Now: <b>%1</b>").arg(what));
    m_steps->setCurrentRow(index);
}

QString ScenarioPanel::nextStepText() const
{
    return m_next->text();
}
