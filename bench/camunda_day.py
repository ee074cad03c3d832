#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A Camunda-shaped Chaos Day for the team-scale benchmark: the metric families the built-in
`camunda` dashboard asks for, with the labels a three-broker cluster has (partitions, pods,
volumes, actions, histogram buckets), about 130 series in namespace "default".

Every series is a closed-form function of time, so the history written for promtool (or for
VictoriaMetrics' import) and the live values served to the scraper join without a step:

  history   day.om for `promtool tsdb create-blocks-from openmetrics` (seconds), or the
            Prometheus text format with millisecond timestamps for /api/v1/import/prometheus
  serve     an exporter on a loopback port whose /metrics are the same series now

Counters grow at a rate that wobbles (so rate() draws a curve), gauges wander, the exporter's
backlog swells and drains. All series carry job="camunda-bench", instance="bench": the
scrape config uses honor_labels so history and live are one series.

usage: camunda_day.py history --out day.om [--hours 8] [--end UNIX] [--millis]
       camunda_day.py serve --port PORT
"""
import argparse
import http.server
import math
import time

ORIGIN = 1_700_000_000  # counters count from here: any fixed instant before the day works
BASE = {"namespace": "default", "job": "camunda-bench", "instance": "bench"}
PARTITIONS = ("1", "2", "3")
BROKERS = ("camunda-0", "camunda-1", "camunda-2")
WORKERS = ("worker-0", "worker-1", "worker-2", "worker-3")
STARTERS = ("starter-0", "starter-1")
PODS = BROKERS + WORKERS + STARTERS
BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 60)


def wobble(t, seed, period=900.0):
    """A smooth value in about [-1, 1]: three sines of periods that do not line up."""
    return (0.6 * math.sin(t / period + seed) + 0.3 * math.sin(t / (period * 0.37) + 2 * seed)
            + 0.1 * math.sin(t / 47.0 + 3 * seed))


def counter(rate, seed, swing=0.3):
    """Grows at `rate` per second, the rate swinging by about `swing` of itself."""
    period = 900.0
    return lambda t: rate * (t - ORIGIN) + rate * swing * period * (
        0.6 * -math.cos(t / period + seed) + 0.3 * 0.37 * -math.cos(t / (period * 0.37) + 2 * seed))


def gauge(level, amplitude, seed, period=900.0):
    return lambda t: level + amplitude * wobble(t, seed, period)


def backlog(partition):
    seed = int(partition)
    return lambda t: 6000.0 + 5000.0 * math.sin(t / 1800.0 + seed) + 800.0 * wobble(t, seed)


def families():
    """[(name, {labels}, f(t))] for every series of the day."""
    out = []

    def add(name, labels, fn):
        out.append((name, {**BASE, **labels}, fn))

    for i, pod in enumerate(STARTERS):
        add("starter_process_instances_started_total", {"pod": pod}, counter(50.0, i))
        for state, level in (("leased", 30.0), ("available", 10.0)):
            add("httpcomponents_httpclient_pool_total_connections", {"pod": pod, "state": state},
                gauge(level, 8.0, i + len(state)))
        add("httpcomponents_httpclient_pool_total_pending", {"pod": pod}, gauge(12.0, 11.0, i + 7))
        add("httpcomponents_httpclient_pool_total_max", {"pod": pod}, lambda t: 50.0)
        for j, le in enumerate((*BUCKETS, "+Inf")):
            share = 1.0 if le == "+Inf" else 1.0 - math.exp(-float(le) / 2.0)
            add("starter_data_availability_latency_seconds_bucket", {"pod": pod, "le": str(le)},
                counter(45.0 * share, i, 0.2 + 0.02 * j))
    for p in PARTITIONS:
        seed = int(p)
        add("zeebe_process_instance_creations_total", {"partition": p}, counter(33.0, seed))
        for action in ("activated", "completed"):
            for kind in ("PROCESS", "SERVICE_TASK"):
                add("zeebe_element_instance_events_total",
                    {"partition": p, "action": action, "type": kind},
                    counter(33.0 if kind == "PROCESS" else 99.0, seed + len(action)))
        lag = backlog(p)
        for broker in BROKERS:
            committed = counter(1000.0, seed, 0.1)
            add("zeebe_log_appender_last_committed_position", {"partition": p, "pod": broker}, committed)
            add("zeebe_exporter_last_exported_position", {"partition": p, "pod": broker},
                lambda t, c=committed, b=lag: c(t) - b(t))
        add("zeebe_exporter_events_total", {"partition": p}, counter(1000.0, seed + 1, 0.25))
        for value_type, intent in (("PROCESS_INSTANCE_CREATION", "CREATE"), ("JOB", "COMPLETE"),
                                   ("JOB_BATCH", "ACTIVATE"), ("PROCESS_INSTANCE", "CANCEL")):
            add("zeebe_log_appender_record_appended_total",
                {"partition": p, "recordType": "COMMAND_REJECTION", "valueType": value_type,
                 "intent": intent}, counter(0.5, seed + len(intent), 0.9))
        add("zeebe_dropped_request_count_total", {"partition": p}, counter(1.0, seed, 0.9))
        add("zeebe_received_request_count_total", {"partition": p}, counter(40.0, seed))
        for action in ("created", "activated", "completed", "failed", "timed_out"):
            rate = 0.2 if action in ("failed", "timed_out") else 33.0
            add("zeebe_job_events_total", {"partition": p, "action": action},
                counter(rate, seed + len(action)))
    for i, broker in enumerate(BROKERS):
        claim = f"data-{broker}"
        add("kubelet_volume_stats_capacity_bytes", {"persistentvolumeclaim": claim}, lambda t: 32e9)
        add("kubelet_volume_stats_used_bytes", {"persistentvolumeclaim": claim},
            gauge(12e9, 6e9, i, 3600.0))
    for i, gateway in enumerate(("gateway-0", "gateway-1")):
        add("zeebe_gateway_job_stream_push_total", {"pod": gateway}, counter(40.0, i))
    for i, worker in enumerate(WORKERS):
        activated = counter(25.0, i)
        add("camunda_client_worker_job_activated_total", {"pod": worker}, activated)
        add("camunda_client_worker_job_handled_total", {"pod": worker},
            lambda t, a=activated, s=i: a(t) - 20.0 - 15.0 * wobble(t, s))
    for i, pod in enumerate(PODS):
        add("container_cpu_cfs_periods_total", {"pod": pod}, lambda t: 10.0 * (t - ORIGIN))
        add("container_cpu_cfs_throttled_periods_total", {"pod": pod}, counter(1.5, i, 0.9))
    return out


def label_text(labels):
    return "{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}"


def write_history(path, end, seconds, millis):
    """One series after another, each in time order: what promtool and the import expect."""
    start = end - seconds + 1
    with open(path, "w", buffering=1 << 20) as out:
        for name, labels, fn in families():
            prefix = f"{name}{label_text(labels)} "
            if millis:
                out.write("".join(f"{prefix}{fn(t):.3f} {t * 1000}\n" for t in range(start, end + 1)))
            else:
                out.write("".join(f"{prefix}{fn(t):.3f} {t}\n" for t in range(start, end + 1)))
        if not millis:
            out.write("# EOF\n")


def exposition(now):
    return "".join(f"{name}{label_text(labels)} {fn(now):.3f}\n" for name, labels, fn in families())


class Exporter(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the name http.server calls)
        body = exposition(time.time()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    history = sub.add_parser("history")
    history.add_argument("--out", required=True)
    history.add_argument("--hours", type=float, default=8.0)
    history.add_argument("--end", type=int, default=int(time.time()) - 1)
    history.add_argument("--millis", action="store_true",
                         help="Prometheus text with ms timestamps (VictoriaMetrics' import)")
    serve = sub.add_parser("serve")
    serve.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    if args.command == "history":
        write_history(args.out, args.end, int(args.hours * 3600), args.millis)
    else:
        http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Exporter).serve_forever()


if __name__ == "__main__":
    main()
