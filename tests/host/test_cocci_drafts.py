"""The hand conversions of variants/sg_ring/cocci/drafts/ reproduce.

Each drafts/NAME/ records a driver converted in two steps (the drafts'
README): 1-hand.diff, the hand step on 6.1's file, and 2-cocci.diff, what
the semantic patch then does; NAME.diff is the two together.  For every
draft this applies 1-hand.diff to 6.1's file (the base tree, build/git,
which make test extracts before it runs these tests), and checks what the
drafts and the series' changelogs claim of it:
  - the semantic patch's report on the hand step is empty (the hand step
    removed every hand case), while on 6.1's file it is not (the driver
    needed a hand step);
  - the semantic patch then gives exactly the text of 6.1's file with
    NAME.diff applied, and 2-cocci.diff is that step.
The driver's directory is copied with it, so that the rule sees the
driver's own headers (hand case H0) as in the tree.
"""
import os
import shutil
import subprocess
import tempfile
import unittest

from tests.host.test_cocci import COCCI, report, apply_rule

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASE = os.path.join(TOP, 'build', 'git')
DRAFTS = os.path.join(COCCI, 'drafts')
# the draft -> the 6.1 file it converts
FILES = {
    'hpsa': 'drivers/scsi/hpsa.c',
    'storvsc': 'drivers/scsi/storvsc_drv.c',
    'smartpqi': 'drivers/scsi/smartpqi/smartpqi_init.c',
    'mpi3mr': 'drivers/scsi/mpi3mr/mpi3mr_os.c',
}


def patched(text, diff):
    """TEXT with the unified DIFF applied (patch(1), which must apply it
    exactly: no fuzz, no offset is accepted silently)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, 'in.c'), os.path.join(tmp, 'out.c')
        with open(src, 'w') as f:
            f.write(text)
        res = subprocess.run(['patch', '--fuzz=0', '-s', '-o', out, src, diff],
                             capture_output=True, text=True)
        if res.returncode != 0 or res.stdout:
            raise AssertionError(f'{diff} does not apply exactly: {res.stdout}{res.stderr}')
        with open(out) as f:
            return f.read()


def read(path):
    with open(path) as f:
        return f.read()


class Drafts(unittest.TestCase):
    def test_every_draft_is_listed(self):
        have = sorted(d for d in os.listdir(DRAFTS) if os.path.isdir(os.path.join(DRAFTS, d)))
        self.assertEqual(have, sorted(FILES))

    def test_drafts_reproduce(self):
        if not os.path.isdir(os.path.join(BASE, 'drivers')):
            self.fail(f'no base tree in {BASE}: run "make base" first')
        for name, path in sorted(FILES.items()):
            with self.subTest(draft=name), tempfile.TemporaryDirectory() as tmp:
                d = os.path.join(DRAFTS, name)
                orig = read(os.path.join(BASE, path))
                # the driver's directory, for its quoted includes
                work = os.path.join(tmp, os.path.basename(os.path.dirname(path)))
                shutil.copytree(os.path.dirname(os.path.join(BASE, path)), work,
                                ignore=shutil.ignore_patterns('*.o', '.*.cmd'))
                src = os.path.join(work, os.path.basename(path))
                self.assertNotEqual(report(src), '', '6.1 needs no hand step?')
                hand = patched(orig, os.path.join(d, '1-hand.diff'))
                with open(src, 'w') as f:
                    f.write(hand)
                self.assertEqual(report(src), '', 'the hand step leaves hand cases')
                after = apply_rule(src)
                self.assertEqual(after, patched(orig, os.path.join(d, name + '.diff')))
                self.assertEqual(after, patched(hand, os.path.join(d, '2-cocci.diff')))


if __name__ == '__main__':
    unittest.main()
