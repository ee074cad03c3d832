#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a Chaos Day as OpenMetrics text for `promtool tsdb create-blocks-from openmetrics`.

40 gauges chaos_bench{series="00".."39"}, one sample a second for 8 hours ending at --end:
a level per series that wanders, noise, and now and then a one-scrape spike, the same shape
as bench/benchdata.h. Also writes the recording rules that continue the same series live
(one sample a second), so the dashboard keeps polling a day that goes on.

usage: make_history.py --out day.om --rules rules.yml [--end UNIX_SECONDS] [--hours 8]
"""
import argparse
import math
import random
import time


def write_history(path, metric, series, end, seconds):
    start = end - seconds + 1
    with open(path, "w", buffering=1 << 20) as out:
        out.write(f"# HELP {metric} Synthetic load-test series for the Chaoscope benchmarks.\n")
        out.write(f"# TYPE {metric} gauge\n")
        for s in range(series):
            rnd = random.Random(0x5EED + s)
            gauss = rnd.gauss
            level = 100.0 + 25.0 * s
            walk = 0.0
            name = f'{metric}{{series="{s:02d}"}} '
            lines = []
            for i in range(seconds):
                walk = 0.999 * walk + 0.6 * gauss(0.0, 1.0)
                v = level + 8.0 * walk + 2.0 * gauss(0.0, 1.0) + 10.0 * math.sin(i / 900.0 + s)
                if rnd.randrange(10000) == 0:
                    v += 60.0
                lines.append(f"{name}{v:.3f} {start + i}\n")
            out.write("".join(lines))
        out.write("# EOF\n")


def write_rules(path, metric, series):
    with open(path, "w") as out:
        out.write("groups:\n  - name: chaos_bench_live\n    interval: 1s\n    rules:\n")
        for s in range(series):
            level = 100.0 + 25.0 * s
            out.write(f"      - record: {metric}\n")
            out.write(f"        expr: {level} + 10 * sin(vector(time()) / 900 + {s})\n")
            out.write(f'        labels:\n          series: "{s:02d}"\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--rules")
    parser.add_argument("--metric", default="chaos_bench")
    parser.add_argument("--series", type=int, default=40)
    parser.add_argument("--hours", type=float, default=8.0)
    parser.add_argument("--end", type=int, default=int(time.time()) - 1)
    args = parser.parse_args()
    write_history(args.out, args.metric, args.series, args.end, int(args.hours * 3600))
    if args.rules:
        write_rules(args.rules, args.metric, args.series)


if __name__ == "__main__":
    main()
