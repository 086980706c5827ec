"""The sg_ring semantic patch (variants/sg_ring/cocci/) on its fixtures.

Each variants/sg_ring/cocci/tests/NAME.c is run through
scsi_host_use_sg_ring.cocci and must give NAME.res exactly: the uses the
rule can convert are converted and the host template flagged, and a driver
with any hand case (see the rule's header: H1 to H7) is left alone
entirely.  The rule's report mode (-D report) must list exactly the hand
cases of NAME.hand (empty for a fixture the rule converts).  And every
hand-case rule must be the one that stops its fixture: with that rule
switched off, the fixture's output is no longer NAME.res.
"""
import os
import re
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COCCI = os.path.join(TOP, 'variants', 'sg_ring', 'cocci')
RULE = os.path.join(COCCI, 'scsi_host_use_sg_ring.cocci')
FIXTURES = os.path.join(COCCI, 'tests')

# the semantic patch's checks (its CHECKS, switched off through its OFF) ->
# the fixtures each one must be what stops: switched off, the fixture's
# output is no longer its .res
STOPPERS = {
    ('H0',): ['unparsed', 'header'],
    ('H1',): ['hard', 'uas', 'sdbparam', 'protloop'],
    ('nonblock',): ['nonblock'],
    ('continue',): ['contloop'],
    ('decl',): ['declbody', 'declbody2'],
    ('nested',): ['nested'],
    ('helper',): ['helper'],
    ('index',): ['imod'],
    ('after',): ['eafter'],
    ('mixed',): ['mixed'],
    ('neither',): ['neither'],
    ('dmacount',): ['dmacount'],
    ('cpumapped',): ['cpumapped'],
    ('names',): ['names'],
    # hpsa_scatter_gather(): a helper walk, sg read after the loop, and a
    # body that reads neither view directly; any one of them stops it
    ('helper', 'after', 'neither'): ['hpsa'],
    # without the bound check every bound is dropped
    ('bound',): ['bound', 'reassigned', 'cpubound'],
}


def run_spatch(rule, src, mode):
    """(stdout, text of src after the rule) with -D mode."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'out.c')
        res = subprocess.run(['spatch', '--very-quiet', '--sp-file', rule, '-D', mode,
                              '--no-show-diff', os.path.basename(src), '-o', out],
                             cwd=os.path.dirname(src), capture_output=True, text=True)
        if res.returncode != 0 and 'multiple modified files' in res.stderr:
            # the rule changed a header the fixture includes as well: the
            # text is then the diff of both (never a fixture's .res)
            res = subprocess.run(['spatch', '--very-quiet', '--sp-file', rule, '-D', mode,
                                  os.path.basename(src)],
                                 cwd=os.path.dirname(src), capture_output=True, text=True)
            if res.returncode == 0:
                return res.stdout, res.stdout
        if res.returncode != 0:
            raise AssertionError(f'spatch failed on {src} ({res.returncode}): {res.stderr}')
        # spatch writes -o only when the rule changed something
        with open(out if os.path.exists(out) else src) as f:
            return res.stdout, f.read()


def apply_rule(src, rule=RULE):
    """The text of src after the rule (spatch -D patch -o)."""
    return run_spatch(rule, src, 'patch')[1]


def report(src):
    """The hand cases the rule's report mode lists for src."""
    return run_spatch(RULE, src, 'report')[0]


def fixture_names():
    return sorted(f[:-2] for f in os.listdir(FIXTURES) if f.endswith('.c'))


def read(name, ext):
    with open(os.path.join(FIXTURES, name + ext)) as f:
        return f.read()


class Cocci(unittest.TestCase):
    def test_fixtures(self):
        names = fixture_names()
        self.assertGreaterEqual(len(names), 20, 'the fixtures are missing')
        for name in names:
            with self.subTest(fixture=name):
                self.assertEqual(apply_rule(os.path.join(FIXTURES, name + '.c')), read(name, '.res'))

    def test_fixtures_cover_both_outcomes(self):
        # a fixture set in which nothing converts (or everything does)
        # could not catch a rule that has stopped converting (or checking)
        changed = [read(n, '.c') != read(n, '.res') for n in fixture_names()]
        self.assertIn(True, changed)
        self.assertIn(False, changed)

    def test_report(self):
        # a fixture left alone lists why, a converted one lists nothing
        for name in fixture_names():
            with self.subTest(fixture=name):
                want = read(name, '.hand')
                self.assertEqual(report(os.path.join(FIXTURES, name + '.c')), want)
                unchanged = read(name, '.c') == read(name, '.res')
                self.assertEqual(unchanged, want != '',
                                 'a fixture is left alone exactly when it has a hand case')

    def test_checks_stop_their_fixtures(self):
        with open(RULE) as f:
            rule = f.read()
        checks = re.search(r'^CHECKS = \[(.*?)\]', rule, flags=re.M | re.S)
        self.assertIsNotNone(checks, 'no CHECKS in the semantic patch')
        checks = set(re.findall(r"'(\w+)'", checks.group(1)))
        self.assertEqual(rule.count('\nOFF = set()\n'), 1)
        covered = set()
        for off, names in STOPPERS.items():
            self.assertLessEqual(set(off), checks)
            covered |= set(off)
            text = rule.replace('\nOFF = set()\n', '\nOFF = %r\n' % set(off))
            with tempfile.TemporaryDirectory() as tmp:
                mutant = os.path.join(tmp, 'mutant.cocci')
                with open(mutant, 'w') as f:
                    f.write(text)
                for name in names:
                    with self.subTest(off=off, fixture=name):
                        self.assertNotEqual(apply_rule(os.path.join(FIXTURES, name + '.c'), mutant),
                                            read(name, '.res'),
                                            f'{name} does not depend on the check(s) {off}')
        # every check of the semantic patch has a fixture it stops
        self.assertEqual(checks - covered, set())


if __name__ == '__main__':
    unittest.main()
