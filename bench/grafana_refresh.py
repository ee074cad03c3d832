#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""EMULATES Grafana's refresh pattern for a dashboard's queries -- it is not Grafana, and it
draws nothing; it asks the server what a Grafana viewer of the same dashboard would ask.

What Grafana documents and does for a Prometheus data source on a time-series panel:
  - every refresh re-runs every query of every panel as one query_range over the whole
    window ("Last 1 hour" at a 5 s refresh asks for the whole hour every 5 s);
  - the step is the panel's interval: window / max data points (the panel's width in
    pixels), at least the data source's scrape interval, rounded to a "nice" interval by
    rangeutil.roundInterval, and at most 11,000 points per series;
  - start and end are aligned down to a multiple of the step;
  - the queries of a refresh go out together (a browser keeps about 6 connections per host).

It reads a Chaoscope dashboard (the same JSON the app opens), replaces $variables, and asks
with stats=all so the server reports the samples each query loaded. At the end it prints one
JSON line: refreshes, requests, samples, bytes received and the time the answers took.

usage: grafana_refresh.py --prometheus URL --dashboard FILE --window 1h --refresh 5s
                          --seconds 60 [--width 650] [--var namespace=default]
"""
import argparse
import concurrent.futures
import json
import math
import time
import urllib.parse
import urllib.request

# rangeutil.roundInterval: an interval in ms is rounded to the first "nice" value whose
# threshold it is below.
NICE_INTERVALS_MS = (
    (15, 10), (35, 20), (75, 50), (150, 100), (350, 200), (750, 500), (1500, 1000),
    (3500, 2000), (7500, 5000), (12500, 10000), (17500, 15000), (25000, 20000),
    (45000, 30000), (90000, 60000), (210000, 120000), (450000, 300000), (750000, 600000),
    (1050000, 900000), (1500000, 1200000), (2700000, 1800000), (5400000, 3600000),
    (9000000, 7200000), (16200000, 10800000), (32400000, 21600000), (86400000, 43200000))
MAX_POINTS_PER_SERIES = 11000
BROWSER_CONNECTIONS = 6


def seconds_of(text):
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    return float(text[:-1]) * units[text[-1]]


def round_interval_ms(interval_ms):
    for below, nice in NICE_INTERVALS_MS:
        if interval_ms < below:
            return nice
    return 604800000  # a week


def grafana_step_s(window_s, width_px, scrape_s):
    interval_ms = max(window_s * 1000.0 / width_px, scrape_s * 1000.0)
    step = round_interval_ms(interval_ms) / 1000.0
    return max(step, math.ceil(window_s / MAX_POINTS_PER_SERIES))


def queries_of(dashboard, variables):
    out = []
    for panel in dashboard.get("panels", []):
        for series in panel.get("series", []):
            query = series.get("query")
            if query:
                for name, value in variables.items():
                    query = query.replace(f"${name}", value)
                out.append(query)
    return out


def ask(base, query, start, end, step):
    params = urllib.parse.urlencode({"query": query, "start": start, "end": end, "step": step,
                                     "stats": "all"})
    t = time.monotonic()
    with urllib.request.urlopen(base + "api/v1/query_range?" + params, timeout=60) as reply:
        body = reply.read()
    answer = json.loads(body)
    samples = answer.get("data", {}).get("stats", {}).get("samples", {}).get("totalQueryableSamples")
    return len(body), samples, time.monotonic() - t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--window", default="1h")
    parser.add_argument("--refresh", default="5s")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--width", type=int, default=650, help="panel width in px: max data points")
    parser.add_argument("--scrape", default="1s", help="the data source's scrape interval")
    parser.add_argument("--var", action="append", default=[], help="NAME=VALUE for $NAME")
    args = parser.parse_args()
    base = args.prometheus.rstrip("/") + "/"
    with open(args.dashboard) as f:
        dashboard = json.load(f)
    variables = {k: v["default"] for k, v in dashboard.get("variables", {}).items()
                 if isinstance(v, dict) and "default" in v}
    variables.update(dict(pair.split("=", 1) for pair in args.var))
    queries = queries_of(dashboard, variables)
    window = seconds_of(args.window)
    refresh = seconds_of(args.refresh)
    step = grafana_step_s(window, args.width, seconds_of(args.scrape))

    totals = {"refreshes": 0, "requests": 0, "samples": 0, "bytes": 0, "answer_seconds": 0.0,
              "samples_reported": True, "step_s": step, "queries": len(queries)}
    began = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(BROWSER_CONNECTIONS) as pool:
        next_refresh = began
        while time.monotonic() - began < args.seconds:
            now = time.time()
            end = math.floor(now / step) * step
            start = math.floor((now - window) / step) * step
            for size, samples, seconds in pool.map(lambda q: ask(base, q, start, end, step), queries):
                totals["requests"] += 1
                totals["bytes"] += size
                totals["answer_seconds"] += seconds
                if samples is None:
                    totals["samples_reported"] = False
                else:
                    totals["samples"] += samples
            totals["refreshes"] += 1
            next_refresh += refresh
            time.sleep(max(0.0, next_refresh - time.monotonic()))
    totals["elapsed_s"] = round(time.monotonic() - began, 2)
    print(json.dumps(totals), flush=True)


if __name__ == "__main__":
    main()
