// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

// The legend under a chart: one row per series with its mark in the series colour (a square;
// dashed for a derived series), its name, how the checks on it fared (green or red), and
// last / min / max / mean over the visible range, the last value in bold. A row too long for the width is cut with an
// ellipsis.
//
// Painted directly instead of being a rich-text label: the values change every second, and
// a label parsed and laid out its text again and asked the whole panel for a new layout on
// each change (a quarter of the app's idle CPU, and most of the longest pause while a day's
// history loads). Here a new value is a repaint; the height changes with the number of rows
// only. A click on a row is said (rowClicked): the panel decides what it means.
class LegendView : public QWidget
{
    Q_OBJECT
public:
    struct Row
    {
        QColor color;
        bool dashed = false; // a derived series: computed, drawn dashed
        QString name;
        QString last;  // the newest value, formatted; empty when the series has none yet
        QString stats; // "min … max … mean …", formatted
        QString check; // how the checks on this series fared: "✓ ≤ 0", "✗ 5.2k at 11:03:10"
        bool checkFailed = false;
        bool checkJudged = true; // false: no sample it applies to (drawn muted)
        // What the axis does with the series, not a verdict: "↓ -30.2 ops/s below the axis".
        // Drawn muted, after the checks: green or red would read as a check.
        QString note;
        bool hidden = false; // the user hid the series: the row is drawn muted
        bool operator==(const Row &) const = default;
    };

    explicit LegendView(QWidget *parent = nullptr);

    void setRows(std::vector<Row> rows);
    const std::vector<Row> &rows() const { return m_rows; }
    // Room kept for this many rows before they arrive (a panel's queries), so that the
    // first data does not shrink the chart above and lay the panel out again.
    void setReservedRows(int rows);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // A row was clicked (with these keys held): the panel shows only that series, or hides it.
    void rowClicked(int row, Qt::KeyboardModifiers modifiers);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    int rowHeight() const;
    int shownRows() const;

    std::vector<Row> m_rows;
    int m_reservedRows = 0;
};
