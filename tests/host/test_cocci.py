"""The sg_ring semantic patch (variants/sg_ring/cocci/) on its fixtures.

Each variants/sg_ring/cocci/tests/NAME.c is run through
scsi_host_use_sg_ring.cocci and must give NAME.res exactly: the uses the
rule can convert are converted and the host template flagged, and a driver
with any use it cannot convert (scsi_sglist(), a loop whose body is one
statement, declares variables or uses continue) is left alone entirely.
"""
import os
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COCCI = os.path.join(TOP, 'variants', 'sg_ring', 'cocci')
RULE = os.path.join(COCCI, 'scsi_host_use_sg_ring.cocci')
FIXTURES = os.path.join(COCCI, 'tests')


def apply_rule(src):
    """The text of src after the rule (spatch -D patch -o)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'out.c')
        res = subprocess.run(['spatch', '--very-quiet', '--sp-file', RULE, '-D', 'patch',
                              '--no-show-diff', src, '-o', out],
                             cwd=tmp, capture_output=True, text=True)
        if res.returncode != 0:
            raise AssertionError(f'spatch failed on {src} ({res.returncode}): {res.stderr}')
        # spatch writes -o only when the rule changed something
        with open(out if os.path.exists(out) else src) as f:
            return f.read()


class Cocci(unittest.TestCase):
    def test_fixtures(self):
        names = sorted(f[:-2] for f in os.listdir(FIXTURES) if f.endswith('.c'))
        self.assertGreaterEqual(len(names), 6, 'the fixtures are missing')
        for name in names:
            with self.subTest(fixture=name):
                with open(os.path.join(FIXTURES, name + '.res')) as f:
                    want = f.read()
                self.assertEqual(apply_rule(os.path.join(FIXTURES, name + '.c')), want)

    def test_fixtures_cover_both_outcomes(self):
        # a fixture set in which nothing converts (or everything does)
        # could not catch a rule that has stopped converting (or checking)
        changed = []
        for f in sorted(os.listdir(FIXTURES)):
            if f.endswith('.c'):
                with open(os.path.join(FIXTURES, f)) as a, open(os.path.join(FIXTURES, f[:-2] + '.res')) as b:
                    changed.append(a.read() != b.read())
        self.assertIn(True, changed)
        self.assertIn(False, changed)


if __name__ == '__main__':
    unittest.main()
