#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Soak: the dashboard against the testbed under overload for a long run, its memory and CPU
sampled every 10 s into a CSV.

Starts the demo stack (engine, starter, a real Prometheus) with testbed/demo-stack --no-app,
pushes the starter into overload (400 requests/s against an engine good for about 200/s),
and runs Chaoscope offscreen on a dashboard of 40 series refreshed every second. Every 10 s
it records the app's resident memory (VmRSS) and the CPU it used since the last sample. At
the end it prints the curve's summary: RSS should level off once the live window and the
store's retention are full, not keep climbing.

    bench/soak.py --build build/release --minutes 30 --csv docs/soak.csv
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The testbed dashboard's queries, each twice (over a 10 s and a 30 s rate window): 40 series.
QUERIES = [
    "sum(rate(starter_requests_sent_total[{w}]))",
    "sum(rate(engine_requests_total{{outcome=\"accepted\"}}[{w}]))",
    "sum(rate(engine_process_instances_completed_total[{w}]))",
    "sum(rate(starter_requests_received_total{{outcome=\"success\"}}[{w}]))",
    "sum(starter_rate) + 0 * sum(rate(starter_requests_sent_total[{w}]))",
    "sum(http_client_pool_leased) + 0 * sum(rate(starter_requests_sent_total[{w}]))",
    "sum(http_client_pool_available) + 0 * sum(rate(starter_requests_sent_total[{w}]))",
    "sum(http_client_pool_max) + 0 * sum(rate(starter_requests_sent_total[{w}]))",
    "sum(http_client_pool_pending) + 0 * sum(rate(starter_requests_sent_total[{w}]))",
    "sum(starter_requests_inflight) + 0 * sum(rate(starter_requests_sent_total[{w}]))",
    "sum(rate(starter_requests_skipped_total[{w}]))",
    "sum(rate(http_client_request_seconds_count[{w}]))",
    "sum(rate(engine_requests_total{{outcome=\"rejected\"}}[{w}]))",
    "sum(rate(starter_requests_received_total{{outcome=\"failure\"}}[{w}]))",
    "histogram_quantile(0.5, sum by (le) (rate(http_client_request_seconds_bucket[{w}])))",
    "histogram_quantile(0.99, sum by (le) (rate(http_client_request_seconds_bucket[{w}])))",
    "sum(engine_queue_length) + 0 * sum(rate(starter_requests_sent_total[{w}]))",
    "sum(engine_exporter_backlog_records) + 0 * sum(rate(starter_requests_sent_total[{w}]))",
    "sum(rate(engine_records_exported_total[{w}]))",
    "sum(rate(http_client_request_seconds_sum[{w}]))",
]


def dashboard():
    series = [{"query": q.format(w=w), "legend": f"{i} {w}"}
              for w in ("10s", "30s") for i, q in enumerate(QUERIES)]
    panels = [{"title": f"panel {p + 1}", "series": series[p * 5:(p + 1) * 5]} for p in range(8)]
    return {"title": "Soak: 40 series", "refresh": "1s", "window": "15m", "columns": 2,
            "panels": panels}


def wait_for_line(process, pattern, timeout_s):
    deadline = time.monotonic() + timeout_s
    lines = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                break
            continue
        lines.append(line)
        if re.search(pattern, line):
            return lines
    sys.exit("demo-stack did not get ready:\n" + "".join(lines))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    # utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build/release"))
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--interval", type=float, default=10, help="seconds between samples")
    parser.add_argument("--rate", type=float, default=400, help="starter rate (overload)")
    parser.add_argument("--csv", default=None, help="default: out/soak-<time>.csv")
    parser.add_argument("--window", default="5m", help="the live window")
    parser.add_argument("--retention", default="5m",
                        help="history kept in memory; short, so the store wraps several times")
    args = parser.parse_args()

    app = os.path.join(args.build, "app/chaoscope")
    if not os.access(app, os.X_OK):
        sys.exit(f"{app} is missing: build the chaoscope target first (./dev build)")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out_dir = os.path.join(ROOT, "out", f"soak-{stamp}")
    os.makedirs(out_dir, exist_ok=True)
    csv_path = args.csv or os.path.join(ROOT, "out", f"soak-{stamp}.csv")

    stack = subprocess.Popen([os.path.join(ROOT, "testbed/demo-stack"), "--build", args.build,
                              "--out", out_dir, "--no-app"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
    app_process = None
    try:
        lines = "".join(wait_for_line(stack, r"demo-stack: ready", 120))
        prometheus = re.search(r"prometheus +(http://\S+?)/? ", lines).group(1)
        starter = re.search(r"starter +(http://\S+?)/? ", lines).group(1)
        request = urllib.request.Request(f"{starter}/admin/rate", method="PUT",
                                         data=json.dumps({"rate": args.rate}).encode(),
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()
        print(f"soak: starter at {args.rate:g}/s, prometheus {prometheus}", flush=True)

        dashboard_file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(dashboard(), dashboard_file)
        dashboard_file.close()
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        # Recorded like a real Chaos Day: memory is bounded by the retention, the session file
        # keeps everything (its size is the last column).
        session = os.path.join(out_dir, "soak.chaoscope")
        app_process = subprocess.Popen([app, "--prometheus", prometheus + "/", "--dashboard",
                                        dashboard_file.name, "--refresh", "1s", "--window", args.window,
                                        "--retention", args.retention, "--record", session],
                                       stdout=open(os.path.join(out_dir, "chaoscope.log"), "w"),
                                       stderr=subprocess.STDOUT, env=env)

        start = time.monotonic()
        last_cpu, last_time = cpu_seconds(app_process.pid), start
        rows = []
        with open(csv_path, "w") as csv:
            csv.write("elapsed_s,rss_mib,cpu_percent,session_mib\n")
            while time.monotonic() - start < args.minutes * 60:
                time.sleep(args.interval)  # a sampling period, not a wait for a condition
                if app_process.poll() is not None:
                    sys.exit(f"chaoscope exited with {app_process.returncode}; see {out_dir}")
                now, cpu = time.monotonic(), cpu_seconds(app_process.pid)
                session_mib = os.path.getsize(session) / 2**20 if os.path.exists(session) else 0.0
                row = (now - start, rss_kib(app_process.pid) / 1024,
                       100 * (cpu - last_cpu) / (now - last_time), session_mib)
                last_cpu, last_time = cpu, now
                rows.append(row)
                csv.write("%.0f,%.1f,%.1f,%.2f\n" % row)
                csv.flush()
                print("soak: %5.0f s  RSS %7.1f MiB  CPU %5.1f %%  session %6.2f MiB" % row, flush=True)

        half = rows[len(rows) // 2:]
        if len(half) >= 2:
            minutes = (half[-1][0] - half[0][0]) / 60
            slope = (half[-1][1] - half[0][1]) / minutes if minutes > 0 else 0
            print(f"soak: RSS {rows[0][1]:.1f} -> {rows[-1][1]:.1f} MiB, max {max(r[1] for r in rows):.1f}; "
                  f"second half {slope:+.2f} MiB/min; mean CPU {sum(r[2] for r in rows) / len(rows):.1f} %")
        print(f"soak: samples in {csv_path}")
    finally:
        if app_process and app_process.poll() is None:
            app_process.terminate()
            app_process.wait(timeout=30)
        os.killpg(stack.pid, signal.SIGTERM)
        stack.wait(timeout=60)


if __name__ == "__main__":
    main()
