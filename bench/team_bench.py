#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Team scale: what N Chaoscope viewers cost one Prometheus, beside Grafana's refresh pattern.

One real server (Prometheus, or VictoriaMetrics with --server victoria-metrics) holds a
Camunda-shaped Chaos Day (bench/camunda_day.py: 8 h of history made into blocks by promtool,
or imported, and the same series live from a loopback exporter scraped every second). Then,
for each window (1 h, 8 h) and refresh (1 s, 5 s):

  refresh pattern  bench/grafana_refresh.py: the built-in camunda dashboard's queries asked
                   the way Grafana asks them (the whole window at every refresh, its step)
  Chaoscope x N    N = 1, 5, 10 instances of the app headless on the same dashboard

Measured from the server itself, over a steady stretch after the apps have loaded their
history (the opening is reported apart): its CPU seconds (/proc), the samples its queries
loaded (Prometheus' query log, whose entries carry stats; VictoriaMetrics'
vm_rows_read_per_query), the time its engine spent on queries, the requests and the bytes it
sent (prometheus_http_response_size_bytes). Per app: CPU and RSS from /proc. The server's
idle CPU (scraping, head compaction) is measured first and taken off.

usage: bench/team_bench.py --app build/bench/app/chaoscope [--quick]
                           [--server prometheus|victoria-metrics [--latency-offset 5s]] [--out DIR]
Prints the table and writes team.json / team.txt into --out.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_bench import (CLK_TCK, ROOT, free_port, fmt, http_get, proc_cpu_ticks,  # noqa: E402
                       proc_rss_kib, say, verdict)

DASHBOARD = os.path.join(ROOT, "resources", "dashboards", "camunda.json")
BENCH = os.path.dirname(os.path.abspath(__file__))
GRAFANA_WIDTH_PX = 650  # a half-width panel, as the app's own at 1600 px in two columns


def post(url, path):
    with open(path, "rb") as body:
        request = urllib.request.Request(url, data=body, method="POST")
        request.add_header("Content-Length", str(os.path.getsize(path)))
        with urllib.request.urlopen(request, timeout=600) as reply:
            return reply.status


def metrics_text(url):
    return http_get(url + "metrics", timeout=10)[1].decode()


def metric_sum(text, name, accept=lambda labels: True):
    """Sum of the samples of `name` whose label text `accept` takes."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name):
            head, _, value = line.rpartition(" ")
            metric, _, labels = head.partition("{")
            if metric == name and accept(labels):
                total += float(value)
    return total


def is_api(labels):
    return '"/api/v1/' in labels


class Server:
    """The server on a free loopback port with the day, scraping the live exporter."""

    def __init__(self, kind, work, hours, exporter_port, latency_offset=None):
        self.kind = kind
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.query_log = os.path.join(work, "queries.log")
        self.log = open(os.path.join(work, f"{kind}.log"), "w")
        scrape = (f"scrape_configs:\n  - job_name: camunda-bench\n    honor_labels: true\n"
                  f"    scrape_interval: 1s\n"
                  f"    static_configs:\n      - targets: ['127.0.0.1:{exporter_port}']\n")
        config = os.path.join(work, "scrape.yml")
        end = int(time.time()) - 1
        if kind == "prometheus":
            with open(config, "w") as f:
                f.write(f"global:\n  scrape_interval: 1s\n  query_log_file: {self.query_log}\n{scrape}")
            om = os.path.join(work, "day.om")
            data = os.path.join(work, "tsdb")
            subprocess.run([sys.executable, os.path.join(BENCH, "camunda_day.py"), "history",
                            "--out", om, "--hours", str(hours), "--end", str(end)], check=True)
            subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics", om, data],
                           check=True, stdout=subprocess.DEVNULL)
            os.remove(om)
            command = ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={data}",
                       f"--web.listen-address=127.0.0.1:{self.port}",
                       "--storage.tsdb.retention.time=30d", "--log.level=warn"]
        else:
            with open(config, "w") as f:
                f.write(scrape)
            command = ["victoria-metrics", f"-storageDataPath={os.path.join(work, 'vm')}",
                       f"-httpListenAddr=127.0.0.1:{self.port}", f"-promscrape.config={config}",
                       "-retentionPeriod=1y", "-loggerLevel=WARN"]
            if latency_offset:
                command.append(f"-search.latencyOffset={latency_offset}")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait(lambda: http_get(self.url + ("-/ready" if kind == "prometheus" else "health"))[0] == 200)
        if kind != "prometheus":
            text = os.path.join(work, "day.prom")
            subprocess.run([sys.executable, os.path.join(BENCH, "camunda_day.py"), "history",
                            "--out", text, "--hours", str(hours), "--end", str(end), "--millis"],
                           check=True)
            post(self.url + "api/v1/import/prometheus", text)
            os.remove(text)
            http_get(self.url + "internal/force_flush", timeout=60)
        # The day is there once the oldest hour answers and the live series come in.
        self._wait(lambda: self._has_day(end - int(hours * 3600) + 600))

    def _has_day(self, old):
        query = "count(zeebe_exporter_events_total)"
        status, body = http_get(f"{self.url}api/v1/query?query={query}&time={old}")
        old_ok = json.loads(body)["data"]["result"]
        status, body = http_get(f"{self.url}api/v1/query?query=count(zeebe_exporter_events_total)")
        return bool(old_ok) and bool(json.loads(body)["data"]["result"])

    def _wait(self, ready, seconds=120):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.process.poll() is not None:
                self.log.flush()
                with open(self.log.name) as log:
                    raise RuntimeError(f"{self.kind} exited:\n" + log.read()[-2000:])
            try:
                if ready():
                    return
            except (OSError, KeyError, ValueError):
                pass
            time.sleep(0.3)
        raise RuntimeError(f"{self.kind} at {self.url} did not become ready")

    def snapshot(self):
        """Cumulative counters; None where this server does not say."""
        text = metrics_text(self.url)
        snap = {"t": time.monotonic(), "cpu_s": proc_cpu_ticks(self.process.pid) / CLK_TCK}
        if self.kind == "prometheus":
            snap["requests"] = metric_sum(text, "prometheus_http_requests_total", is_api)
            snap["bytes"] = metric_sum(text, "prometheus_http_response_size_bytes_sum", is_api)
            snap["log_offset"] = os.path.getsize(self.query_log) if os.path.exists(self.query_log) else 0
        else:
            snap["requests"] = metric_sum(text, "vm_http_requests_total", is_api)
            snap["bytes"] = None
            snap["samples"] = metric_sum(text, "vm_rows_read_per_query_sum")
            snap["query_s"] = metric_sum(text, "vm_request_duration_seconds_sum", is_api)
        return snap

    def between(self, a, b):
        """What the server did from snapshot a to snapshot b."""
        out = {"seconds": b["t"] - a["t"], "cpu_s": b["cpu_s"] - a["cpu_s"],
               "requests": b["requests"] - a["requests"],
               "bytes": None if a["bytes"] is None else b["bytes"] - a["bytes"]}
        if self.kind == "prometheus":
            samples = queries = 0
            engine = 0.0
            with open(self.query_log, "rb") as log:
                log.seek(a["log_offset"])
                for line in log.read(b["log_offset"] - a["log_offset"]).splitlines():
                    stats = json.loads(line).get("stats", {})
                    samples += stats.get("samples", {}).get("totalQueryableSamples", 0)
                    engine += stats.get("timings", {}).get("execTotalTime", 0.0)
                    queries += 1
            out.update(samples=samples, query_s=engine, queries=queries)
        else:
            out.update(samples=b["samples"] - a["samples"], query_s=b["query_s"] - a["query_s"])
        return out

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()


def settle(processes, cap_s):
    """Waits until every app's RSS has stopped moving (its history is in) or cap_s passed."""
    began = time.time()
    history = {p.pid: [] for p in processes}
    while time.time() - began < cap_s:
        time.sleep(0.5)
        settled = True
        for p in processes:
            if p.poll() is not None:
                raise RuntimeError("an app exited early; see its log")
            h = history[p.pid]
            h.append((time.time() - began, proc_rss_kib(p.pid)))
            recent = [rss for t, rss in h if t >= h[-1][0] - 4.0]
            settled &= h[-1][0] >= 8 and max(recent) - min(recent) <= max(recent) * 0.005
        if settled:
            break
    return round(time.time() - began, 1)


def run_chaoscope(server, app, n, window, refresh, measure_s, work, client="chaoscope"):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_LOGGING_RULES="qt.qpa.*=false")
    lifetime = 200 + measure_s
    label = f"{client.split()[0]}-{window}-{refresh}-{n}"
    apps, logs = [], []
    before = server.snapshot()
    for i in range(n):
        logs.append(open(os.path.join(work, f"{label}-{i}.log"), "w"))
        apps.append(subprocess.Popen(
            [app, "--prometheus", server.url, "--dashboard", "camunda", "--window", window,
             "--refresh", refresh, "--screenshot", os.path.join(work, f"{label}-{i}.png"),
             "--after", f"{lifetime}s"], env=env, stdout=logs[-1], stderr=subprocess.STDOUT))
    try:
        opened_after = settle(apps, 150)
        opened = server.snapshot()
        ticks = [proc_cpu_ticks(p.pid) for p in apps]
        wall = time.monotonic()
        time.sleep(measure_s)
        done = server.snapshot()
        elapsed = time.monotonic() - wall
        app_cpu = [100.0 * (proc_cpu_ticks(p.pid) - t) / CLK_TCK / elapsed for p, t in zip(apps, ticks)]
        rss = [proc_rss_kib(p.pid) / 1024 for p in apps]
    finally:
        for p in apps:
            stop(p)
        for log in logs:
            log.close()
    return {"client": client, "n": n, "window": window, "refresh": refresh,
            "opening": {**server.between(before, opened), "settled_after_s": opened_after},
            "steady": server.between(opened, done),
            "app_cpu_percent": sum(app_cpu) / n, "app_rss_mib": sum(rss) / n}


def run_refresh_pattern(server, window, refresh, measure_s):
    before = server.snapshot()
    out = subprocess.run(
        [sys.executable, os.path.join(BENCH, "grafana_refresh.py"), "--prometheus", server.url,
         "--dashboard", DASHBOARD, "--window", window, "--refresh", refresh,
         "--seconds", str(measure_s), "--width", str(GRAFANA_WIDTH_PX)],
        check=True, stdout=subprocess.PIPE, text=True).stdout
    done = server.snapshot()
    return {"client": "refresh pattern", "n": 1, "window": window, "refresh": refresh,
            "steady": server.between(before, done), "emulator": json.loads(out.splitlines()[-1])}


def per_second(run, idle_cpu_per_s):
    """The steady stretch per second, the server's idle CPU taken off."""
    s = run["steady"]
    sec = s["seconds"]
    return {"cpu": max(0.0, s["cpu_s"] / sec - idle_cpu_per_s), "samples": s["samples"] / sec,
            "requests": s["requests"] / sec, "query_s": s["query_s"] / sec,
            "bytes": None if s["bytes"] is None else s["bytes"] / sec}


def first_hour(run, idle_cpu_per_s):
    """One viewer's first hour: its share of the opening, then the steady rate."""
    rate = per_second(run, idle_cpu_per_s)
    n = run["n"]
    o = run.get("opening")
    opening_cpu = max(0.0, o["cpu_s"] - idle_cpu_per_s * o["seconds"]) if o else 0.0
    opening_samples = o["samples"] if o else 0.0
    rest = 3600 - (o["seconds"] if o else 0.0)
    return {"cpu": (opening_cpu + rate["cpu"] * rest) / n,
            "samples": (opening_samples + rate["samples"] * rest) / n}


def ratio(a, b):
    return a / b if a is not None and b else None


def table(r):
    rows = []
    add = rows.append
    add(f"team scale: {r['server']}, {r['date']}, {r['machine']} ({r['command']}, {r['total_seconds']} s)")
    add(f"  the camunda dashboard ({r['queries']} queries) over a Camunda-shaped day of {r['series']} series"
        f" scraped every 1 s; steady stretch {r['measure_s']} s after the history is in;")
    add(f"  server idle (scraping only) {fmt(r['idle_cpu_per_s'] * 100, 2)} % of a core, taken off below")
    add("")
    add(f"  {'window':<7}{'refresh':<8}{'client':<17}{'N':>3}{'srv CPU %':>10}{'samples/s':>12}"
        f"{'req/s':>7}{'KiB/s':>8}{'engine ms/s':>12}{'vs N=1':>8}{'app CPU %':>10}{'app MiB':>8}"
        f"{'opening s':>10}{'opening Msamples':>17}{'opening srv CPU s':>18}")
    idle = r["idle_cpu_per_s"]
    for run in r["runs"]:
        ps = per_second(run, idle)
        base = next((x for x in r["runs"] if x["client"] == run["client"] and x["window"] == run["window"]
                     and x["refresh"] == run["refresh"] and x["n"] == 1), None)
        grow = ratio(ps["samples"], per_second(base, idle)["samples"]) if base else None
        o = run.get("opening")
        add(f"  {run['window']:<7}{run['refresh']:<8}{run['client']:<17}{run['n']:>3}"
            f"{fmt(ps['cpu'] * 100, 2):>10}{fmt(ps['samples'], 0):>12}{fmt(ps['requests']):>7}"
            f"{fmt(ps['bytes'] and ps['bytes'] / 1024):>8}{fmt(ps['query_s'] * 1000):>12}"
            f"{fmt(grow, 2):>8}{fmt(run.get('app_cpu_percent'), 2):>10}{fmt(run.get('app_rss_mib'), 0):>8}"
            f"{fmt(o and o['settled_after_s']):>10}{fmt(o and o['samples'] / 1e6, 1):>17}"
            f"{fmt(o and o['cpu_s'] - idle * o['seconds'], 2):>18}")
    add("")
    add("  one viewer against the refresh pattern. A viewer's share is measured on the largest N: one viewer's"
        " server CPU is a few")
    add("  clock ticks in the stretch, below what /proc resolves. First hour = its share of the opening + 1 h steady.")
    verdicts = {}
    for window in r["windows"]:
        for refresh in r["refreshes"]:
            def find(client, n):
                return next((x for x in r["runs"] if x["client"] == client and x["n"] == n
                             and x["window"] == window and x["refresh"] == refresh), None)
            grafana, team = find("refresh pattern", 1), find("chaoscope", max(r["ns"]))
            if not grafana or not team:
                continue
            n = team["n"]
            g, t = first_hour(grafana, idle), first_hour(team, idle)
            gs, ts = per_second(grafana, idle), per_second(team, idle)
            one_cpu, one_samples = ratio(t["cpu"], g["cpu"]), ratio(t["samples"], g["samples"])
            team_cpu, team_samples = ratio(t["cpu"] * n, g["cpu"]), ratio(t["samples"] * n, g["samples"])
            add(f"  {window:<4}{refresh:<4} one viewer, steady: CPU {fmt(ratio(ts['cpu'] / n, gs['cpu']), 3)},"
                f" samples {fmt(ratio(ts['samples'] / n, gs['samples']), 4)}; first hour: CPU {fmt(one_cpu, 3)},"
                f" samples {fmt(one_samples, 4)};  {n} viewers / 1 refresh-pattern viewer, first hour:"
                f" CPU {fmt(team_cpu, 2)}, samples {fmt(team_samples, 2)}")
            if window == "1h" and refresh == "5s":
                verdicts["one"] = (one_cpu, one_samples)
                verdicts["team"] = (team_cpu, team_samples)
    for run in r["runs"]:
        if run["client"] != "baseline":
            continue
        this = next((x for x in r["runs"] if x["client"] == "chaoscope" and x["n"] == run["n"]
                     and x["window"] == run["window"] and x["refresh"] == run["refresh"]), None)
        if not this:
            continue
        b, t = per_second(run, idle), per_second(this, idle)
        add(f"  baseline -> this build, {run['window']} {run['refresh']} N={run['n']}: server CPU"
            f" {fmt(b['cpu'] * 100, 2)} -> {fmt(t['cpu'] * 100, 2)} %, requests/s {fmt(b['requests'], 2)} ->"
            f" {fmt(t['requests'], 2)}, opening {fmt(run['opening']['samples'] / 1e6, 1)} ->"
            f" {fmt(this['opening']['samples'] / 1e6, 1)} M samples, app CPU {fmt(run['app_cpu_percent'], 2)} ->"
            f" {fmt(this['app_cpu_percent'], 2)} %")
    add("")
    if "one" in verdicts:
        cpu_h, samples_h = verdicts["one"]
        add(f"  goal: one viewer <= 1/20 of the refresh pattern (1 h, 5 s): CPU {fmt(cpu_h, 3)} {verdict(cpu_h is not None and cpu_h <= 0.05)},"
            f" samples {fmt(samples_h, 4)} {verdict(samples_h is not None and samples_h <= 0.05)}")
    if "team" in verdicts:
        team_cpu, team_samples = verdicts["team"]
        add(f"  goal: {max(r['ns'])} viewers < 1 refresh-pattern viewer (1 h, 5 s): CPU {fmt(team_cpu, 2)} {verdict(team_cpu is not None and team_cpu < 1)},"
            f" samples {fmt(team_samples, 2)} {verdict(team_samples is not None and team_samples < 1)}")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", default=os.path.join(ROOT, "build", "bench", "app", "chaoscope"))
    parser.add_argument("--quick", action="store_true", help="5 s refresh only, N = 1 and 5, 20 s each")
    parser.add_argument("--server", choices=("prometheus", "victoria-metrics"), default="prometheus")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "bench-results"))
    parser.add_argument("--windows", default="1h,8h")
    parser.add_argument("--baseline-app", help="another build's app (an earlier commit's) measured beside")
    parser.add_argument("--latency-offset", metavar="DURATION",
                        help="VictoriaMetrics' -search.latencyOffset (its default is 30s): how long it "
                        "keeps the newest answers provisional, and so how far back a live tail asks again")
    args = parser.parse_args()
    if args.latency_offset and args.server != "victoria-metrics":
        parser.error("--latency-offset is a VictoriaMetrics setting: give --server victoria-metrics")
    for app in filter(None, (args.app, args.baseline_app)):
        if not os.access(app, os.X_OK):
            sys.exit(f"missing {app}: build it first (./dev bench does)")
    for tool in (("prometheus", "promtool") if args.server == "prometheus" else ("victoria-metrics",)):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not on PATH")
    windows = args.windows.split(",")
    refreshes = ["5s"] if args.quick else ["1s", "5s"]
    ns = [1, 5] if args.quick else [1, 5, 10]
    measure_s = 20 if args.quick else 45
    hours = 8
    os.makedirs(args.out, exist_ok=True)
    began = time.time()
    with open(DASHBOARD) as f:
        dashboard = json.load(f)
    sys.path.insert(0, BENCH)
    import camunda_day
    import grafana_refresh
    results = {"server": args.server, "date": datetime.datetime.now().isoformat(timespec="seconds"),
               "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
               "command": "bench/team_bench.py" + (" --quick" if args.quick else "")
               + ("" if args.server == "prometheus" else f" --server {args.server}")
               + (f" --latency-offset {args.latency_offset}" if args.latency_offset else ""),
               "measure_s": measure_s, "windows": windows, "refreshes": refreshes, "ns": ns,
               "series": len(camunda_day.families()),
               "queries": len(grafana_refresh.queries_of(dashboard, {})), "runs": []}
    with tempfile.TemporaryDirectory(prefix="chaoscope-team-") as work:
        exporter_port = free_port()
        exporter = subprocess.Popen([sys.executable, os.path.join(BENCH, "camunda_day.py"), "serve",
                                     "--port", str(exporter_port)])
        server = None
        try:
            say(f"team: {args.server} with {hours} h of a Camunda-shaped day (history, then live)")
            server = Server(args.server, work, hours, exporter_port, args.latency_offset)
            say(f"team: the server's idle cost over {measure_s} s")
            a = server.snapshot()
            time.sleep(measure_s)
            results["idle_cpu_per_s"] = server.between(a, server.snapshot())["cpu_s"] / measure_s
            for window in windows:
                for refresh in refreshes:
                    say(f"team: refresh pattern, {window} window, every {refresh}")
                    results["runs"].append(run_refresh_pattern(server, window, refresh, measure_s))
                    for n in ns:
                        say(f"team: {n} x Chaoscope, {window} window, every {refresh}")
                        results["runs"].append(
                            run_chaoscope(server, args.app, n, window, refresh, measure_s, work))
                        if args.baseline_app:
                            say(f"team: {n} x the baseline, {window} window, every {refresh}")
                            results["runs"].append(run_chaoscope(server, args.baseline_app, n, window, refresh,
                                                                 measure_s, work, "baseline"))
        finally:
            if server:
                server.stop()
            stop(exporter)
    results["total_seconds"] = round(time.time() - began, 1)
    text = table(results)
    print(text)
    name = "team" if args.server == "prometheus" else f"team-{args.server}"
    with open(os.path.join(args.out, f"{name}.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(args.out, f"{name}.txt"), "w") as f:
        f.write(text + "\n")
    say(f"team: results in {args.out}")


if __name__ == "__main__":
    main()
