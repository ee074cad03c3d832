// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/historyprogress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

HistoryProgress::HistoryProgress(QWidget *parent)
    : QWidget(parent), m_text(new QLabel(this)), m_bar(new QProgressBar(this)), m_cancel(new QToolButton(this))
{
    setObjectName(QStringLiteral("historyProgress"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    m_text->setObjectName(QStringLiteral("historyText"));
    // The percentage is in the words: a style that prints the bar's text over the bar (or
    // beside it, on some) cannot make the two collide.
    m_bar->setTextVisible(false);
    m_bar->setFixedWidth(120);
    m_bar->setMaximumHeight(12);
    m_bar->setToolTip(
        tr("History requests answered of those planned: the coarse picture comes first, the detail after."));
    m_cancel->setObjectName(QStringLiteral("cancelHistory"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(
        tr("Stop loading the history's detail; the picture drawn so far stays and live polling goes on."));
    m_cancel->setAutoRaise(true);
    layout->addWidget(m_text);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &HistoryProgress::cancelRequested);
    hide();
}

void HistoryProgress::setProgress(int done, int total)
{
    m_done = done;
    m_total = total;
    m_loading = total > 0 && done < total;
    update();
}

void HistoryProgress::setSourceReachable(bool reachable)
{
    m_reachable = reachable;
    update();
}

QString HistoryProgress::text() const
{
    return m_text->text();
}

void HistoryProgress::update()
{
    setVisible(m_loading);
    if (!m_loading)
        return;
    m_bar->setRange(0, qMax(1, m_total));
    m_bar->setValue(m_done);
    const int percent = int(100.0 * m_done / qMax(1, m_total));
    if (isStalled()) {
        m_text->setText(tr("History stalled at %1 %: Prometheus is not answering").arg(percent));
        m_text->setToolTip(tr("Loading goes on by itself when Prometheus answers again; Cancel keeps what is drawn."));
    } else {
        m_text->setText(tr("Loading history %1 %").arg(percent));
        m_text->setToolTip(QString());
    }
}
