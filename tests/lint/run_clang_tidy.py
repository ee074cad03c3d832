#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""clang-tidy over the project's own sources, with the checks of .clang-tidy, as errors.

Reads the build's compile_commands.json and checks every translation unit below models/,
widgets/, app/ and testbed/ (not the tests, not generated code). A file that was clean is
remembered in the build folder under a hash of its text, its compile command, .clang-tidy and
every header of ours, so a second run re-checks only what changed. The record is kept in the
user's cache folder ($XDG_CACHE_HOME or ~/.cache, chaoscope/clang-tidy) with the paths of the
checkout taken out, so another clone or build folder of the same sources benefits too.
Headers count only when they are ours: generated ones (protobuf, moc) in the build folder do
not.

usage: run_clang_tidy.py --build DIR [--source DIR] [--jobs N] [files...]
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

OURS = ('models/', 'widgets/', 'app/', 'testbed/')


def find_clang_tidy():
    for name in ('clang-tidy-14', 'clang-tidy'):
        path = shutil.which(name)
        if path:
            return path
    sys.exit('clang-tidy is not installed (Debian: apt-get install clang-tidy)')


def headers_digest(source):
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
    parser.add_argument('files', nargs='*')
    args = parser.parse_args()
    source = os.path.realpath(args.source)
    build = os.path.realpath(args.build)
    tidy = find_clang_tidy()

    with open(os.path.join(build, 'compile_commands.json')) as f:
        commands = json.load(f)
    units = {}
    for entry in commands:
        path = os.path.realpath(os.path.join(entry['directory'], entry['file']))
        relative = os.path.relpath(path, source)
        if relative.startswith(OURS) and '_autogen' not in relative and path.endswith('.cpp'):
            units[relative] = entry
    if args.files:
        units = {k: v for k, v in units.items() if k in args.files}
    if not units:
        sys.exit('no translation units of ours in ' + os.path.join(build, 'compile_commands.json'))

    with open(os.path.join(source, '.clang-tidy'), 'rb') as f:
        config = f.read()
    shared = hashlib.sha256(config + headers_digest(source).encode() + tidy.encode()).hexdigest()
    cache = os.path.join(os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'chaoscope',
                         'clang-tidy')
    os.makedirs(cache, exist_ok=True)
    # POSIX extended regex, as clang-tidy reads it: only its special characters escaped.
    literal = re.sub(r'([.\[\]()*+?{}|^$\\])', r'\\\1', source)
    header_filter = '^' + literal + '/(models|widgets|app|testbed)/'

    def key_of(relative, entry):
        with open(os.path.join(source, relative), 'rb') as f:
            text = f.read()
        command = entry.get('command') or ' '.join(entry.get('arguments', []))
        command = command.replace(build, '<build>').replace(source, '<source>')
        return hashlib.sha256(shared.encode() + relative.encode() + text + command.encode()).hexdigest()

    def check(relative):
        entry = units[relative]
        key = key_of(relative, entry)
        if os.path.exists(os.path.join(cache, key)):
            return relative, True, '', True
        result = subprocess.run([tidy, '-p', build, '--quiet', '--warnings-as-errors=*', '--header-filter=' + header_filter,
                                 '--extra-arg=-Wno-unknown-warning-option', os.path.join(source, relative)],
                                capture_output=True, text=True)
        clean = result.returncode == 0
        if clean:
            open(os.path.join(cache, key), 'w').close()
        output = '\n'.join(line for line in (result.stdout + result.stderr).splitlines()
                           if line and not line.endswith('warnings generated.') and 'Suppressed' not in line
                           and 'Use -header-filter' not in line and 'NOLINT' not in line)
        return relative, clean, output, False

    failed, cached = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for relative, clean, output, was_cached in pool.map(check, sorted(units)):
            cached += was_cached
            if not clean:
                failed.append(relative)
                print(output or f'{relative}: clang-tidy failed without a message', flush=True)
    print(f'clang-tidy: {len(units)} files ({cached} unchanged since a clean run), '
          f'{len(failed)} with findings' + (': ' + ', '.join(failed) if failed else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
