// SPDX-License-Identifier: GPL-3.0-or-later
#include "steering/controlpanel.h"

#include "base/format.h"
#include "loadtester/loadtesterwatch.h"
#include "loadtester/steeringpolicy.h"
#include "steering/ceilingsearchdialog.h"
#include "steering/numberfieldkeys.h"
#include "theme/uitheme.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

QString limitText(const std::optional<int> &limit)
{
    if (!limit)
        return QStringLiteral("–");
    return *limit == 0 ? QObject::tr("unlimited") : QString::number(*limit);
}

QString optionalNumber(const std::optional<int> &value)
{
    return value ? QString::number(*value) : QStringLiteral("–");
}

} // namespace

ControlPanel::ControlPanel(LoadTesterController *controller, QWidget *parent)
    : QWidget(parent), m_controller(controller)
{
    m_confirm = [this](const QString &reason) {
        return QMessageBox::question(this, tr("Change the load?"), reason + QLatin1Char('\n') + tr("Apply it?")) ==
               QMessageBox::Yes;
    };
    build();
    connect(m_controller, &LoadTesterController::replicasChanged, this, [this] {
        updateCapabilities();
        showStatus();
    });
    connect(m_controller, &LoadTesterController::statusUpdated, this, &ControlPanel::showStatus);
    connect(m_controller, &LoadTesterController::actionFinished, this, &ControlPanel::showReport);
    connect(m_controller, &LoadTesterController::actionStarted, this,
            [this](const LoadTesterAction &action) { m_result->setText(tr("Applying: %1 …").arg(action.describe())); });
    updateCapabilities();
    showStatus();
}

ControlPanel::~ControlPanel()
{
    // The spin boxes lose focus while QWidget's destructor deletes them and emit
    // editingFinished; by then this is no longer a ControlPanel.
    disconnect(m_rate, nullptr, this, nullptr);
    disconnect(m_limit, nullptr, this, nullptr);
}

void ControlPanel::setWatch(LoadTesterWatch *watch)
{
    m_watch = watch;
    connect(watch, &LoadTesterWatch::silenceChanged, this, &ControlPanel::showStatus);
    showStatus();
}

void ControlPanel::build()
{
    m_header = new QLabel;
    m_header->setWordWrap(true);
    m_status = new QLabel;
    m_status->setTextFormat(Qt::RichText);
    m_status->setWordWrap(true);

    m_rate = new QDoubleSpinBox;
    m_rate->setRange(0, 1e7);
    m_rate->setDecimals(1);
    m_rate->setKeyboardTracking(false);
    m_applyRate = new QPushButton(tr("Apply"));
    // Typing: without keyboard tracking the spin box says nothing until Enter, its line
    // edit says each key (textEdited: the user's, never setValue's); the arrows change the value.
    connect(m_rate->findChild<QLineEdit *>(), &QLineEdit::textEdited, this, &ControlPanel::noteRateEdit);
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, &ControlPanel::noteRateEdit);
    connect(m_applyRate, &QPushButton::clicked, this, &ControlPanel::applyTypedRate);

    // Rate steps have shortcuts (Ctrl+[Shift+]Up/Down); the limit's are buttons only, because
    // the other modifier combinations with arrows belong to the desktop on common systems.
    QHBoxLayout *rateSteps = makeStepRow(tr("Rate"), m_stepButtons, true, [this](int step) { stepRate(step); });
    QHBoxLayout *limitSteps =
        makeStepRow(tr("In-flight limit"), m_limitStepButtons, false, [this](int step) { stepInflightLimit(step); });

    m_limit = new QSpinBox;
    m_limit->setRange(0, 10'000'000);
    m_limit->setSpecialValueText(tr("unlimited"));
    m_limit->setKeyboardTracking(false);
    m_applyLimit = new QPushButton(tr("Apply"));
    NumberFieldKeys::install(m_rate);
    NumberFieldKeys::install(m_limit);
    connect(m_limit->findChild<QLineEdit *>(), &QLineEdit::textEdited, this, &ControlPanel::noteLimitEdit);
    connect(m_limit, &QSpinBox::valueChanged, this, &ControlPanel::noteLimitEdit);
    connect(m_applyLimit, &QPushButton::clicked, this, &ControlPanel::applyTypedLimit);

    m_pause = new QPushButton(tr("Pause load"));
    m_pause->setToolTip(tr("Pause or resume the load tester (Ctrl+P)"));
    connect(m_pause, &QPushButton::clicked, this, &ControlPanel::togglePause);
    m_findCeiling = new QPushButton(tr("Find the ceiling…"));
    connect(m_findCeiling, &QPushButton::clicked, this, [this] {
        CeilingSearchDialog dialog(m_ceilingPlan, m_controller->capabilities().rateUnit, this);
        if (dialog.exec() == QDialog::Accepted)
            requestCeilingSearch(dialog.plan());
    });
    auto *pauseShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_P), this);
    pauseShortcut->setContext(Qt::WindowShortcut);
    pauseShortcut->setWhatsThis(tr("Pause or resume the load"));
    connect(pauseShortcut, &QShortcut::activated, this, &ControlPanel::togglePause);
    auto *focusRate = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_R), this);
    connect(focusRate, &QShortcut::activated, m_rate, [this] {
        m_rate->setFocus();
        m_rate->selectAll();
    });
    focusRate->setWhatsThis(tr("Type a new rate"));
    auto *focusLimit = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    focusLimit->setWhatsThis(tr("Type a new in-flight limit"));
    setProperty("shortcutGroup", tr("Load tester"));
    connect(focusLimit, &QShortcut::activated, m_limit, [this] {
        m_limit->setFocus();
        m_limit->selectAll();
    });
    m_rate->setToolTip(tr("New rate; Enter or Apply sends it (Ctrl+R to focus)"));
    m_limit->setToolTip(tr("New in-flight limit, 0 = unlimited; Enter or Apply sends it (Ctrl+L to focus)"));
    // Enter sends the typed value; losing focus (editingFinished too) does not.
    connect(m_rate, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_rate->hasFocus())
            applyTypedRate();
    });
    connect(m_limit, &QSpinBox::editingFinished, this, [this] {
        if (m_limit->hasFocus())
            applyTypedLimit();
    });
    for (QLabel **elsewhere : {&m_rateElsewhere, &m_limitElsewhere}) {
        *elsewhere = new QLabel;
        (*elsewhere)->setWordWrap(true);
        (*elsewhere)->hide();
    }

    m_result = new QLabel;
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QGridLayout;
    form->addWidget(new QLabel(tr("Rate")), 0, 0);
    form->addWidget(m_rate, 0, 1);
    form->addWidget(m_applyRate, 0, 2);
    form->addWidget(m_rateElsewhere, 1, 1, 1, 2);
    form->addLayout(rateSteps, 2, 0, 1, 3);
    form->addWidget(new QLabel(tr("In-flight limit")), 3, 0);
    form->addWidget(m_limit, 3, 1);
    form->addWidget(m_applyLimit, 3, 2);
    form->addWidget(m_limitElsewhere, 4, 1, 1, 2);
    form->addLayout(limitSteps, 5, 0, 1, 3);
    form->addWidget(m_pause, 6, 0, 1, 3);
    form->addWidget(m_findCeiling, 7, 0, 1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_status);
    layout->addLayout(form);
    layout->addWidget(m_result);
    m_guards = new QLabel;
    m_guards->setWordWrap(true);
    m_guards->setTextFormat(Qt::RichText);
    m_guards->setVisible(false);
    layout->addWidget(m_guards);
    layout->addStretch(1);
}

void ControlPanel::setGuards(const QString &richText)
{
    m_guards->setText(richText);
    m_guards->setVisible(!richText.isEmpty());
}

QString ControlPanel::guardsText() const
{
    return m_guards->text();
}

QHBoxLayout *ControlPanel::makeStepRow(const QString &what, QList<QPushButton *> &buttons, bool withShortcuts,
                                       const std::function<void(int)> &onStep)
{
    auto *row = new QHBoxLayout;
    const std::pair<const char *, SteeringPolicy::Step> stepDefs[] = {{"×½", SteeringPolicy::Step::Half},
                                                                      {"−10 %", SteeringPolicy::Step::MinusTenPercent},
                                                                      {"+10 %", SteeringPolicy::Step::PlusTenPercent},
                                                                      {"×2", SteeringPolicy::Step::Double}};
    const QKeySequence stepKeys[] = {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Down),
                                     QKeySequence(Qt::CTRL | Qt::Key_Down), QKeySequence(Qt::CTRL | Qt::Key_Up),
                                     QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Up)};
    for (int i = 0; i < 4; ++i) {
        auto *button = new QPushButton(QString::fromUtf8(stepDefs[i].first));
        button->setAccessibleName(QStringLiteral("%1 %2").arg(what, button->text()));
        const int step = int(stepDefs[i].second);
        connect(button, &QPushButton::clicked, this, [onStep, step] { onStep(step); });
        if (withShortcuts) {
            button->setToolTip(
                tr("%1 %2 (%3)").arg(what, button->text(), stepKeys[i].toString(QKeySequence::NativeText)));
            auto *shortcut = new QShortcut(stepKeys[i], this);
            shortcut->setContext(Qt::WindowShortcut);
            shortcut->setWhatsThis(
                QStringLiteral("%1 %2").arg(what, button->text())); // listed in Help ▸ Keyboard shortcuts
            connect(shortcut, &QShortcut::activated, this, [onStep, step] { onStep(step); });
        } else {
            button->setToolTip(QStringLiteral("%1 %2").arg(what, button->text()));
        }
        row->addWidget(button);
        buttons << button;
    }
    return row;
}

void ControlPanel::updateCapabilities()
{
    const LoadTesterCapabilities caps = m_controller->capabilities();
    m_header->setText(tr("<b>%1</b> · %2")
                          .arg(caps.kind.toHtmlEscaped(),
                               Format::counted(m_controller->replicaCount(), tr("replica"), tr("replicas"))));
    const bool any = m_controller->replicaCount() > 0;
    auto enable = [any](QWidget *widget, bool can, const QString &why) {
        widget->setEnabled(any && can);
        if (!can)
            widget->setToolTip(why);
    };
    m_rate->setSuffix(caps.rateUnit.isEmpty() ? QString() : QLatin1Char(' ') + caps.rateUnit);
    m_rate->setDecimals(caps.rateUnit == QLatin1String("/s") ? 1 : 0);
    enable(m_rate, caps.canSetRate, caps.rateUnavailable);
    enable(m_applyRate, caps.canSetRate, caps.rateUnavailable);
    for (QPushButton *button : m_stepButtons)
        enable(button, caps.canSetRate, caps.rateUnavailable);
    enable(m_limit, caps.canSetInflightLimit, caps.inflightLimitUnavailable);
    enable(m_applyLimit, caps.canSetInflightLimit, caps.inflightLimitUnavailable);
    for (QPushButton *button : m_limitStepButtons)
        enable(button, caps.canSetInflightLimit, caps.inflightLimitUnavailable);
    enable(m_pause, caps.canPause, caps.pauseUnavailable);
    m_findCeiling->setEnabled(any && caps.canSetRate && m_ceilingSearchAllowed);
    m_findCeiling->setToolTip(!caps.canSetRate          ? caps.rateUnavailable
                              : !m_ceilingSearchAllowed ? tr("A scenario is running: it steers the load")
                                                        : tr("Raise the rate in stairs until the system stops keeping "
                                                             "up, and draw the capacity curve"));
}

bool ControlPanel::isCeilingSearchOffered() const
{
    return m_findCeiling->isEnabled();
}

void ControlPanel::setCeilingSearchAllowed(bool allowed)
{
    m_ceilingSearchAllowed = allowed;
    updateCapabilities();
}

void ControlPanel::requestCeilingSearch(const CeilingSearchPlan &plan)
{
    m_ceilingPlan = plan; // the next search starts from what was asked last
    emit ceilingSearchRequested(plan);
}

std::optional<LoadTesterStatus> ControlPanel::firstStatus() const
{
    for (int i = 0; i < m_controller->replicaCount(); ++i) {
        if (auto status = m_controller->status(i))
            return status;
    }
    return std::nullopt;
}

void ControlPanel::showStatus()
{
    const LoadTesterCapabilities caps = m_controller->capabilities();
    QStringList rows;
    for (int i = 0; i < m_controller->replicaCount(); ++i) {
        const auto status = m_controller->status(i);
        if (!status) {
            const auto error = m_controller->statusError(i);
            rows << QStringLiteral("<span style='color:%1'>✖ %2</span>")
                        .arg(UiTheme::css(UiTheme::instance()->colors().error),
                             (error ? error->message : tr("no status yet")).toHtmlEscaped());
            continue;
        }
        rows << tr("%1: %2 <b>%3%4</b> · limit %5 · in flight %6 · pending %7 · <b>%8</b>")
                    .arg(status->instance.toHtmlEscaped(), caps.rateLabel)
                    .arg(status->rate, 0, 'g', 6)
                    .arg(caps.rateUnit, limitText(status->inflightLimit), optionalNumber(status->inflight),
                         optionalNumber(status->pending),
                         status->paused ? tr("paused") : (status->state.isEmpty() ? tr("running") : status->state));
        // Running is not sending: seed 000's starter stayed "running" after it stopped sending.
        if (const auto silent = m_watch ? m_watch->silentForMs(i) : std::nullopt)
            rows.last() += QStringLiteral(" · <b style='color:%1'>⚠ %2</b>")
                               .arg(UiTheme::css(UiTheme::instance()->colors().error),
                                    tr("sent nothing for %1").arg(Format::duration(*silent)));
    }
    m_status->setText(rows.join(QStringLiteral("<br>")));
    if (const auto status = firstStatus()) {
        // A field shows the value in force, whoever changed it, unless the user is typing
        // in it: then the new value is shown beside it, and Enter asks (applyTyped…).
        const QString elsewhere = tr("Now %1, changed while you typed; Enter asks before setting yours.");
        // While a question about a typed value is open (m_asking), the field keeps it.
        if (!m_asking && (!m_rate->hasFocus() || !m_userEditedRate))
            followRate(status->rate);
        else if (m_rateEditedFrom && status->rate != *m_rateEditedFrom) {
            m_rateElsewhere->setText(elsewhere.arg(Format::number(status->rate) + m_rate->suffix()));
            m_rateElsewhere->show();
        }
        if (status->inflightLimit) {
            if (!m_asking && (!m_limit->hasFocus() || !m_userEditedLimit))
                followLimit(*status->inflightLimit);
            else if (m_limitEditedFrom && *status->inflightLimit != *m_limitEditedFrom) {
                m_limitElsewhere->setText(elsewhere.arg(limitText(status->inflightLimit)));
                m_limitElsewhere->show();
            }
        }
        m_pause->setText(status->paused ? tr("Resume load") : tr("Pause load"));
    }
}

QString ControlPanel::statusText() const
{
    return m_status->text();
}

QString ControlPanel::resultText() const
{
    return m_result->text();
}

bool ControlPanel::confirm(const QString &question)
{
    // While the question is open the fields keep what was typed: the status polls go on, and
    // a field showing the old value again would leave the user asked about a value they no
    // longer see.
    m_asking = true;
    const bool yes = m_confirm(question);
    m_asking = false;
    return yes;
}

void ControlPanel::request(const LoadTesterAction &action, double from, bool unlimitedIsZero)
{
    const bool isRate = action.kind == LoadTesterAction::Kind::SetRate;
    if (const auto reason =
            SteeringPolicy::confirmationReason(isRate ? tr("rate") : tr("in-flight limit"), from, action.value,
                                               unlimitedIsZero, isRate ? m_rate->suffix() : QString());
        reason && action.kind != LoadTesterAction::Kind::Pause && action.kind != LoadTesterAction::Kind::Resume) {
        if (!confirm(*reason)) {
            m_result->setText(tr("Not applied: cancelled."));
            // The field shows the value in force again, now that the answer is no.
            if (const auto status = firstStatus()) {
                if (isRate)
                    followRate(status->rate);
                else if (status->inflightLimit)
                    followLimit(*status->inflightLimit);
            }
            return;
        }
    }
    if (!m_controller->apply(action)) {
        m_result->setText(tr("Not applied: the previous change is still being applied."));
        return;
    }
    emit actionRequested(action);
}

void ControlPanel::applyRate(double rate)
{
    const auto status = firstStatus();
    request({LoadTesterAction::Kind::SetRate, rate}, status ? status->rate : 0, false);
}

void ControlPanel::noteRateEdit()
{
    if (m_userEditedRate)
        return;
    m_userEditedRate = true;
    const auto status = firstStatus();
    m_rateEditedFrom = status ? std::optional<double>(status->rate) : std::nullopt;
}

void ControlPanel::noteLimitEdit()
{
    if (m_userEditedLimit)
        return;
    m_userEditedLimit = true;
    const auto status = firstStatus();
    m_limitEditedFrom = status ? status->inflightLimit : std::nullopt;
}

void ControlPanel::followRate(double rate)
{
    const QSignalBlocker block(m_rate);
    m_rate->setValue(rate);
    m_userEditedRate = false;
    m_rateElsewhere->hide();
}

void ControlPanel::followLimit(int limit)
{
    const QSignalBlocker block(m_limit);
    m_limit->setValue(limit);
    m_userEditedLimit = false;
    m_limitElsewhere->hide();
}

void ControlPanel::applyTypedRate()
{
    const double typed = m_rate->value();
    const auto status = firstStatus();
    if (m_userEditedRate && m_rateEditedFrom && status && status->rate != *m_rateEditedFrom) {
        const QString now = Format::number(status->rate) + m_rate->suffix();
        if (!confirm(tr("The rate changed from %1 to %2 while you were typing. Set it to %3?")
                         .arg(Format::number(*m_rateEditedFrom) + m_rate->suffix(), now,
                              Format::number(typed) + m_rate->suffix()))) {
            m_result->setText(tr("Not applied: the rate stays %1.").arg(now));
            followRate(status->rate);
            return;
        }
    }
    m_userEditedRate = false;
    m_rateElsewhere->hide();
    applyRate(typed);
}

void ControlPanel::applyTypedLimit()
{
    const int typed = m_limit->value();
    const auto status = firstStatus();
    if (m_userEditedLimit && m_limitEditedFrom && status && status->inflightLimit &&
        *status->inflightLimit != *m_limitEditedFrom) {
        const QString now = limitText(status->inflightLimit);
        if (!confirm(tr("The in-flight limit changed from %1 to %2 while you were typing. Set it to %3?")
                         .arg(limitText(m_limitEditedFrom), now, limitText(typed)))) {
            m_result->setText(tr("Not applied: the in-flight limit stays %1.").arg(now));
            followLimit(*status->inflightLimit);
            return;
        }
    }
    m_userEditedLimit = false;
    m_limitElsewhere->hide();
    applyInflightLimit(typed);
}

void ControlPanel::applyInflightLimit(int limit)
{
    const auto status = firstStatus();
    request({LoadTesterAction::Kind::SetInflightLimit, double(limit)},
            status && status->inflightLimit ? *status->inflightLimit : 0, true);
}

void ControlPanel::stepRate(int step)
{
    const auto status = firstStatus();
    if (!status) {
        m_result->setText(tr("Not applied: the load tester's current rate is not known yet."));
        return;
    }
    const bool whole = m_controller->capabilities().rateUnit != QLatin1String("/s");
    applyRate(SteeringPolicy::stepped(status->rate, SteeringPolicy::Step(step), whole));
}

void ControlPanel::stepInflightLimit(int step)
{
    const auto status = firstStatus();
    if (!status || !status->inflightLimit) {
        m_result->setText(tr("Not applied: the load tester's current in-flight limit is not known yet."));
        return;
    }
    const auto next = SteeringPolicy::steppedLimit(*status->inflightLimit, SteeringPolicy::Step(step));
    if (!next) {
        m_result->setText(tr("Not applied: there is no limit to step from; type one and press Enter."));
        return;
    }
    if (*next == *status->inflightLimit) {
        m_result->setText(tr("Not applied: the in-flight limit is already %1, the lowest a step goes.").arg(*next));
        return;
    }
    applyInflightLimit(*next);
}

void ControlPanel::togglePause()
{
    const auto status = firstStatus();
    const bool paused = status && status->paused;
    request({paused ? LoadTesterAction::Kind::Resume : LoadTesterAction::Kind::Pause, 0}, 0, false);
}

void ControlPanel::showReport(const ActionReport &report)
{
    const LoadTesterCapabilities caps = m_controller->capabilities();
    QStringList lines;
    const bool ok = report.allConfirmed();
    lines << QStringLiteral("<b style='color:%1'>%2</b>")
                 .arg(UiTheme::css(ok ? UiTheme::instance()->colors().ok : UiTheme::instance()->colors().error),
                      report.summary(caps).toHtmlEscaped());
    for (const ReplicaOutcome &outcome : report.replicas) {
        const QString who =
            (outcome.instance.isEmpty() ? outcome.endpoint.toDisplayString() : outcome.instance).toHtmlEscaped();
        if (outcome.error) {
            QString text = outcome.error->message;
            if (!outcome.error->detail.isEmpty() && !text.contains(outcome.error->detail))
                text += QStringLiteral(" — ") + outcome.error->detail;
            lines << QStringLiteral("✖ %1: %2").arg(who, text.toHtmlEscaped());
        } else if (!outcome.confirmed) {
            lines << QStringLiteral("⚠ %1: answered, but reads back %2").arg(who, outcome.mismatch.toHtmlEscaped());
        } else {
            lines << QStringLiteral("✔ %1: confirmed").arg(who);
        }
    }
    m_result->setText(lines.join(QStringLiteral("<br>")));
    showStatus();
}
