#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""clang-tidy over the project's own sources, with the checks of .clang-tidy, as errors.

Reads the build's compile_commands.json and checks every translation unit below models/,
widgets/, app/ and testbed/ (not the tests, not generated code).

A unit found clean is remembered under a key of what its result depends on: its own text,
its compile command, .clang-tidy, the clang-tidy binary and the headers it actually includes,
as the build recorded them (Ninja's deps log, `ninja -t deps`). A header of ours or a
generated one counts by its content; a system header (Qt, the standard library) by its path,
size and time, so a package upgrade checks everything again. A change to one header
re-checks only the units that include it. Where the build has no record of a unit's headers
(not built yet, or built by another generator) every header of ours counts, as before.

The record is kept in the user's cache folder ($XDG_CACHE_HOME or ~/.cache,
chaoscope/clang-tidy) with the paths of the checkout and of the build taken out, so another
clone or build folder of the same sources benefits too.

usage: run_clang_tidy.py --build DIR [--source DIR] [--jobs N] [--all] [files...]
  --all    check every unit, whatever the cache says (the cache still learns the clean ones)
  files    only these units (paths relative to the source folder)
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

OURS = ('models/', 'widgets/', 'app/', 'testbed/')


def find_clang_tidy():
    for name in ('clang-tidy-14', 'clang-tidy'):
        path = shutil.which(name)
        if path:
            return path
    sys.exit('clang-tidy is not installed (Debian: apt-get install clang-tidy)')


def tidy_identity(tidy):
    """The binary's version and its file's identity: a new clang-tidy may find more."""
    version = subprocess.run([tidy, '--version'], capture_output=True, text=True).stdout
    stat = os.stat(os.path.realpath(tidy))
    return f'{version}|{stat.st_size}|{stat.st_mtime_ns}'


def build_deps(build):
    """Object file (relative to the build folder) -> the absolute paths it was built from.

    Read from Ninja's deps log; an object whose record is missing or stale is left out,
    so its unit falls back to every header of ours."""
    if not os.path.exists(os.path.join(build, '.ninja_deps')) or not shutil.which('ninja'):
        return {}
    result = subprocess.run(['ninja', '-C', build, '-t', 'deps'], capture_output=True, text=True)
    if result.returncode != 0:
        return {}
    deps, current = {}, None
    for line in result.stdout.splitlines():
        if not line:
            current = None
        elif not line.startswith(' '):
            target, _, status = line.partition(': #deps')
            current = [] if status.rstrip().endswith('(VALID)') else None
            if current is not None:
                deps[os.path.normpath(target)] = current
        elif current is not None:
            current.append(os.path.normpath(os.path.join(build, line.strip())))
    return deps


class Digests:
    """Content digests of headers, each file read once per run."""

    def __init__(self, source, build):
        self.source = source
        self.build = build
        self.cache = {}

    def of(self, path):
        if path in self.cache:
            return self.cache[path]
        if path.startswith(self.source + os.sep) and not path.startswith(self.build + os.sep):
            name = os.path.relpath(path, self.source)
            digest = self._content(path, name)
        elif path.startswith(self.build + os.sep):
            # Generated (protobuf, moc): by content, with the folders taken out.
            name = '<build>/' + os.path.relpath(path, self.build)
            digest = self._content(path, name)
        else:
            try:
                stat = os.stat(path)
                digest = f'{path}|{stat.st_size}|{stat.st_mtime_ns}'
            except OSError:
                digest = f'{path}|missing'
        self.cache[path] = digest
        return digest

    def _content(self, path, name):
        try:
            with open(path, 'rb') as f:
                text = f.read()
        except OSError:
            return f'{name}|missing'
        text = text.replace(self.build.encode(), b'<build>').replace(self.source.encode(), b'<source>')
        return name + '|' + hashlib.sha256(text).hexdigest()


def object_of(entry):
    """The object file a compile command writes (CMake before 3.26 names it only in the command)."""
    if entry.get('output'):
        return entry['output']
    arguments = entry.get('arguments') or shlex.split(entry.get('command', ''))
    for flag, value in zip(arguments, arguments[1:]):
        if flag == '-o':
            return value
    return ''


def all_our_headers(source):
    """The fallback for a unit whose headers the build did not record."""
    digest = hashlib.sha256()
    for top in OURS:
        for folder, _, names in sorted(os.walk(os.path.join(source, top))):
            for name in sorted(names):
                if name.endswith('.h'):
                    with open(os.path.join(folder, name), 'rb') as f:
                        digest.update(name.encode() + f.read())
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--build', required=True)
    parser.add_argument('--source', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    parser.add_argument('--all', action='store_true', help='check every unit, whatever the cache says')
    parser.add_argument('files', nargs='*')
    args = parser.parse_args()
    source = os.path.realpath(args.source)
    build = os.path.realpath(args.build)
    tidy = find_clang_tidy()
    started = time.monotonic()

    with open(os.path.join(build, 'compile_commands.json')) as f:
        commands = json.load(f)
    units = {}
    for entry in commands:
        path = os.path.realpath(os.path.join(entry['directory'], entry['file']))
        relative = os.path.relpath(path, source)
        if relative.startswith(OURS) and '_autogen' not in relative and path.endswith('.cpp'):
            units[relative] = entry
    if args.files:
        wanted = {os.path.normpath(f) for f in args.files}
        units = {k: v for k, v in units.items() if k in wanted}
    if not units:
        sys.exit('no translation units of ours in ' + os.path.join(build, 'compile_commands.json'))

    with open(os.path.join(source, '.clang-tidy'), 'rb') as f:
        config = f.read()
    shared = hashlib.sha256(config + tidy_identity(tidy).encode()).hexdigest()
    deps = build_deps(build)
    digests = Digests(source, build)
    fallback = None
    unrecorded = []
    cache = os.path.join(os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'chaoscope',
                         'clang-tidy')
    os.makedirs(cache, exist_ok=True)
    # POSIX extended regex, as clang-tidy reads it: only its special characters escaped.
    literal = re.sub(r'([.\[\]()*+?{}|^$\\])', r'\\\1', source)
    header_filter = '^' + literal + '/(models|widgets|app|testbed)/'

    def key_of(relative, entry):
        nonlocal fallback
        with open(os.path.join(source, relative), 'rb') as f:
            text = f.read()
        command = entry.get('command') or ' '.join(entry.get('arguments', []))
        command = command.replace(build, '<build>').replace(source, '<source>')
        own = os.path.join(source, relative)
        headers = deps.get(os.path.normpath(object_of(entry)))
        if headers is None:
            unrecorded.append(relative)
            if fallback is None:
                fallback = all_our_headers(source)
            included = 'every header of ours ' + fallback
        else:
            included = '\n'.join(sorted(digests.of(h) for h in headers if h != own))
        return hashlib.sha256(shared.encode() + relative.encode() + text + command.encode() +
                              included.encode()).hexdigest()

    keys = {relative: key_of(relative, entry) for relative, entry in units.items()}
    to_check = sorted(r for r in units if args.all or not os.path.exists(os.path.join(cache, keys[r])))
    # The longest units first, so that two workers finish together.
    to_check.sort(key=lambda r: -os.path.getsize(os.path.join(source, r)))

    def check(relative):
        result = subprocess.run([tidy, '-p', build, '--quiet', '--warnings-as-errors=*', '--header-filter=' + header_filter,
                                 '--extra-arg=-Wno-unknown-warning-option', os.path.join(source, relative)],
                                capture_output=True, text=True)
        clean = result.returncode == 0
        if clean:
            open(os.path.join(cache, keys[relative]), 'w').close()
        output = '\n'.join(line for line in (result.stdout + result.stderr).splitlines()
                           if line and not line.endswith('warnings generated.') and 'Suppressed' not in line
                           and 'Use -header-filter' not in line and 'NOLINT' not in line)
        return relative, clean, output

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for relative, clean, output in pool.map(check, to_check):
            if not clean:
                failed.append(relative)
                print(output or f'{relative}: clang-tidy failed without a message', flush=True)
    seconds = time.monotonic() - started
    if unrecorded:
        print(f'clang-tidy: the build has no record of the headers of {len(unrecorded)} files '
              f'(not built yet?); for them any header of ours counts')
    unchanged = len(units) - len(to_check)
    if not to_check:
        print(f'clang-tidy: checked nothing: all {len(units)} files are unchanged since a clean run '
              f'(their text, command, headers and .clang-tidy); --all checks them anyway')
    else:
        print(f'clang-tidy: checked {len(to_check)} of {len(units)} files in {seconds:.0f} s '
              f'({unchanged} unchanged since a clean run), {len(failed)} with findings' +
              (': ' + ', '.join(sorted(failed)) if failed else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
