// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QFont>
#include <QList>
#include <QRectF>
#include <QString>

class QPainter;

// The hover read-out: a small box next to the mouse that lists, at the crosshair's instant,
// every series of a panel with its colour, name, value (in the panel's unit) and the time of
// the sample the value comes from. The chart fills the rows; this measures and paints them.
class SeriesReadout
{
public:
    struct Row
    {
        QColor color;
        QString name;
        QString value; // formatted; "–" when the series has no sample near the instant
        QString time;  // of the sample, hh:mm:ss; empty with no sample
    };

    SeriesReadout(QString title, QList<Row> rows, const QFont &font);

    const QString &title() const { return m_title; }
    const QList<Row> &rows() const { return m_rows; }

    QSizeF size() const;
    // Where the box goes for a mouse at `anchor`: right of and below it, flipped to the other
    // side where it would leave `bounds`, and kept inside them.
    QRectF placeAt(const QPointF &anchor, const QRectF &bounds) const;
    void paint(QPainter *painter, const QRectF &box) const;

private:
    double nameWidth() const;
    double valueWidth() const;
    double timeWidth() const;

    QString m_title;
    QList<Row> m_rows;
    QFont m_font;
    QFont m_titleFont;
};
