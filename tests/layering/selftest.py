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
    'models/dashboard/dashboarddefinition.h': '#pragma once\n#include "base/result.h"\n',
    'models/fetching/dashboardsnapshot.h': '#pragma once\n#include "dashboard/dashboarddefinition.h"\n',
    'models/fetching/dashboardpoller.h': '#pragma once\n#include "fetching/dashboardsnapshot.h"\n',
    'models/report/postdraft.h': '#pragma once\n#include "fetching/dashboardsnapshot.h"\n',
    'widgets/chart/timelinechart.h': '#pragma once\n#include <QWidget>\n#include "store/samplestore.h"\n',
    'app/mainwindow.h': '#pragma once\n#include "chart/timelinechart.h"\n#include "fetching/dashboardpoller.h"\n',
    'testbed/starter/starter.cpp': '#include "startermetrics.h"\n#include "loadtester.pb.h"\n',
    'testbed/starter/startermetrics.h': '#pragma once\n',
    'bench/render_bench.cpp': '#include "store/samplestore.h"\n#include "benchdata.h"\n',
    'bench/benchdata.h': '#pragma once\n',
}

CASES = [
    ('a widget header in models/', {'models/store/samplestore.h': '#pragma once\n#include <QWidget>\n'},
     'models/store/samplestore.h:2: models/ includes a widget header: #include <QWidget>'),
    ('our widget in models/', {'models/store/samplestore.h': '#pragma once\n#include "chart/timelinechart.h"\n'},
     'models/store/samplestore.h:2: includes "chart/timelinechart.h": models/ must not include widgets/'),
    ('app/ in widgets/', {'widgets/chart/timelinechart.h': '#pragma once\n#include "mainwindow.h"\n'},
     'widgets/chart/timelinechart.h:2: includes "mainwindow.h": widgets/ must not include app/'),
    ('a leaf that reaches up', {'models/store/samplestore.h': '#pragma once\n#include "loadtester/loadtesteraction.h"\n'},
     'models/store/samplestore.h:2: includes "loadtester/loadtesteraction.h": store/ may include only base'),
    ('a format that needs a controller',
     {'models/session/format/sessioncontents.h': '#pragma once\n#include "loadtester/loadtestercontroller.h"\n'},
     'models/session/format/sessioncontents.h: reaches a QObject header (models/loadtester/loadtestercontroller.h)'),
    ('a room nobody placed', {'models/kitchen/sink.h': '#pragma once\n#include "base/result.h"\n'},
     'models/kitchen/ is not a room'),
    ('two widget folders in a circle',
     {'widgets/chart/timelinechart.h': '#pragma once\n#include "export/figure.h"\n',
      'widgets/export/figure.h': '#pragma once\n#include "chart/timelinechart.h"\n'},
     'folders include each other in a circle: widgets/chart, widgets/export'),
    ('two files of one folder in a circle',
     {'models/dashboard/loader/jsonsection.cpp': '#include "dashboard/loader/dashboardloader.h"\n',
      'models/dashboard/loader/jsonsection.h': '#pragma once\n',
      'models/dashboard/loader/dashboardloader.cpp': '#include "dashboard/loader/jsonsection.h"\n',
      'models/dashboard/loader/dashboardloader.h': '#pragma once\n'},
     'files include each other in a circle: models/dashboard/loader/dashboardloader, '
     'models/dashboard/loader/jsonsection'),
    ('a room that reaches the poller',
     {'models/report/postdraft.h': '#pragma once\n#include "fetching/dashboardpoller.h"\n'},
     'models/report/postdraft.h:2: includes "fetching/dashboardpoller.h": report/ may read the dashboard and what '
     'the poller carries, never the poller'),
    ('the testbed borrowing the app\'s code',
     {'testbed/starter/starter.cpp': '#include "store/samplestore.h"\n'},
     'testbed/starter/starter.cpp:1: includes "store/samplestore.h": testbed/ shares nothing with the libraries'),
    ('the doc\'s table of rooms drifting from the test\'s',
     {'docs/architecture.md': '## The rooms of `models/`\n\n| room | owns | may include |\n|---|---|---|\n'
                              '| `base/` | results | — |\n| `store/` | samples | base, net |\n'},
     'docs/architecture.md: the row of `store/` says it may include base, net; the layering test says base'),
    ('a widget room without a row in the doc',
     {'docs/architecture.md': '## The rooms of `widgets/` and `app/`\n\n| room | owns |\n|---|---|\n'},
     'docs/architecture.md: the table of widgets/ and app/ has no row for `widgets/chart/`'),
    ('a benchmark measuring the testbed',
     {'bench/render_bench.cpp': '#include "startermetrics.h"\n'},
     'bench/render_bench.cpp:1: includes "startermetrics.h": bench/ measures Chaoscope'),
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
