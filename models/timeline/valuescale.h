// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A value axis: from low to high with a line every step. The screen (TimelineChart) and every
// export (FigurePainter) take theirs from here, with one tick rule, so a picture in a blog
// post shows the ticks the panel showed.
struct ValueScale
{
    double low = 0;
    double high = 1;
    double step = 0.25;

    // The ticks from low to high, both ends included.
    int count() const;
    // The i-th tick, counted in whole steps from zero: no error accumulates, and a scale
    // across zero has a tick at exactly 0.
    double tick(int i) const;
    bool operator==(const ValueScale &) const = default;

    // Round steps (1, 2, 2.5, 5 × 10^k), about targetTicks intervals from min to max. The
    // scale always includes zero: throughput and queue lengths read best from 0, and a
    // negative series (a balance, a drift) reads best up to 0. Flat data at 0 gets [0, 1].
    // No data (non-finite or max < min) is the scale of [0, 1].
    static ValueScale nice(double min, double max, int targetTicks);
    // How many intervals a plot of this height (px) gets: one about every 70 px, 2 to 6.
    static int targetTicksFor(double plotHeightPx);
};
