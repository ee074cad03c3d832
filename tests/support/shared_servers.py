#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The servers a whole ctest run shares: a real Prometheus and a real VictoriaMetrics, each
scraping only itself every second, as PrometheusProcess would start them for one test.

ctest's fixture "shared_servers" runs `start` before the first test that needs them and
`stop` after the last; the tests find them through DIR/<server>.json
(PrometheusProcess::startOrShare). Each runs under `timeout`, in a session of its own, so
that a run killed half-way leaves nothing behind for long.

usage: shared_servers.py start|stop --dir DIR
"""
import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

SERVERS = {
    # name: (binary, self job, readiness path)
    'prometheus': ('prometheus', 'prometheus', '-/ready'),
    'victoria-metrics': ('victoria-metrics', 'victoria-metrics', 'health'),
}
LIFETIME = '3h'  # longer than any test run; the bound for one that was killed


def free_port():
    """A loopback port below the kernel's ephemeral range (see tests/support/freeport.cpp)."""
    try:
        with open('/proc/sys/net/ipv4/ip_local_port_range') as f:
            end = int(f.read().split()[0])
    except (OSError, ValueError):
        end = 32768
    for _ in range(200):
        port = random.randrange(10000, end)
        with socket.socket() as probe:
            try:
                probe.bind(('127.0.0.1', port))
                return port
            except OSError:
                continue
    sys.exit('no free loopback port')


def ready(url, path):
    try:
        with urllib.request.urlopen(url + path, timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


def stop_one(folder, name):
    state = os.path.join(folder, name + '.json')
    try:
        with open(state) as f:
            pid = json.load(f)['pid']
    except (OSError, ValueError, KeyError):
        pid = None
    if pid:
        try:
            os.killpg(pid, signal.SIGTERM)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                os.killpg(pid, 0)
                time.sleep(0.1)
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for path in (state, os.path.join(folder, name)):
        if os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.exists(path):
            os.remove(path)


def start_one(folder, name):
    binary, job, ready_path = SERVERS[name]
    if not shutil.which(binary):
        print(f'{binary} is not installed: the tests that share it start none and say so')
        return True
    stop_one(folder, name)  # what a killed run left
    work = os.path.join(folder, name)
    os.makedirs(work)
    for attempt in range(5):
        port = free_port()
        config = os.path.join(work, 'scrape.yml')
        with open(config, 'w') as f:
            f.write('global:\n  scrape_interval: 1s\n' + ('  evaluation_interval: 1s\n' if name == 'prometheus' else '') +
                    f'scrape_configs:\n  - job_name: {job}\n    static_configs:\n'
                    f"      - targets: ['127.0.0.1:{port}']\n")
        data = os.path.join(work, 'data')
        if name == 'prometheus':
            arguments = [f'--config.file={config}', f'--storage.tsdb.path={data}',
                         f'--web.listen-address=127.0.0.1:{port}', '--log.level=warn']
        else:
            arguments = [f'-promscrape.config={config}', f'-storageDataPath={data}',
                         f'-httpListenAddr=127.0.0.1:{port}', '-loggerLevel=ERROR']
        log = open(os.path.join(work, 'log'), 'ab')
        process = subprocess.Popen(['timeout', LIFETIME, shutil.which(binary)] + arguments, stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        url = f'http://127.0.0.1:{port}/'
        deadline = time.monotonic() + 60
        while process.poll() is None and not ready(url, ready_path) and time.monotonic() < deadline:
            time.sleep(0.1)
        if process.poll() is None and ready(url, ready_path):
            state = os.path.join(folder, name + '.json')
            with open(state + '.new', 'w') as f:
                json.dump({'url': url, 'pid': process.pid, 'log': os.path.join(work, 'log'),
                           'started_ms': int(time.time() * 1000)}, f)
            os.replace(state + '.new', state)
            print(f'{name} shared at {url} (pid {process.pid})')
            return True
        # The port was taken meanwhile by another test's server, or it did not come up.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        shutil.rmtree(data, ignore_errors=True)
        print(f'{name} on port {port} did not become ready (attempt {attempt + 1})')
    with open(os.path.join(work, 'log'), errors='replace') as f:
        print(f.read()[-4000:])
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('command', choices=('start', 'stop'))
    parser.add_argument('--dir', required=True)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    if args.command == 'stop':
        for name in SERVERS:
            stop_one(args.dir, name)
        return 0
    return 0 if all([start_one(args.dir, name) for name in SERVERS]) else 1


if __name__ == '__main__':
    sys.exit(main())
