#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""check_layering.py on small trees: each rule catches what it is for and names the include,
and a tree that keeps the rules passes."""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check_layering.py')


def tree(files):
    root = tempfile.mkdtemp(prefix='layering-')
    for path, text in files.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), 'w', encoding='utf-8') as f:
            f.write(text)
    return root


def run(files):
    result = subprocess.run([sys.executable, CHECKER, '--root', tree(files)], capture_output=True, text=True)
    return result.returncode, result.stdout


CLEAN = {
    'models/base/result.h': '#pragma once\n',
    'models/store/samplestore.h': '#pragma once\n#include "base/result.h"\n',
    'models/loadtester/loadtestercontroller.h': '#pragma once\n#include "store/samplestore.h"\nclass C : public QObject\n{\n    Q_OBJECT\n};\n',
    'models/loadtester/loadtesteraction.h': '#pragma once\n#include "base/result.h"\n',
    'models/session/format/sessioncontents.h': '#pragma once\n#include "loadtester/loadtesteraction.h"\n',
    'widgets/timeline/timelinechart.h': '#pragma once\n#include <QWidget>\n#include "store/samplestore.h"\n',
    'app/mainwindow.h': '#pragma once\n#include "timeline/timelinechart.h"\n',
}

CASES = [
    ('a widget header in models/', {'models/store/samplestore.h': '#pragma once\n#include <QWidget>\n'},
     'models/store/samplestore.h:2: models/ includes a widget header: #include <QWidget>'),
    ('our widget in models/', {'models/store/samplestore.h': '#pragma once\n#include "timeline/timelinechart.h"\n'},
     'models/store/samplestore.h:2: includes "timeline/timelinechart.h": models/ must not include widgets/'),
    ('app/ in widgets/', {'widgets/timeline/timelinechart.h': '#pragma once\n#include "mainwindow.h"\n'},
     'widgets/timeline/timelinechart.h:2: includes "mainwindow.h": widgets/ must not include app/'),
    ('a leaf that reaches up', {'models/store/samplestore.h': '#pragma once\n#include "loadtester/loadtesteraction.h"\n'},
     'models/store/samplestore.h:2: includes "loadtester/loadtesteraction.h": store/ may include only base'),
    ('a format that needs a controller',
     {'models/session/format/sessioncontents.h': '#pragma once\n#include "loadtester/loadtestercontroller.h"\n'},
     'models/session/format/sessioncontents.h: reaches a QObject header (models/loadtester/loadtestercontroller.h)'),
    ('a room nobody placed', {'models/kitchen/sink.h': '#pragma once\n#include "base/result.h"\n'},
     'models/kitchen/ is not a room'),
    ('two widget folders in a circle',
     {'widgets/timeline/timelinechart.h': '#pragma once\n#include "export/figure.h"\n',
      'widgets/export/figure.h': '#pragma once\n#include "timeline/timelinechart.h"\n'},
     'folders include each other in a circle: widgets/export, widgets/timeline'),
]


def main():
    failures = 0
    code, out = run(CLEAN)
    if code != 0:
        print('a clean tree failed:\n' + out)
        failures += 1
    for name, change, expected in CASES:
        code, out = run({**CLEAN, **change})
        if code == 0 or expected not in out:
            print(f'{name}: expected a failure saying\n    {expected}\ngot (exit {code}):\n{out}')
            failures += 1
    print(f'{len(CASES) + 1 - failures} of {len(CASES) + 1} layering cases as expected')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
