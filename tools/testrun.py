#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The test tiers of ./dev around ctest: what a run took, flakes under load, the inner loop.

  testrun.py slowest JUNIT [--top 15]
      The slowest tests of a ctest run (its --output-junit file) with their times.
  testrun.py flakes --build DIR --runs N [--load K] [--jobs J] [ctest args...]
      Runs the whole suite N times while K busy processes (default: one per core) keep the
      cores loaded, and lists every test that failed at least once, with its runs.
  testrun.py changed --build DIR [--base REF]
      The unit and widgets test programs a change touches (the working tree against REF,
      default HEAD, with new files; HEAD's own commit when the tree is clean), one a line,
      then the translation units of ours among the changed files, after a line '--'.
  testrun.py select --build DIR TARGET...
      The ctest names of the tests of these test programs, as a regex for ctest -R.
"""
import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

SOURCE = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))


def junit_cases(path):
    """(name, seconds, status) of each test case of a ctest JUnit file."""
    cases = []
    for case in ElementTree.parse(path).getroot().iter('testcase'):
        if case.find('failure') is not None or case.get('status') == 'fail':
            status = 'failed'
        elif case.find('skipped') is not None or case.get('status') in ('disabled', 'notrun'):
            status = 'skipped'
        else:
            status = 'passed'
        cases.append((case.get('name'), float(case.get('time') or 0), status))
    return cases


def slowest(args):
    cases = junit_cases(args.junit)
    if not cases:
        print('no tests in ' + args.junit)
        return 0
    total = sum(seconds for _, seconds, _ in cases)
    print(f'The {min(args.top, len(cases))} slowest of {len(cases)} tests ({total / 60:.1f} test-minutes in all):')
    for name, seconds, status in sorted(cases, key=lambda c: -c[1])[:args.top]:
        print(f'  {seconds:7.1f} s  {name}' + ('' if status == 'passed' else f'  ({status})'))
    return 0


def spin():
    while True:
        pass


def flakes(args, ctest_args):
    load = args.load if args.load is not None else (os.cpu_count() or 2)
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(load)]
    for process in spinners:
        process.start()
    failures = {}
    durations = []
    try:
        for run in range(1, args.runs + 1):
            junit = os.path.join(args.build, f'flakes-run{run}.xml')
            started = time.monotonic()
            print(f'==> run {run} of {args.runs}, {load} busy processes beside it', flush=True)
            subprocess.run(['ctest', '--no-tests=error', '-j', str(args.jobs), '--output-junit', junit,
                            '--output-on-failure'] + ctest_args, cwd=args.build)
            durations.append(time.monotonic() - started)
            failed = [name for name, _, status in junit_cases(junit) if status == 'failed']
            for name in failed:
                failures.setdefault(name, []).append(run)
            print(f'==> run {run}: {len(failed)} failed in {durations[-1] / 60:.1f} min' +
                  (': ' + ', '.join(failed) if failed else ''), flush=True)
    finally:
        for process in spinners:
            process.terminate()
    print(f'\n{args.runs} runs under a load of {load} busy processes, '
          f'{min(durations) / 60:.1f} to {max(durations) / 60:.1f} min each')
    if not failures:
        print('no test failed in any run')
        return 0
    print(f'{len(failures)} tests failed at least once:')
    for name, runs in sorted(failures.items(), key=lambda item: (-len(item[1]), item[0])):
        print(f'  {len(runs)} of {args.runs}  {name}  (runs {", ".join(map(str, runs))})')
    return 1


def git(*arguments):
    return subprocess.run(['git', '-C', SOURCE] + list(arguments), capture_output=True, text=True,
                          check=True).stdout.split('\n')


def changed_files(base):
    files = {f for f in git('diff', '--name-only', base) if f}
    files |= {f for f in git('ls-files', '--others', '--exclude-standard') if f}
    if not files and base == 'HEAD':
        files = {f for f in git('diff', '--name-only', 'HEAD~1', 'HEAD') if f}
    return sorted(f for f in files if os.path.exists(os.path.join(SOURCE, f)))


def room_of(path):
    """('models', 'dashboard') for models/dashboard/loader/x.cpp; None outside the libraries."""
    parts = path.split('/')
    if parts[0] in ('models', 'widgets', 'app') and len(parts) > 2:
        return parts[1]
    if parts[0] == 'testbed':
        return 'testbed'
    return None


def object_deps(build):
    """Object file -> the source paths (relative to the checkout) it was built from."""
    result = subprocess.run(['ninja', '-C', build, '-t', 'deps'], capture_output=True, text=True)
    deps, current = {}, None
    for line in result.stdout.splitlines():
        if not line:
            current = None
        elif not line.startswith(' '):
            current = deps.setdefault(os.path.normpath(line.split(': #deps')[0]), set())
        elif current is not None:
            path = os.path.normpath(os.path.join(build, line.strip()))
            if path.startswith(SOURCE + os.sep):
                current.add(os.path.relpath(path, SOURCE))
    return deps


def changed(args):
    files = changed_files(args.base)
    rooms = {room_of(f) for f in files} - {None}
    deps = object_deps(args.build) if os.path.exists(os.path.join(args.build, '.ninja_deps')) else {}
    targets = set()
    for suite in ('unit', 'widgets'):
        top = os.path.join(SOURCE, 'tests', suite)
        for folder, _, names in os.walk(top):
            for name in names:
                if not name.endswith('_test.cpp'):
                    continue
                relative = os.path.relpath(os.path.join(folder, name), SOURCE)
                room = os.path.relpath(folder, top).split(os.sep)[0]
                target = f'{suite}_{name[:-len("_test.cpp")]}'
                built_from = deps.get(f'tests/CMakeFiles/{target}.dir/{suite}/'
                                      f'{os.path.relpath(os.path.join(folder, name), top)}.o', set())
                if room in rooms or relative in files or built_from & set(files):
                    targets.add(target)
    for target in sorted(targets):
        print(target)
    print('--')
    for f in files:
        if f.endswith('.cpp') and room_of(f):
            print(f)
    return 0


def select(args):
    listing = subprocess.run(['ctest', '--show-only=json-v1'], cwd=args.build, capture_output=True, text=True,
                             check=True)
    wanted = set(args.targets)
    names = [test['name'] for test in json.loads(listing.stdout).get('tests', [])
             if test.get('command') and os.path.basename(test['command'][0]) in wanted]
    if not names:
        return 1
    print('^(' + '|'.join(re.escape(n) for n in names) + ')$')
    return 0


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest='command', required=True)
    p = commands.add_parser('slowest')
    p.add_argument('junit')
    p.add_argument('--top', type=int, default=15)
    p = commands.add_parser('flakes')
    p.add_argument('--build', required=True)
    p.add_argument('--runs', type=int, required=True)
    p.add_argument('--load', type=int)
    p.add_argument('--jobs', type=int, default=int(os.environ.get('CTEST_JOBS', '3')))
    p = commands.add_parser('changed')
    p.add_argument('--build', required=True)
    p.add_argument('--base', default='HEAD')
    p = commands.add_parser('select')
    p.add_argument('--build', required=True)
    p.add_argument('targets', nargs='+')
    args, rest = parser.parse_known_args()
    if args.command == 'flakes':
        return flakes(args, rest)
    if rest:
        parser.error('unexpected arguments: ' + ' '.join(rest))
    return {'slowest': slowest, 'changed': changed, 'select': select}[args.command](args)


if __name__ == '__main__':
    sys.exit(main())
