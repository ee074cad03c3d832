// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "explore/promqlcompletion.h"

#include <QLineEdit>
#include <QStringList>

class MetadataCatalog;
class QCompleter;
class QStringListModel;

// The PromQL field of Explore: completes metric names and functions, label names, a label's
// values and the dashboard's variables where the cursor is (PromqlCompletion), from what the
// MetadataCatalog has asked Prometheus. The list follows typing; Tab or Enter take the chosen
// item, Escape closes it, Ctrl+Space opens it. Enter without a list runs the query.
class QueryBar : public QLineEdit
{
    Q_OBJECT
public:
    explicit QueryBar(MetadataCatalog *catalog, QWidget *parent = nullptr);

    // The items offered now (for tests), and whether the list is open.
    QStringList offered() const;
    bool isListOpen() const;

signals:
    void submitted(const QString &query);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override; // Tab takes an item, not the focus, while the list is open
    // The list's own keys, before QCompleter sees them: it lets Tab through to move the focus.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // What the cursor may complete now: asks the catalog for what is missing, shows the list.
    void offer(bool asked);
    void take(const QString &text);
    bool wanted() const; // whether the list should open for what is at the cursor

    MetadataCatalog *m_catalog;
    QCompleter *m_completer;
    QStringListModel *m_model;
    PromqlCompletion::Context m_context;
    std::vector<PromqlCompletion::Item> m_items;
    bool m_asked = false;      // Ctrl+Space: the list opens even without a prefix
    int m_closingQuoteAt = -1; // a completed label value's closing quote, until the next key
};
