// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/format.h"

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

// The big numbers of a stat panel: the newest value of each series, in its threshold colour,
// with the series' name under it. Painted rather than made of labels, so that the numbers
// grow and shrink with the tile and several series share it evenly.
class StatValues : public QWidget
{
    Q_OBJECT
public:
    struct Value
    {
        QString name;
        QString text;   // "1.23k ops/s"; "–" without a value
        QString number; // "1.23k", written big; empty: `text` is
        QString unit;   // "ops/s", written smaller beside it
        QColor color;   // invalid: the theme's text colour
        bool operator==(const Value &) const = default;
    };

    explicit StatValues(QWidget *parent = nullptr);

    void setValues(std::vector<Value> values);
    const std::vector<Value> &values() const { return m_values; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<Value> m_values;
};
