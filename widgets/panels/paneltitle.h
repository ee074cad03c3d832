// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QLabel>
#include <QString>

// A panel's title in its header: bold, then its unit ("Throughput · ops/s"). When the header has
// no room for all of it, the title ends in "…" (the unit goes first): a QLabel cut it mid-word
// under the header's other text. The whole title is in the tooltip.
class PanelTitle : public QLabel
{
    Q_OBJECT
public:
    explicit PanelTitle(QWidget *parent = nullptr);

    void setTitle(const QString &title, const QString &unit, const QColor &unitColor);
    // The title as shown now, without markup ("Throughput: sent vs acc…").
    QString shownTitle() const { return m_shown; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void relayout();

    QString m_title;
    QString m_unit;
    QColor m_unitColor;
    QString m_shown;
};
