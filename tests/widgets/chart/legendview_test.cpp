// SPDX-License-Identifier: GPL-3.0-or-later
// The legend under a chart: values that change every second repaint it without laying the
// panel out again; each row's mark is drawn in its series' colour.
#include "chart/legendview.h"

#include <QApplication>
#include <QEvent>
#include <QImage>
#include <QVBoxLayout>
#include <gtest/gtest.h>

namespace {

LegendView::Row row(const QString &name, const QString &last, const QColor &color = QColor(0, 114, 178))
{
    LegendView::Row r;
    r.color = color;
    r.name = name;
    r.last = last;
    r.stats = QStringLiteral("min 1 ops/s  max 9 ops/s  mean 5 ops/s");
    return r;
}

// Counts the layout requests a widget receives: each one lays out the panel, the chart in it
// included.
class LayoutRequests : public QObject
{
public:
    int count = 0;

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::LayoutRequest)
            ++count;
        return false;
    }
};

bool hasColor(const QImage &image, const QColor &color)
{
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if (image.pixelColor(x, y) == color)
                return true;
        }
    }
    return false;
}

} // namespace

TEST(LegendView, ANewValueRepaintsWithoutLayingOutThePanel)
{
    QWidget panel;
    auto *layout = new QVBoxLayout(&panel);
    auto *legend = new LegendView;
    layout->addWidget(legend);
    legend->setRows({row(QStringLiteral("started"), QStringLiteral("140 ops/s")),
                     row(QStringLiteral("completed"), QStringLiteral("120 ops/s"))});
    panel.show();
    QApplication::processEvents();
    LayoutRequests requests;
    panel.installEventFilter(&requests);

    legend->setRows({row(QStringLiteral("started"), QStringLiteral("141 ops/s")),
                     row(QStringLiteral("completed"), QStringLiteral("119 ops/s"))});
    QApplication::processEvents();
    EXPECT_EQ(requests.count, 0) << "a new value laid the panel out again";
    EXPECT_EQ(legend->rows()[0].last, QStringLiteral("141 ops/s"));

    // A third series needs a row more: then the panel is laid out.
    legend->setRows({row(QStringLiteral("started"), QStringLiteral("141 ops/s")),
                     row(QStringLiteral("completed"), QStringLiteral("119 ops/s")),
                     row(QStringLiteral("rejected"), QStringLiteral("3 ops/s"))});
    QApplication::processEvents();
    EXPECT_GE(requests.count, 1);
}

TEST(LegendView, RowsReservedForThePanelsQueriesKeepItsHeightWhenTheyArrive)
{
    LegendView legend;
    legend.setReservedRows(3);
    const int reservedHeight = legend.sizeHint().height();
    EXPECT_GT(reservedHeight, 0);
    legend.setRows({row(QStringLiteral("a"), QStringLiteral("1")), row(QStringLiteral("b"), QStringLiteral("2")),
                    row(QStringLiteral("c"), QStringLiteral("3"))});
    EXPECT_EQ(legend.sizeHint().height(), reservedHeight);
    legend.setRows({row(QStringLiteral("a"), QStringLiteral("1")), row(QStringLiteral("b"), QStringLiteral("2")),
                    row(QStringLiteral("c"), QStringLiteral("3")), row(QStringLiteral("d"), QStringLiteral("4"))});
    EXPECT_GT(legend.sizeHint().height(), reservedHeight);
}

TEST(LegendView, EachRowShowsItsMarkInItsSeriesColour)
{
    const QColor orange(230, 159, 0);
    const QColor blue(0, 114, 178);
    LegendView legend;
    legend.setRows({row(QStringLiteral("started"), QStringLiteral("1.72M"), orange)});
    legend.resize(400, legend.sizeHint().height());
    QImage image = legend.grab().toImage();
    EXPECT_TRUE(hasColor(image, orange)) << "the row's mark is not in the series colour";
    EXPECT_FALSE(hasColor(image, blue));
    legend.setRows({row(QStringLiteral("started"), QStringLiteral("1.72M"), blue)});
    image = legend.grab().toImage();
    EXPECT_TRUE(hasColor(image, blue)) << "a new colour (a theme change) is not shown";
}
