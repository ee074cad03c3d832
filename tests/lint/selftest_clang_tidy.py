#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""run_clang_tidy.py re-checks a file only when something it depends on changed.

Builds a tiny project with CMake and Ninja in a scratch folder (two units of ours, a header
that only one of them includes, and one with a finding), then runs the checker on it as the
test lint.clang_tidy runs it and reads what it says it checked.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, 'run_clang_tidy.py')


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as f:
        f.write(text)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, 'src')
        build = os.path.join(scratch, 'build')
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(scratch, 'cache'))
        write(source, 'CMakeLists.txt', 'cmake_minimum_required(VERSION 3.16)\nproject(t CXX)\n'
              'set(CMAKE_EXPORT_COMPILE_COMMANDS ON)\nadd_library(t STATIC models/a/a.cpp models/b/b.cpp)\n'
              'target_include_directories(t PRIVATE models)\n')
        write(source, '.clang-tidy', "Checks: '-*,modernize-use-nullptr'\n")
        write(source, 'models/a/a.h', 'int a();\n')
        write(source, 'models/a/a.cpp', '#include "a/a.h"\nint a() { return 1; }\n')
        write(source, 'models/b/b.cpp', 'int b() { return 2; }\n')

        def configure_and_build():
            subprocess.run(['cmake', '-S', source, '-B', build, '-G', 'Ninja'], check=True, capture_output=True)
            subprocess.run(['cmake', '--build', build], check=True, capture_output=True)

        def run(*extra):
            result = subprocess.run([sys.executable, RUNNER, '--build', build, '--source', source, '--jobs', '1'] +
                                    list(extra), capture_output=True, text=True, env=env)
            return result.returncode, result.stdout + result.stderr

        def expect(what, outcome, code, words):
            returncode, output = outcome
            if returncode != code or words not in output:
                failures.append(f'{what}: expected exit {code} and "{words}", got exit {returncode}:\n{output}')

        configure_and_build()
        expect('first run', run(), 0, 'checked 2 of 2 files')
        expect('nothing changed', run(), 0, 'checked nothing: all 2 files are unchanged')
        # A header counts for the units that include it, and only for them.
        write(source, 'models/a/a.h', 'int a(); // changed\n')
        configure_and_build()
        expect('header of a changed', run(), 0, 'checked 1 of 2 files')
        expect('--all', run('--all'), 0, 'checked 2 of 2 files')
        # Back to a text once found clean: remembered.
        write(source, 'models/a/a.h', 'int a();\n')
        configure_and_build()
        expect('header as before', run(), 0, 'checked nothing')
        # A finding fails the run, names the file and is not remembered as clean.
        write(source, 'models/b/b.cpp', 'int *b() { return 0; }\n')
        configure_and_build()
        expect('a finding', run(), 1, '1 with findings: models/b/b.cpp')
        expect('a finding again', run(), 1, 'checked 1 of 2 files')
        # The same sources in another clone and build folder: nothing to check again.
        write(source, 'models/b/b.cpp', 'int b() { return 3; }\n')
        configure_and_build()
        expect('mended', run(), 0, 'checked 1 of 2 files')
        clone = os.path.join(scratch, 'clone')
        shutil.copytree(source, clone)
        source, build = clone, os.path.join(scratch, 'build2')
        configure_and_build()
        expect('another clone', run(), 0, 'checked nothing')
    for failure in failures:
        print(failure)
    print('clang-tidy runner self-test: ' + ('FAILED' if failures else 'every case as expected'))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
