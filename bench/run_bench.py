#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs every Chaoscope benchmark in one go and prints one table of medians, ratios and goals.

  render     the same Chaos Day (8 h x 40 series at 1 s) drawn offscreen at 1600x1000 by raw
             QLineSeries, by Chaoscope's TimelineChart and by QCustomPlot, every one with the
             same 1.6 px antialiased pen (render_bench); the chart's own 1 px pen as a what-if
  export     a 6-panel blog picture of the day at 2x (2400x1350), drawn, and drawn and
             encoded as PNG (export_bench)
  decimation M4 throughput against a plain sum over the same arrays (decimator_bench)
  backfill   opening an 8 h dashboard against a real Prometheus holding the day, created with
             promtool from generated OpenMetrics (backfill_bench)
  memory     RSS of the app with the day loaded minus the app with the same dashboard empty
  idle       CPU of the app polling the 40 series every second for 60 s: at 8 h with the
             day at 1 s (--detail raw) and with the default detail, and at 15 min

The app runs headless (QT_QPA_PLATFORM=offscreen) with --screenshot/--after as its lifetime;
RSS and CPU come from /proc/<pid>. Results also go to <build>/bench-results/ (JSON, table).

--baseline DIR runs the render and export benchmarks and the idle app of another build (of an
earlier commit, say) right after this build's, and prints both with their ratio.

Then bench/team_bench.py: N Chaoscope viewers and Grafana's refresh pattern against one
Prometheus (--no-team leaves it out; it has its own table and --quick).

usage: bench/run_bench.py [--build build/bench] [--quick] [--baseline OTHER_BUILD] [--no-team]
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERIES = 40
PANELS, PER_PANEL = 8, 5
DAY_SECONDS = 8 * 3600
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def say(text):
    print(f"\033[1m==> {text}\033[0m", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as reply:
        return reply.status, reply.read()


def instant(base, promql):
    status, body = http_get(base + "api/v1/query?" + urllib.parse.urlencode({"query": promql}))
    result = json.loads(body)["data"]["result"]
    return float(result[0]["value"][1]) if result else None


class Prometheus:
    """The real Prometheus on a free loopback port, with the day's blocks and live rules."""

    def __init__(self, workdir, blocks, rules):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        data = os.path.join(workdir, "tsdb")
        shutil.copytree(blocks, data)
        config = os.path.join(workdir, "prometheus.yml")
        with open(config, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                    f"rule_files:\n  - {rules}\n")
        self.log = open(os.path.join(workdir, "prometheus.log"), "w")
        self.process = subprocess.Popen(
            ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={data}",
             f"--web.listen-address=127.0.0.1:{self.port}", "--storage.tsdb.retention.time=30d",
             "--log.level=warn"], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                self.log.flush()
                with open(self.log.name) as log:
                    raise RuntimeError("prometheus exited:\n" + log.read()[-2000:])
            try:
                if http_get(self.url + "-/ready")[0] == 200 and \
                        (instant(self.url, "count(chaos_bench)") or 0) >= SERIES:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("prometheus did not become ready with the day's series")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def make_day(workdir):
    """Generates the day as OpenMetrics and turns it into TSDB blocks with promtool."""
    om = os.path.join(workdir, "day.om")
    rules = os.path.join(workdir, "rules.yml")
    blocks = os.path.join(workdir, "blocks")
    end = int(time.time()) - 1
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_history.py"), "--out", om,
                    "--rules", rules, "--end", str(end)], check=True)
    subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics", om, blocks],
                   check=True, stdout=subprocess.DEVNULL)
    os.remove(om)
    return blocks, rules


def benchmark_json(binary, extra, env=None):
    """Runs a Google Benchmark program; returns {name: {aggregate or 'value': entry}}."""
    out = subprocess.run([binary, "--benchmark_format=json", *extra], check=True,
                         stdout=subprocess.PIPE, env=env).stdout
    results = {}
    for entry in json.loads(out)["benchmarks"]:
        # "render/redraw/raw/iterations:1/repeats:5/manual_time" -> "render/redraw/raw"
        name = entry.get("run_name", entry["name"])
        name = "/".join(part for part in name.split("/")
                        if not part.startswith(("iterations:", "repeats:", "manual_time", "real_time")))
        results.setdefault(name, {})[entry.get("aggregate_name", "value")] = entry
    return results


def median_ms(results, name):
    entry = results.get(name, {})
    entry = entry.get("median") or entry.get("value")
    if not entry:
        return None
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[entry.get("time_unit", "ns")]
    return entry["real_time"] * scale


def render_results(binary, env):
    """The render benchmark at equal pens, and the chart with its own 1 px pen as a what-if."""
    # The pen is named, not left to the binary's default: a baseline of an earlier commit
    # (whose chart drew 1 px unless told) then measures the same thing.
    render = benchmark_json(binary, [], dict(env, BENCH_LINE_WIDTH="1.6"))
    whatif = benchmark_json(binary, ["--benchmark_filter=chaoscope"],
                            dict(env, BENCH_LINE_WIDTH="1", BENCH_SAVE_DIR=""))
    render.update({name + "_pen_1": entry for name, entry in whatif.items()})
    results = {}
    for name, entry in render.items():
        median = entry.get("median") or {}
        results[name] = {"median_ms": median_ms(render, name), "latency_ms": median.get("latency_ms"),
                         "points": median.get("points")}
    return results


def export_results(binary, extra):
    """{"png_480": ms, "raster_480": ms, ...}: medians per picture, by span in minutes."""
    out = benchmark_json(binary, extra, dict(os.environ, QT_QPA_PLATFORM="offscreen",
                                             QT_LOGGING_RULES="qt.qpa.*=false"))
    results = {}
    for name in out:  # "BM_Png2x/480"
        kind, _, span = name.partition("/")
        label = {"BM_Png2x": "png", "BM_Raster2x": "raster"}.get(kind)
        if label:
            results[f"{label}_{span}"] = median_ms(out, name)
    return results


def write_dashboard(path, metric, window):
    panels = []
    for p in range(PANELS):
        panels.append({"title": f"panel {p}", "unit": "ops/s", "series": [
            {"query": f'{metric}{{series="{p * PER_PANEL + s:02d}"}}', "legend": "{{series}}"}
            for s in range(PER_PANEL)]})
    with open(path, "w") as f:
        json.dump({"title": "Chaos Day", "refresh": "1s", "window": window, "columns": 2,
                   "panels": panels}, f, indent=1)


def proc_rss_kib(pid):
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE_KIB


def proc_cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15)


def run_app(app, url, dashboard, window, idle_seconds, workdir, label, extra=()):
    """Starts the app headless, waits until its memory settles (the history is in), then
    measures RSS and, when idle_seconds > 0, its CPU over that many seconds."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_LOGGING_RULES="qt.qpa.*=false")
    lifetime = 60 + idle_seconds + 60  # --after bounds the run even if this script dies
    log = open(os.path.join(workdir, f"app-{label}.log"), "w")
    process = subprocess.Popen(
        [app, "--prometheus", url, "--dashboard", dashboard, "--window", window, "--refresh", "1s",
         "--screenshot", os.path.join(workdir, f"app-{label}.png"), "--after", f"{lifetime}s", *extra],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        start = time.time()
        history = []
        while True:
            time.sleep(0.25)
            if process.poll() is not None:
                raise RuntimeError(f"the app exited early; see {log.name}")
            history.append((time.time() - start, proc_rss_kib(process.pid)))
            recent = [rss for t, rss in history if t >= history[-1][0] - 3.0]
            settled = history[-1][0] >= 8 and max(recent) - min(recent) <= max(recent) * 0.005
            if settled or history[-1][0] > 60:
                break
        result = {"rss_kib": history[-1][1], "settled_after_s": round(history[-1][0], 1)}
        if idle_seconds > 0:
            ticks, wall = proc_cpu_ticks(process.pid), time.time()
            time.sleep(idle_seconds)
            used = (proc_cpu_ticks(process.pid) - ticks) / CLK_TCK
            result["cpu_percent"] = 100.0 * used / (time.time() - wall)
            result["rss_after_idle_kib"] = proc_rss_kib(process.pid)
        return result
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def fmt(value, digits=1, unit=""):
    return "n/a" if value is None else f"{value:.{digits}f}{unit}"


def verdict(ok):
    return "n/a" if ok is None else ("met" if ok else "NOT met")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "bench"))
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, shorter idle")
    parser.add_argument("--baseline", help="another build whose render and export benchmarks run beside")
    parser.add_argument("--no-team", action="store_true", help="leave out the team-scale benchmark (team_bench.py)")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    binaries = {name: os.path.join(build, path) for name, path in {
        "render": "bench/render_bench", "decimation": "bench/decimator_bench",
        "backfill": "bench/backfill_bench", "store": "bench/store_memory_bench",
        "export": "bench/export_bench", "app": "app/chaoscope"}.items()}
    baseline = {}
    if args.baseline:
        baseline = {name: os.path.join(os.path.abspath(args.baseline), "bench", f"{name}_bench")
                    for name in ("render", "export")}
        baseline["app"] = os.path.join(os.path.abspath(args.baseline), "app", "chaoscope")
    for path in [*binaries.values(), *baseline.values()]:
        if not os.access(path, os.X_OK):
            sys.exit(f"missing {path}: build it first (./dev bench does)")
    for tool in ("prometheus", "promtool"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not on PATH (apt-get install prometheus)")

    began = time.time()
    results = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
               "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
               "command": "./dev bench" + (" --quick" if args.quick else "")}
    out_dir = os.path.join(build, "bench-results")
    os.makedirs(out_dir, exist_ok=True)
    reps = "3" if args.quick else "7"
    idle = 20 if args.quick else 60

    with tempfile.TemporaryDirectory(prefix="chaoscope-bench-") as work:
        say("decimation: M4 against a plain sum")
        dec = benchmark_json(binaries["decimation"], [f"--benchmark_repetitions={reps}",
                                                      "--benchmark_report_aggregates_only=true"])
        results["decimation"] = {
            name: {"median_ms": median_ms(dec, name),
                   "bytes_per_second": (dec[name].get("median") or {}).get("bytes_per_second")}
            for name in dec}

        say("memory: the day in a SampleStore alone")
        results["store"] = json.loads(subprocess.run([binaries["store"]], check=True, text=True,
                                                     stdout=subprocess.PIPE).stdout.splitlines()[-1])

        say("render: raw QLineSeries, Chaoscope, QCustomPlot (offscreen, 1600x1000)")
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_LOGGING_RULES="qt.qpa.*=false",
                   BENCH_SAVE_DIR=out_dir)
        if args.quick:
            env.update(BENCH_REPS="7", BENCH_REPS_SLOW="3")
        results["render"] = render_results(binaries["render"], env)
        if baseline:
            say(f"render: the baseline {baseline['render']}")
            results["baseline_render"] = render_results(baseline["render"], dict(env, BENCH_SAVE_DIR=""))

        say("export: a 6-panel blog picture of the day at 2x")
        export_args = [f"--benchmark_repetitions={reps}", "--benchmark_report_aggregates_only=true",
                       "--benchmark_filter=Raster2x|Png2x"]
        results["export"] = export_results(binaries["export"], export_args)
        if baseline:
            say(f"export: the baseline {baseline['export']}")
            results["baseline_export"] = export_results(baseline["export"], export_args)

        say("backfill: generating 8 h x 40 series and creating TSDB blocks with promtool")
        t = time.time()
        blocks, rules = make_day(work)
        results["dataset_seconds"] = round(time.time() - t, 1)
        prometheus = Prometheus(work, blocks, rules)
        try:
            say(f"backfill: opening the day against Prometheus at {prometheus.url}")
            proc = subprocess.run([binaries["backfill"], "--prometheus", prometheus.url,
                                   "--runs", "3" if args.quick else "5"],
                                  stdout=subprocess.PIPE, text=True,
                                  env=dict(os.environ, QT_QPA_PLATFORM="offscreen",
                                           QT_LOGGING_RULES="qt.qpa.*=false"))
            lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
            results["backfill"] = {**next((l for l in lines if "summary" in l), {}),
                                   "each_run": [l for l in lines if "summary" not in l]}

            say("memory: the app with the same dashboard empty, then with the day loaded")
            full = os.path.join(work, "day.json")
            empty = os.path.join(work, "empty.json")
            write_dashboard(full, "chaos_bench", "8h")
            write_dashboard(empty, "chaos_bench_absent", "8h")
            app = binaries["app"]
            # --detail raw: the whole day at 1 s in memory, what bytes per sample are about.
            raw = ("--detail", "raw")
            results["app_empty"] = run_app(app, prometheus.url, empty, "8h", 0, work, "empty", raw)
            say(f"idle: the app with the day loaded at 1 s, polling every second for {idle} s")
            results["app_day"] = run_app(app, prometheus.url, full, "8h", idle, work, "day", raw)
            say(f"idle: the same with the default detail (10 s for 8 h), polling every second for {idle} s")
            results["app_day_detail"] = run_app(app, prometheus.url, full, "8h", idle, work, "day-detail")
            say(f"idle: 15 min window, polling every second for {idle} s")
            results["app_15m"] = run_app(app, prometheus.url, full, "15m", idle, work, "15m")
            if baseline:
                say(f"idle: the baseline {baseline['app']}, 8 h and 15 min windows")
                results["baseline_app_day"] = run_app(baseline["app"], prometheus.url, full, "8h", idle, work,
                                                      "baseline-day")  # it loaded 1 s detail by itself
                results["baseline_app_15m"] = run_app(baseline["app"], prometheus.url, full, "15m", idle, work,
                                                      "baseline-15m")
            for label in ("day", "15m"):
                png = os.path.join(work, f"app-{label}.png")
                if os.path.exists(png):
                    shutil.copy(png, out_dir)
        finally:
            prometheus.stop()
    results["total_seconds"] = round(time.time() - began, 1)

    table = render_table(results)
    print(table)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(out_dir, "results.txt"), "w") as f:
        f.write(table + "\n")
    say(f"results in {out_dir} (pictures of what was drawn included)")
    if not args.no_team:
        # N viewers against one server, beside Grafana's refresh pattern: its own table.
        team = [sys.executable, os.path.join(ROOT, "bench", "team_bench.py"), "--app", binaries["app"],
                "--out", out_dir]
        if args.quick:
            team.append("--quick")
        if baseline:
            team += ["--baseline-app", baseline["app"]]
        subprocess.run(team, check=True)


def render_table(r):
    rows = []
    add = rows.append
    add(f"Chaoscope benchmarks  {r['date']}  {r['machine']}  ({r['command']}, {r['total_seconds']} s)")
    add("")
    ren = r.get("render", {})

    def cell(scenario, variant, key="median_ms"):
        return (ren.get(f"render/{scenario}/{variant}") or {}).get(key)

    add("render: 8 h x 40 series (1.15 M samples), offscreen 1600x1000, median ms;"
        " every variant with a 1.6 px antialiased pen")
    add(f"  {'':<24}{'raw QLineSeries':>17}{'Chaoscope':>12}{'QCustomPlot':>13}   goal")
    goals = {"redraw": 100, "live_tick": 16}
    for scenario, label in (("redraw", "full redraw (pan)"), ("live_tick", "live tick, 15 min")):
        raw, ours, qcp = (cell(scenario, v) for v in ("raw", "chaoscope", "qcustomplot"))
        goal = goals[scenario]
        add(f"  {label:<24}{fmt(raw):>17}{fmt(ours):>12}{fmt(qcp):>13}"
            f"   Chaoscope <= {goal} ms: {verdict(ours and ours <= goal)}")
    raw, ours, qcp = (cell("redraw", v) for v in ("raw", "chaoscope", "qcustomplot"))
    speedup = raw / ours if raw and ours else None
    vs_qcp = ours / qcp if ours and qcp else None
    add(f"  redraw: raw / Chaoscope = {fmt(speedup)}x   (goal >= 10x: {verdict(speedup and speedup >= 10)})")
    add(f"  redraw: Chaoscope / QCustomPlot = {fmt(vs_qcp, 2)}   (goal <= 1: {verdict(vs_qcp and vs_qcp <= 1)})")
    add(f"  live tick: latency incl. the coalescing timer {fmt(cell('live_tick', 'chaoscope', 'latency_ms'))} ms")
    add(f"  what-if, the chart with its own 1 px cosmetic pen: redraw {fmt(cell('redraw', 'chaoscope_pen_1'))} ms,"
        f" live tick {fmt(cell('live_tick', 'chaoscope_pen_1'))} ms")
    base = r.get("baseline_render")
    if base:
        for variant, label in (("chaoscope", "Chaoscope, 1.6 px"), ("chaoscope_pen_1", "Chaoscope, 1 px")):
            for scenario in ("redraw", "live_tick"):
                before = (base.get(f"render/{scenario}/{variant}") or {}).get("median_ms")
                after = cell(scenario, variant)
                add(f"  baseline -> this build, {label}, {scenario}: {fmt(before)} -> {fmt(after)} ms"
                    f" ({fmt(after / before if after and before else None, 2)})")
    add("")
    ex = r.get("export", {})
    add("export: 6 panels x 6 series, blog theme (1.5 px lines), 2400x1350 PNG, median ms")
    for span, label in (("480", "8 h shown"), ("15", "15 min shown")):
        add(f"  {label:<14} drawn {fmt(ex.get(f'raster_{span}')):>8}   drawn and encoded {fmt(ex.get(f'png_{span}')):>8}")
    bex = r.get("baseline_export")
    if bex:
        for key in ("raster_480", "png_480", "raster_15", "png_15"):
            before, after = bex.get(key), ex.get(key)
            add(f"  baseline -> this build, {key}: {fmt(before)} -> {fmt(after)} ms"
                f" ({fmt(after / before if after and before else None, 2)})")
    add("")
    dec = r.get("decimation", {})
    m4 = (dec.get("decimation/m4") or {}).get("bytes_per_second")
    total = (dec.get("decimation/plain_sum") or {}).get("bytes_per_second")
    ratio = m4 / total if m4 and total else None
    add("decimation: M4 over the day (40 x 28,800 samples, 1472 columns)")
    add(f"  M4 {fmt(m4 and m4 / 1e9, 2)} GB/s, plain sum {fmt(total and total / 1e9, 2)} GB/s:"
        f" ratio {fmt(ratio, 2)}   (goal >= 0.3: {verdict(ratio and ratio >= 0.3)})")
    cold_m4 = (dec.get("decimation/cold/m4") or {}).get("bytes_per_second")
    cold_sum = (dec.get("decimation/cold/plain_sum") or {}).get("bytes_per_second")
    cold_ratio = cold_m4 / cold_sum if cold_m4 and cold_sum else None
    add(f"  from memory (caches evicted before each pass): M4 {fmt(cold_m4 and cold_m4 / 1e9, 2)} GB/s,"
        f" sum {fmt(cold_sum and cold_sum / 1e9, 2)} GB/s: ratio {fmt(cold_ratio, 2)}")
    plain = (dec.get("decimation/live_tick_8h/m4") or {}).get("median_ms")
    cached = (dec.get("decimation/live_tick_8h/m4_cache") or {}).get("median_ms")
    add(f"  live tick over 8 h, 40 series: M4 {fmt(plain, 2)} ms, with the column cache {fmt(cached, 3)} ms")
    add("")
    bf = r.get("backfill", {})
    drawn = bf.get("drawn_ms")
    stall = bf.get("max_stall_ms")
    add(f"backfill: 8 panels x 5 series, 8 h window, real Prometheus (median of {bf.get('runs', 'n/a') if isinstance(bf.get('runs'), int) else len(bf.get('runs', []))} runs)")
    add(f"  fully drawn {fmt(drawn and drawn / 1000, 2)} s (goal <= 3 s: {verdict(drawn and 0 < drawn <= 3000)});"
        f" first picture {fmt(bf.get('first_picture_ms') and bf['first_picture_ms'] / 1000, 2)} s;"
        f" {fmt(bf.get('samples'), 0)} samples")
    add(f"  longest UI stall {fmt(stall)} ms, worst run {fmt(bf.get('worst_stall_ms'))} ms"
        f" (goal <= 50 ms: {verdict(stall is not None and stall <= 50)})")
    worst = max(bf.get("each_run", []), key=lambda run: run.get("max_stall_ms", 0), default={})
    if worst.get("longest_stall_made_of"):
        add(f"  the worst stall was made of: {'; '.join(worst['longest_stall_made_of'])}")
    add("")
    empty, day, short = r.get("app_empty", {}), r.get("app_day", {}), r.get("app_15m", {})
    samples = bf.get("samples") or SERIES * (DAY_SECONDS + 1)
    delta = (day.get("rss_kib", 0) - empty.get("rss_kib", 0)) if day and empty else None
    per = delta * 1024 / samples if delta is not None else None
    add("memory: the app, 8 h dashboard loaded vs. the same dashboard empty")
    add(f"  RSS {fmt(day.get('rss_kib') and day['rss_kib'] / 1024)} MiB - {fmt(empty.get('rss_kib') and empty['rss_kib'] / 1024)} MiB"
        f" = {fmt(delta and delta / 1024)} MiB for {samples:,.0f} samples:"
        f" {fmt(per)} bytes/sample   (goal <= 32: {verdict(per is not None and per <= 32)})")
    store = r.get("store", {})
    add(f"  of which the samples in the store: {fmt(store.get('bytes_per_sample'))} bytes/sample RSS,"
        f" {fmt(store.get('reserved_bytes_per_sample'))} reserved"
        " (the rest: the recording, what the charts hold, and what the allocator keeps)")
    add("")
    add("idle: the app polling 40 series every second")
    for label, run, base in (("8 h window, 1 s detail", day, r.get("baseline_app_day")),
                             ("8 h window, default", r.get("app_day_detail", {}), None),
                             ("15 min window", short, r.get("baseline_app_15m"))):
        cpu = run.get("cpu_percent")
        line = f"  {label:<22} {fmt(cpu)} % of one core   (goal <= 2 %: {verdict(cpu is not None and cpu <= 2)})"
        if base:
            line += f"   baseline {fmt(base.get('cpu_percent'))} %"
        add(line)
    return "\n".join(rows)


if __name__ == "__main__":
    main()
