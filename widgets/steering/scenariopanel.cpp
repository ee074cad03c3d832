// SPDX-License-Identifier: GPL-3.0-or-later
#include "steering/scenariopanel.h"

#include "base/format.h"
#include "scenario/scenariorunner.h"
#include "theme/uitheme.h"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>

ScenarioPanel::ScenarioPanel(ScenarioRunner *runner, QWidget *parent)
    : QWidget(parent), m_runner(runner), m_title(new QLabel), m_next(new QLabel), m_steps(new QListWidget),
      m_checks(new QLabel), m_stop(new QPushButton(tr("Stop scenario")))
{
    m_title->setWordWrap(true);
    m_next->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_next);
    layout->addWidget(m_steps, 1);
    m_checks->setWordWrap(true);
    m_checks->setTextFormat(Qt::RichText);
    layout->addWidget(m_checks);
    layout->addWidget(m_stop);
    connect(m_stop, &QPushButton::clicked, m_runner, &ScenarioRunner::stop);
    connect(m_runner, &ScenarioRunner::started, this, [this] {
        m_stop->setEnabled(true);
        m_tick.start();
        reload();
    });
    connect(m_runner, &ScenarioRunner::stepStarted, this, &ScenarioPanel::refreshCountdown);
    connect(m_runner, &ScenarioRunner::stepFinished, this, [this](int index, bool ok, const QString &message) {
        if (QListWidgetItem *item = m_steps->item(index)) {
            item->setText((ok ? QStringLiteral("✔ ") : QStringLiteral("✖ ")) + item->data(Qt::UserRole).toString() +
                          (message.isEmpty() ? QString() : QStringLiteral(" — ") + message));
            item->setForeground(ok ? UiTheme::instance()->colors().ok : UiTheme::instance()->colors().error);
        }
        refreshCountdown();
    });
    connect(&m_runner->checks(), &CheckRunner::evaluated, this, &ScenarioPanel::refreshChecks);
    connect(&m_runner->checks(), &CheckRunner::guardTripped, this, &ScenarioPanel::refreshChecks);
    connect(&m_runner->checks(), &CheckRunner::guardFinished, this, &ScenarioPanel::refreshChecks);
    connect(m_runner, &ScenarioRunner::finished, this, [this](bool ok, const QString &message) {
        refreshChecks();
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
    refreshChecks();
}

void ScenarioPanel::refreshChecks()
{
    const CheckRunner &checks = m_runner->checks();
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    const auto coloured = [](const QColor &colour, const QString &text) {
        return QStringLiteral("<span style='color:%1'>%2</span>").arg(UiTheme::css(colour), text);
    };
    QStringList rows;
    const auto rowOf = [&](const CheckTracker &tracker, const QString &kind, const QString &state,
                           const QColor &colour) {
        const Check &check = tracker.check();
        QString now =
            tracker.last() ? tr("now %1").arg(Format::value(*tracker.last(), check.unit)) : tr("no sample yet");
        if (tracker.worst())
            now += tr(", worst %1").arg(Format::value(*tracker.worst(), check.unit));
        rows << QStringLiteral("%1 <b>%2</b> %3 — %4 · %5")
                    .arg(coloured(colour, QStringLiteral("●")), check.name.toHtmlEscaped(),
                         check.condition.describe(check.unit).toHtmlEscaped(), kind,
                         coloured(colour, state.toHtmlEscaped()) + QStringLiteral(" · ") + now.toHtmlEscaped());
    };
    for (const CheckTracker &tracker : checks.expectations()) {
        const bool warning = tracker.check().severity == Check::Severity::Warning;
        const QColor colour = tracker.failed()     ? (warning ? colors.warning : colors.error)
                              : tracker.isBroken() ? colors.warning
                                                   : colors.ok;
        rowOf(tracker, tr("expectation"),
              tracker.failed()     ? tr("failed at +%1").arg(Format::duration(*tracker.failedAtMs()))
              : tracker.isBroken() ? tr("broken since +%1").arg(Format::duration(tracker.brokenSinceMs()))
                                   : tr("holding"),
              colour);
    }
    for (int i = 0; i < int(checks.guards().size()); ++i) {
        const CheckTracker &tracker = checks.guards()[std::size_t(i)];
        const CheckRunner::GuardState state = checks.guardState(i);
        const QColor colour = state == CheckRunner::GuardState::Armed
                                  ? (tracker.isBroken() ? colors.warning : colors.ok)
                              : state == CheckRunner::GuardState::Acted ? colors.warning
                                                                        : colors.error;
        const QString words =
            state == CheckRunner::GuardState::Armed
                ? (tracker.isBroken() ? tr("armed, broken since +%1").arg(Format::duration(tracker.brokenSinceMs()))
                                      : tr("armed"))
            : state == CheckRunner::GuardState::Acting ? tr("tripped, acting")
                                                       : tr("tripped: %1").arg(checks.guardMessage(i));
        rowOf(tracker, tr("guard → %1").arg(m_runner->scenario().guards[std::size_t(i)].describeAction()), words,
              colour);
    }
    m_checks->setVisible(!rows.isEmpty());
    m_checks->setText(rows.isEmpty()
                          ? QString()
                          : QStringLiteral("<b>%1</b><br>").arg(tr("Checks")) + rows.join(QStringLiteral("<br>")));
}

QString ScenarioPanel::checksText() const
{
    QTextDocument document;
    document.setHtml(m_checks->text());
    return document.toPlainText();
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
