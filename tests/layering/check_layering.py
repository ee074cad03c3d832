#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which room of the house may include which (docs/architecture.md, "Rules").

Reads every #include "..." of models/, widgets/ and app/ and fails, naming the file, the line
and the include, when
  1. models/ includes a widget (Qt's or ours) or anything of app/; widgets/ includes app/;
  2. a folder of models/ includes a folder it is not listed with below (store/ and
     annotations/ are leaves; a new room gets a line here, and so a place in the order);
  3. a value-type room (session/format/, the dashboard's definition …) reaches a header that
     declares a QObject, directly or through other headers: value types live apart from
     QObjects, so a file format never drags in a controller;
  4. two folders include each other, directly or around a circle; or two files do (a.cpp
     includes b.h and b.cpp includes a.h): one of them holds what both need;
  5. a room of models/ other than fetching/ includes the poller: the rooms read the dashboard
     document and what the poller's signals carry (the snapshot, the bindings), never the engine;
  6. docs/architecture.md's table of rooms says otherwise than MODEL_ROOMS below, or misses a
     folder of widgets/ or app/ (the doc is read, so the two cannot drift);
  7. testbed/ includes a header of the libraries (it shares nothing with them but the .proto
     files), or bench/ includes the testbed's code (a benchmark measures Chaoscope).

usage: check_layering.py [--root DIR]
"""
import argparse
import collections
import os
import re
import sys

# The rooms of models/ and what each may include besides itself. Lower rooms first.
MODEL_ROOMS = {
    'base': [],
    'net': ['base'],
    'prometheus': ['base', 'net'],
    'store': ['base'],
    'annotations': ['base'],
    'checks': ['base'],
    'timeline': ['base', 'store'],
    'dashboard': ['base', 'store', 'checks'],
    'fetching': ['base', 'net', 'prometheus', 'store', 'timeline', 'checks', 'dashboard'],
    'grafana': ['base', 'checks', 'dashboard'],
    'analysis': ['base', 'prometheus', 'store', 'annotations', 'checks', 'dashboard', 'fetching'],
    'loadtester/adapters': ['base', 'net'],
    'loadtester': ['base', 'net', 'prometheus', 'store', 'annotations', 'dashboard', 'loadtester/adapters'],
    'kubernetes': ['base', 'net', 'store', 'annotations', 'dashboard'],
    'scenario': ['base', 'prometheus', 'store', 'annotations', 'checks', 'dashboard', 'loadtester', 'loadtester/adapters',
                 'kubernetes'],
    'session/format': ['base', 'store', 'annotations', 'loadtester', 'loadtester/adapters'],
    'session': ['base', 'store', 'timeline', 'annotations', 'dashboard', 'loadtester', 'loadtester/adapters',
                'session/format'],
    'report': ['base', 'store', 'annotations', 'checks', 'dashboard', 'fetching', 'analysis', 'scenario'],
    'explore': ['base', 'net', 'prometheus', 'dashboard', 'fetching'],
}

# Headers and rooms that hold value types only: nothing they include, however indirectly, may
# declare a QObject.
VALUE_ROOMS = ['models/session/format/']
VALUE_HEADERS = ['models/dashboard/dashboarddefinition.h', 'models/loadtester/loadtesteraction.h',
                 'models/base/result.h', 'models/base/timerange.h',
                 # the poller's pure pieces and what its signals carry
                 'models/fetching/historyplanner.h', 'models/fetching/fetchcoverage.h',
                 'models/fetching/seriesbindings.h', 'models/fetching/dashboardsnapshot.h',
                 'models/store/serieskey.h',
                 'models/kubernetes/workload.h', 'models/kubernetes/workloadchange.h',
                 'models/kubernetes/kubeconfig.h', 'models/scenario/scenario.h',
                 'models/checks/check.h', 'models/scenario/scenarioverdict.h',
                 'models/scenario/loadshape.h', 'models/scenario/ceilingsearch.h']

# The fetching engine itself: only its own room of models/ includes it.
ENGINE_HEADERS = ['models/fetching/dashboardpoller.h']
ENGINE_ROOM = 'fetching'

WIDGET_INCLUDE = re.compile(r'#\s*include\s*<(QtWidgets/|QtCharts/|QWidget|QMainWindow|QChart|QPainter|QDialog|'
                            r'QLabel|QAbstractButton|QPushButton|QLineEdit|QMenu|QToolBar|QDockWidget|QStyle|'
                            r'QApplication)')
OUR_INCLUDE = re.compile(r'#\s*include\s*"([^"]+)"')
LIBRARIES = ['models', 'widgets', 'app']
# Programs and scripts beside the libraries, checked by rule 7.
NEIGHBOURS = ['testbed', 'bench']


def scan(root):
    """files: path -> [(line number, include text)]; headers: include name -> path"""
    files, headers = {}, {}
    for library in LIBRARIES:
        for folder, _, names in os.walk(os.path.join(root, library)):
            for name in names:
                if not name.endswith(('.h', '.cpp')):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, '/')
                if name.endswith('.h'):
                    headers.setdefault(path[len(library) + 1:], []).append(path)
                with open(os.path.join(root, path), encoding='utf-8') as f:
                    files[path] = list(enumerate(f.read().splitlines(), 1))
    return files, headers


def scan_neighbours(root):
    """path -> [(line number, include text)] of testbed/ and bench/; testbed's header names"""
    files, testbed_headers = {}, set()
    for top in NEIGHBOURS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if not name.endswith(('.h', '.cpp')):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, '/')
                if top == 'testbed' and name.endswith('.h'):
                    testbed_headers.add(name)
                with open(os.path.join(root, path), encoding='utf-8') as f:
                    files[path] = list(enumerate(f.read().splitlines(), 1))
    return files, testbed_headers


def resolve(include, including_library, headers):
    """The file an include names: its own library's root first, then the others (as the compiler)."""
    candidates = headers.get(include, [])
    for path in candidates:
        if path.startswith(including_library + '/'):
            return path
    return candidates[0] if candidates else None


def room_of(path):
    library, rest = path.split('/', 1)
    folder = os.path.dirname(rest)
    return library, folder


def model_room(folder):
    # the longest declared room the folder is in: loadtester/adapters before loadtester
    for room in sorted(MODEL_ROOMS, key=len, reverse=True):
        if folder == room or folder.startswith(room + '/'):
            return room
    return None


def check(root):
    files, headers = scan(root)
    problems = []
    includes = collections.defaultdict(list)  # path -> [(line, include, resolved path)]
    for path, lines in files.items():
        library, _ = room_of(path)
        for number, text in lines:
            if library == 'models' and WIDGET_INCLUDE.search(text):
                problems.append(f'{path}:{number}: models/ includes a widget header: {text.strip()}')
            match = OUR_INCLUDE.search(text)
            if not match:
                continue
            target = resolve(match.group(1), library, headers)
            if target:
                includes[path].append((number, match.group(1), target))

    # 1 and 2: who may include whom
    folder_edges = collections.defaultdict(list)
    for path, found in includes.items():
        library, folder = room_of(path)
        for number, include, target in found:
            target_library, target_folder = room_of(target)
            where = f'{path}:{number}: includes "{include}"'
            if library == 'models' and target_library != 'models':
                problems.append(f'{where}: models/ must not include {target_library}/ (widgets show what models '
                                'compute, never the other way)')
                continue
            if library == 'widgets' and target_library == 'app':
                problems.append(f'{where}: widgets/ must not include app/')
                continue
            source_node, target_node = f'{library}/{folder}'.rstrip('/'), f'{target_library}/{target_folder}'.rstrip('/')
            if source_node != target_node:
                folder_edges[(source_node, target_node)].append(where)
            if library == 'models':
                room, target_room = model_room(folder), model_room(target_folder)
                if room is None:
                    problems.append(f'{path}: models/{folder}/ is not a room of tests/layering/check_layering.py: '
                                    'give it a line in MODEL_ROOMS')
                    continue
                if target_room != room and target_room not in MODEL_ROOMS[room]:
                    problems.append(f'{where}: {room}/ may include only {", ".join(MODEL_ROOMS[room]) or "itself"}'
                                    f' (not {target_room}/)')
                elif target in ENGINE_HEADERS and room != ENGINE_ROOM:
                    problems.append(f'{where}: {room}/ may read the dashboard and what the poller carries, never '
                                    'the poller')

    # 3: value types stay apart from QObjects
    declares_qobject = {path for path, lines in files.items()
                        if path.endswith('.h') and any('Q_OBJECT' in text
                                                       for _, text in lines)}
    value_files = [p for p in files if any(p.startswith(r) for r in VALUE_ROOMS) or p in VALUE_HEADERS]
    for start in sorted(value_files):
        seen, queue = {start}, collections.deque([(start, [])])
        while queue:
            path, chain = queue.popleft()
            for number, include, target in includes.get(path, []):
                if target in seen:
                    continue
                seen.add(target)
                step = chain + [f'{path}:{number} "{include}"']
                if target in declares_qobject:
                    problems.append(f'{start}: reaches a QObject header ({target}) through '
                                    + ' -> '.join(step) + ': value types belong in a header without a QObject')
                    continue
                queue.append((target, step))

    # 4: no circles between folders, nor between two files (a header and its source are one unit)
    problems += circles('folders', folder_edges, lambda a, b, where: f'{a} -> {b}: {where}')
    unit_edges = collections.defaultdict(list)
    for path, found in includes.items():
        for number, include, target in found:
            a, b = os.path.splitext(path)[0], os.path.splitext(target)[0]
            if a != b:
                unit_edges[(a, b)].append(f'{path}:{number}: includes "{include}"')
    problems += circles('files', unit_edges, lambda a, b, where: where)

    problems += check_doc(root)

    # 7: the testbed and the benchmarks
    neighbours, testbed_headers = scan_neighbours(root)
    library_headers = set(headers)
    for path, lines in neighbours.items():
        for number, text in lines:
            match = OUR_INCLUDE.search(text)
            if not match:
                continue
            include = match.group(1)
            where = f'{path}:{number}: includes "{include}"'
            if path.startswith('testbed/') and include in library_headers:
                problems.append(f'{where}: testbed/ shares nothing with the libraries but the .proto files')
            elif path.startswith('bench/') and '/' not in include and include in testbed_headers \
                    and not os.path.exists(os.path.join(root, os.path.dirname(path), include)):
                problems.append(f'{where}: bench/ measures Chaoscope, not the testbed\'s code')
    return problems, len(files) + len(neighbours)


DOC = 'docs/architecture.md'
MODELS_HEADING = '## The rooms of `models/`'
WIDGETS_HEADING = '## The rooms of `widgets/` and `app/`'
ROW = re.compile(r'^\|\s*`([^`]+)/`\s*\|(?:.*\|)?\s*([^|]*?)\s*\|\s*$')


def table_rows(lines, heading):
    """(room, last cell) of the table under the heading"""
    rows, inside = [], False
    for line in lines:
        if line.startswith('## '):
            inside = line.strip() == heading
            continue
        match = ROW.match(line) if inside else None
        if match:
            rows.append((match.group(1), match.group(2)))
    return rows


def check_doc(root):
    path = os.path.join(root, DOC)
    if not os.path.exists(path):
        return []
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    problems = []
    documented = {}
    for room, cell in table_rows(lines, MODELS_HEADING):
        cell = re.sub(r'\([^)]*\)', '', cell)
        documented[room] = [] if cell.strip() in ('—', '-', '') else [r.strip() for r in cell.split(',')]
    for room in MODEL_ROOMS:
        if room not in documented:
            problems.append(f'{DOC}: the table of models/ has no row for `{room}/` '
                            f'(may include: {", ".join(MODEL_ROOMS[room]) or "—"})')
        elif sorted(documented[room]) != sorted(MODEL_ROOMS[room]):
            problems.append(f'{DOC}: the row of `{room}/` says it may include {", ".join(documented[room]) or "—"}; '
                            f'the layering test says {", ".join(MODEL_ROOMS[room]) or "—"}')
    for room in documented:
        if room not in MODEL_ROOMS:
            problems.append(f'{DOC}: `{room}/` is no room of models/ in tests/layering/check_layering.py')
    rows = {room for room, _ in table_rows(lines, WIDGETS_HEADING)}
    for library in ('widgets', 'app'):
        top = os.path.join(root, library)
        folders = {name for name in os.listdir(top) if os.path.isdir(os.path.join(top, name))} \
            if os.path.isdir(top) else set()
        for folder in sorted(folders):
            if f'{library}/{folder}' not in rows:
                problems.append(f'{DOC}: the table of widgets/ and app/ has no row for `{library}/{folder}/`')
        for room in sorted(rows):
            if room.startswith(library + '/') and room.split('/', 1)[1] not in folders:
                problems.append(f'{DOC}: `{room}/` has a row but no folder')
    return problems


def circles(what, edges, line):
    """One problem per circle of `edges` ((a, b) -> where a includes b), each edge of it on a line."""
    graph = collections.defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    problems = []
    for component in strongly_connected(graph):
        lines = [f'{what} include each other in a circle: {", ".join(sorted(component))}']
        for a in sorted(component):
            for b in sorted(component):
                if (a, b) in edges:
                    lines.append(f'    {line(a, b, edges[(a, b)][0])}')
        problems.append('\n'.join(lines))
    return problems


def strongly_connected(graph):
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    nodes = set(graph) | {b for targets in graph.values() for b in targets}
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--root', default=os.path.join(os.path.dirname(__file__), '..', '..'))
    args = parser.parse_args()
    problems, count = check(os.path.abspath(args.root))
    for problem in problems:
        print(problem)
    if problems:
        print(f'{len(problems)} layering problem(s) in {count} files; docs/architecture.md says why the rooms are '
              'ordered as they are')
        return 1
    print(f'layering: {count} files, every include in its place')
    return 0


if __name__ == '__main__':
    sys.exit(main())
