"""Parse KTAP (the KUnit test output format) into one result per case.

KTAP v1 (Documentation/dev-tools/ktap.rst): a test is a line
``ok|not ok N [- ]name [# DIRECTIVE reason]``; subtests come before their
parent's line, indented by four spaces, with a ``1..N`` plan.  KUnit prints
one top-level test per suite, whose subtests are the cases; a parameterised
case has the parameters as its own subtests.

This reader is for the KUnit results 6.1 keeps in debugfs
(/sys/kernel/debug/kunit/<suite>/results, which the guest's init copies to
share/out/kunit/).  The kernel tree's own tools/testing/kunit/kunit_parser.py
reads complete KTAP, and the bench reads its guests' results.ktap with it
(bench/readers.py read_steps), but it rejects these files: 6.1's debugfs log
of a suite is truncated and misnumbered (tests/data/sg_api-6.1-debugfs.ktap,
a 9-case suite: kunit_parser.py reports 9 errors, "Expected test number 8
but found 7" and "missing subtest result line", and calls the suite
crashed), while every case line is there.  This reader keeps what the
tests need from them: each case's result by name, and a plan that promised
more cases than were reported (a crash mid-suite).
"""
import re

_RESULT = re.compile(r'^(?P<indent> *)(?P<ok>ok|not ok) (?P<num>\d+)(?: -)? ?(?P<name>[^#]*?)\s*'
                     r'(?:#\s*(?P<directive>\w+)\s*(?P<reason>.*))?$')
_PLAN = re.compile(r'^(?P<indent> *)1\.\.(?P<count>\d+)\s*$')
_SUBTEST = re.compile(r'^(?P<indent> *)# Subtest: (?P<name>.*)$')
_DIAG = re.compile(r'^(?P<indent> *)# (?P<text>.*\S)\s*$')


class Result:
    """One test line: path is ['suite', 'case', ('param')], status pass/fail/skip."""

    def __init__(self, path, status, reason=''):
        self.path = path
        self.status = status
        self.reason = reason

    @property
    def name(self):
        return '.'.join(self.path)

    def __repr__(self):
        return f'Result({self.name!r}, {self.status!r}, {self.reason!r})'


def _status(ok, directive):
    if directive and directive.upper() == 'SKIP':
        return 'skip'
    if directive and directive.upper() == 'TODO':
        return 'skip'
    return 'pass' if ok == 'ok' else 'fail'


def parse(text):
    """Return (results, problems): every test line as a Result with its full
    path, and a list of strings describing structural problems (a plan that
    promised more tests than were reported: a crash mid-suite).  A test
    without a directive reason gets the diagnostic lines printed at its
    level since the test before it (KUnit's kunit_info() and failure
    lines, "# case: text"), without the "case: " prefix, joined by "; "."""
    results, problems = [], []
    # per indent level: {'names': [...], 'plan': n, 'seen': k}
    stack = {}
    pending_name = {}
    orphans = {}
    diags = {}
    for raw in text.splitlines():
        line = raw.rstrip()
        m = _SUBTEST.match(line)
        if m:
            level = len(m.group('indent')) // 4
            pending_name[level] = m.group('name').strip()
            continue
        m = _PLAN.match(line)
        if m:
            level = len(m.group('indent')) // 4
            stack[level] = {'plan': int(m.group('count')), 'seen': 0}
            continue
        m = _DIAG.match(line)
        if m:
            diags.setdefault(len(m.group('indent')) // 4, []).append(m.group('text'))
            continue
        m = _RESULT.match(line)
        if not m:
            continue
        level = len(m.group('indent')) // 4
        frame = stack.setdefault(level, {'plan': None, 'seen': 0})
        frame['seen'] += 1
        name = m.group('name').strip()
        res = Result(None, _status(m.group('ok'), m.group('directive')), (m.group('reason') or '').strip())
        notes = [t[len(name) + 2:] if t.startswith(name + ': ') else t for t in diags.pop(level, [])]
        if not res.reason:
            res.reason = '; '.join(notes)
        if level >= 1 and level not in pending_name:
            # a subtest printed without its "# Subtest:" header (6.1's
            # debugfs log keeps only the last parameter of a case): its
            # parent is the test line that follows at level - 1
            res.path = [name]
            orphans.setdefault(level, []).append(res)
            results.append(res)
            continue
        # the names of the enclosing tests are the pending subtest names
        res.path = [pending_name[lvl] for lvl in range(1, level + 1) if lvl in pending_name] + [name]
        for child_res in orphans.pop(level + 1, []):
            child_res.path = res.path + child_res.path
        # a test line closes its subtests: check their plan was met
        child = stack.pop(level + 1, None)
        if child and child['plan'] is not None and child['seen'] < child['plan']:
            problems.append(f'{res.name}: {child["seen"]} of {child["plan"]} subtests reported')
            res.status = 'fail'
            res.reason = res.reason or 'incomplete'
        pending_name.pop(level + 1, None)
        results.append(res)
    for level, frame in stack.items():
        if frame['plan'] is not None and frame['seen'] < frame['plan']:
            problems.append(f'level {level}: {frame["seen"]} of {frame["plan"]} tests reported')
    return results, problems


def cases(text):
    """One result per KUnit case: [(suite.case, status, reason)], plus the
    structural problems.  Parameter results are folded into their case (a
    failed parameter is named in the case's reason)."""
    results, problems = parse(text)
    out = []
    failed_params = {}
    for r in results:
        if len(r.path) == 3 and r.status == 'fail':
            failed_params.setdefault(tuple(r.path[:2]), []).append(r.path[2])
    for r in results:
        if len(r.path) != 2:
            continue
        reason = r.reason
        params = failed_params.get(tuple(r.path))
        if params:
            reason = 'failed parameters: ' + ', '.join(params)
        out.append((r.name, r.status, reason))
    return out, problems
