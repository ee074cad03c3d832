// SPDX-License-Identifier: GPL-3.0-or-later
#include "exploring/exploredock.h"

#include "explore/promqlcompletion.h"
#include "exploring/querybar.h"
#include "panels/dashboardview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

ExploreDock::ExploreDock(MetadataCatalog *catalog, DashboardView *preview, QWidget *parent)
    : QDockWidget(tr("Explore"), parent), m_query(new QueryBar(catalog)), m_error(new QLabel),
      m_history(new QToolButton), m_historyMenu(new QMenu(this)), m_add(new QToolButton), m_addMenu(new QMenu(this))
{
    setObjectName(QStringLiteral("exploreDock"));
    auto *run = new QPushButton(tr("&Run"));
    run->setToolTip(tr("Draw the query below, on the dashboard's time axis (Enter)"));
    connect(run, &QPushButton::clicked, this, [this] {
        if (!m_query->text().trimmed().isEmpty())
            emit runRequested(m_query->text().trimmed());
    });
    connect(m_query, &QueryBar::submitted, this, &ExploreDock::runRequested);
    m_history->setText(tr("History"));
    m_history->setToolTip(tr("Queries typed before against this Prometheus"));
    m_history->setPopupMode(QToolButton::InstantPopup);
    m_history->setMenu(m_historyMenu);
    m_add->setText(tr("&Add to panel"));
    m_add->setToolTip(tr("Put the query into a panel of the dashboard, or a new one (undo with Ctrl+Z)"));
    m_add->setPopupMode(QToolButton::InstantPopup);
    m_add->setMenu(m_addMenu);
    connect(m_addMenu, &QMenu::aboutToShow, this, &ExploreDock::fillAddMenu);

    auto *row = new QHBoxLayout;
    row->addWidget(m_query, 1);
    row->addWidget(m_history);
    row->addWidget(run);
    row->addWidget(m_add);
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::RichText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();

    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(row);
    layout->addWidget(m_error);
    layout->addWidget(preview, 1);
    setWidget(content);
    setHistory({});
}

void ExploreDock::setPanels(const QStringList &titles)
{
    m_panels = titles;
}

void ExploreDock::fillAddMenu()
{
    m_addMenu->clear();
    const QString query = m_query->text().trimmed();
    QAction *fresh = m_addMenu->addAction(tr("A new panel"));
    fresh->setEnabled(!query.isEmpty());
    connect(fresh, &QAction::triggered, this, [this, query] { emit addRequested(query, -1); });
    if (!m_panels.isEmpty())
        m_addMenu->addSeparator();
    for (int i = 0; i < int(m_panels.size()); ++i) {
        QAction *into = m_addMenu->addAction(m_panels[i].isEmpty() ? tr("Panel %1").arg(i + 1) : m_panels[i]);
        into->setEnabled(!query.isEmpty());
        connect(into, &QAction::triggered, this, [this, query, i] { emit addRequested(query, i); });
    }
}

void ExploreDock::setHistory(const QStringList &queries)
{
    m_historyMenu->clear();
    for (const QString &query : queries) {
        QAction *entry = m_historyMenu->addAction(query.size() > 90 ? query.left(89) + QChar(0x2026) : query);
        entry->setToolTip(query);
        connect(entry, &QAction::triggered, this, [this, query] {
            m_query->setText(query);
            emit runRequested(query);
        });
    }
    m_history->setEnabled(!queries.isEmpty());
}

void ExploreDock::showError(const QString &message)
{
    if (message.isEmpty()) {
        m_error->clear();
        m_error->hide();
        return;
    }
    // The query with a marker where Prometheus says the trouble is, then its words.
    QString text = message.toHtmlEscaped();
    const QString query = m_query->text();
    if (const std::optional<int> at = PromqlCompletion::errorPosition(query, message)) {
        const QString marked =
            query.left(*at).toHtmlEscaped() +
            QStringLiteral("<span style='background:#D62728;color:white'>%1</span>")
                .arg(*at < query.size() ? query.mid(*at, 1).toHtmlEscaped() : QStringLiteral("&nbsp;")) +
            query.mid(*at + 1).toHtmlEscaped();
        text = QStringLiteral("<code>%1</code><br>%2").arg(marked, text);
    }
    m_error->setText(QStringLiteral("<span style='color:#B03A00'>%1</span>").arg(text));
    m_error->show();
}

QString ExploreDock::errorText() const
{
    return m_error->isVisible() ? m_error->text() : QString();
}

void ExploreDock::focusQuery()
{
    show();
    raise();
    m_query->setFocus();
    m_query->selectAll();
}
