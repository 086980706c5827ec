"""Parsers of what decision collection saved from the tools (git numstat,
spatch, pmccabe, ctags, the sizes probe, grep) and the evaluation of
sg_tablesize expressions; pure functions of text."""
import ast
import json
import os
import re

from bench.decision_rules import ACCESSORS, CLASSES, CTAGS_KINDS, NOT_API


# ---------------------------------------------------------------- parsers

def parse_numstat(text):
    """git diff --numstat: [(added, removed, path)]; binary files count 0."""
    out = []
    for line in text.splitlines():
        a, r, path = line.split('\t', 2)
        out.append((0 if a == '-' else int(a), 0 if r == '-' else int(r), path))
    return out


def churn_class(path, drivers=()):
    """Which part of the change a file belongs to (DRIVERS: the converted
    drivers' files)."""
    if re.search(r'kunit|_bench\.c$|Kconfig\.debug$', path):
        return 'tests'
    if path.startswith(('include/linux/', 'lib/', 'block/', 'kernel/dma/', 'drivers/iommu/')):
        return 'API'
    if path in drivers:
        return 'drivers'
    if path.startswith(('drivers/scsi/', 'include/scsi/')):
        return 'SCSI core'
    return 'other'


def churn(numstat, drivers=()):
    """{class: [files, added, removed]} plus 'total'."""
    out = {c: [0, 0, 0] for c in CLASSES + ['total']}
    for a, r, path in numstat:
        for c in (churn_class(path, drivers), 'total'):
            out[c][0] += 1
            out[c][1] += a
            out[c][2] += r
    return out


def parse_groups(text):
    """groups-6.1.txt: blank-line separated groups of paths, one per driver."""
    return [g.split() for g in re.split(r'\n\s*\n', text) if g.split()]


def parse_cocci(text):
    """spatch -D patch output: {path: [added, removed, accessor sites removed,
    template flagged]}."""
    rx = re.compile(r'\b(%s)\b' % '|'.join(ACCESSORS))
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith('--- '):
            cur = out.setdefault(line[4:].split()[0], [0, 0, 0, False])
        elif line.startswith('+++ ') or cur is None:
            continue
        elif line.startswith('+'):
            cur[0] += 1
            cur[2] -= len(rx.findall(line))
            cur[3] |= bool(re.search(r'\.use_sg_ring\s*=\s*1', line))
        elif line.startswith('-'):
            cur[1] += 1
            cur[2] += len(rx.findall(line))
    return out


def parse_pmccabe(text):
    """pmccabe lines: {function: (modified, traditional, statements, first, lines)}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r'(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\S+\(\d+\):\s+(\S+)$', line)
        if m:
            out[m.group(6)] = tuple(int(m.group(i)) for i in range(1, 6))
    return out


def strip_c(text):
    """C text without comments and string/char literals."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '""', text)


def api_calls(body, own):
    """Distinct names called in a function body (identifier followed by
    '('), without keywords, generic helpers (NOT_API) and the function's
    own name."""
    text = strip_c(body)
    brace = text.find('{')
    text = text[brace:] if brace >= 0 else text
    names = set(re.findall(r'\b([A-Za-z_]\w*)\s*\(', text))
    return sorted(n for n in names if n not in NOT_API and n != own)


def ctags_json(text):
    """ctags --output-format=json lines, as collect writes them (each
    record's path the header's path in the tree): [tag records]."""
    return [r for r in map(json.loads, text.splitlines()) if r.get('_type') == 'tag']


def ctags_xformat(text):
    """The raw file of runs before ctags' JSON: 'header|%K|%N|%s|%C' lines
    (ctags -x --_xformat) -> the records ctags_json gives."""
    out = []
    for line in text.splitlines():
        parts = line.split('|', 4)
        if len(parts) == 5:
            path, kind, name, scope, src = parts
            out.append({'_type': 'tag', 'path': path, 'kind': kind, 'name': name, 'pattern': src,
                        **({'scope': scope} if scope else {})})
    return out


def parse_ctags(records):
    """ctags tag records (kind, name, scope, pattern): sorted unique
    (kind, name) with kind one of function/macro/struct field; include
    guards and static_assert artefacts dropped; fields named scope.field."""
    out = set()
    for r in records:
        kind, name, scope = CTAGS_KINDS.get(r['kind']), r['name'], r.get('scope', '')
        if not kind:
            continue
        if kind == 'macro' and re.match(r'_+[A-Z0-9_]*_H_*$|_LINUX_[A-Z0-9_]*_H$', name):
            continue
        if 'static_assert' in r.get('pattern', '') or 'BUILD_BUG' in r.get('pattern', ''):
            continue
        if kind == 'struct field':
            if not scope:
                continue
            # ctags names anonymous structs and unions by a hash of the file
            name = re.sub(r'__anon[0-9a-f]*', '(anon)', f'{scope}.{name}')
        out.add((kind, name))
    return sorted(out)


def parse_sizes(text):
    """'name value' lines (from the compiled probe) -> {name: int}."""
    out = {}
    for line in text.splitlines():
        if line.strip():
            k, v = line.split()
            out[k] = int(v)
    return out


def parse_grep(text):
    """git grep -n -o lines '<file>:<line>:<match>' -> [(file, line, match)]."""
    out = []
    for line in text.splitlines():
        path, ln, match = line.split(':', 2)
        out.append((path, int(ln), match))
    return out


def subsystem(path):
    parts = path.split('/')
    return '/'.join(parts[:2]) if parts[0] in ('drivers', 'arch', 'include') and len(parts) > 2 else parts[0]


def int_eval(expr):
    """Value of an integer constant expression (ints, + - * / << >> ( )),
    or None."""
    expr = re.sub(r'\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b', r'\1', expr.strip())
    try:
        tree = ast.parse(expr, mode='eval')
    except SyntaxError:
        return None
    ok = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult,
          ast.Div, ast.FloorDiv, ast.LShift, ast.RShift, ast.USub, ast.UAdd)
    if not all(isinstance(n, ok) for n in ast.walk(tree)):
        return None
    if not all(isinstance(n.value, int) for n in ast.walk(tree) if isinstance(n, ast.Constant)):
        return None
    try:
        return int(eval(compile(tree, '<expr>', 'eval')))  # noqa: S307 - checked above
    except (ZeroDivisionError, ValueError):
        return None


def parse_defines(text, known=None):
    """git grep -n lines '<file>:<line>:#define NAME value' or
    '<file>:<line>:  NAME = value,' (an enum constant) -> {NAME: [(file,
    value)]}; KNOWN ({NAME: int}, the compiled values) take precedence."""
    out = {}
    for line in text.splitlines():
        path, _, src = line.split(':', 2)
        m = re.match(r'\s*#\s*define\s+(\w+)\s+(.*?)\s*(/\*.*)?$', src) or \
            re.match(r'\s*(\w+)\s*=\s*((?:[^,/]|/(?![*/]))*?)\s*,?\s*(/[*/].*)?$', src)
        if m and '(' not in src.split(m.group(1), 1)[1][:1]:
            out.setdefault(m.group(1), []).append((path, m.group(2)))
    for k, v in (known or {}).items():
        out[k] = [('', str(v))]
    return out


def resolve(expr, path, defines, depth=0):
    """Integer value of EXPR as used in PATH, resolving macros through
    DEFINES (a definition in the same file first, then in the same
    directory, then a single value across the tree), or None."""
    expr = re.sub(r'/\*.*?\*/', '', expr).strip().rstrip(',;').strip()
    v = int_eval(expr)
    if v is not None or depth > 4:
        return v
    names = set(re.findall(r'\b[A-Za-z_]\w*\b', expr))
    if not names:
        return None
    for n in names:
        cands = defines.get(n)
        if not cands:
            return None
        same = [val for p, val in cands if p == path] or \
            [val for p, val in cands if os.path.dirname(p) == os.path.dirname(path)]
        vals = {resolve(val, p, defines, depth + 1) for p, val in cands} if not same else \
            {resolve(val, path, defines, depth + 1) for val in same}
        if len(vals) != 1 or None in vals:
            return None
        expr = re.sub(r'\b%s\b' % n, str(vals.pop()), expr)
    return int_eval(expr)


def parse_tablesize(text):
    """git grep -n lines '<file>:<line>:<text>' of sg_tablesize assignments
    -> [(file, line, value text)].  USB host controllers' own
    hcd->self.sg_tablesize (struct usb_bus, not a SCSI host) is left out."""
    out = []
    for line in text.splitlines():
        path, ln, src = line.split(':', 2)
        if re.search(r'\bself\.sg_tablesize', src):
            continue
        m = re.search(r'sg_tablesize\s*=\s*([^;,]*(\([^)]*\))?[^;,]*)', src)
        if m:
            out.append((path, int(ln), m.group(1).strip()))
    return out
