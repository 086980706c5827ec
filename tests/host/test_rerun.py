"""bench/rerun.py: a verdict of REPORT.md's answer table against the same
row of a rerun on another boot set: holds, at the edge, or flips."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')

from bench import model  # noqa: E402
from bench import rerun  # noqa: E402
from tests.host.test_model import make_run  # noqa: E402

PTS = ('randread-4k-qd1', 'randread-1M-qd1')


def ios(table, ring_4k, ring_1m):
    """I/Os per repeat: sg_table TABLE at both points, sg_ring RING_4K and
    RING_1M (a 300 ms window, three repeats)."""
    return {('fake', 'sg_table', PTS[0]): table, ('fake', 'sg_ring', PTS[0]): ring_4k,
            ('fake', 'sg_table', PTS[1]): table, ('fake', 'sg_ring', PTS[1]): ring_1m}


class RerunTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='sgb-rerun-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def runs(self, first, second, sets=('1', '2')):
        a = make_run(self.tmp, 'a', first, points=PTS, extra_meta=[f'boot_set {sets[0]}'])
        b = make_run(self.tmp, 'b', second, points=PTS, extra_meta=[f'boot_set {sets[1]}'])
        return a, b

    def test_holds_edge_and_flip(self):
        base = [20000, 20010, 19990]
        # 4k: sg_ring 1 % slower in both runs; 1M: 1 % faster, then 1 % slower
        a, b = self.runs(ios(base, [19800, 19810, 19790], [20200, 20210, 20190]),
                         ios(base, [19800, 19812, 19791], [19800, 19810, 19790]))
        rows = {(r[1], r[2]): r[5] for r in rerun.compare(model.Run(a), model.Run(b))}
        self.assertEqual(rows, {('fake', '4k'): 'holds', ('fake', '1M'): 'FLIPS'})
        # a rerun that does not resolve what the first run did: at the edge
        shutil.rmtree(b)
        b = make_run(self.tmp, 'b', ios(base, [19800, 19810, 19790], [20000, 20010, 19990]), points=PTS,
                     extra_meta=['boot_set 2'])
        rows = {(r[1], r[2]): r[5] for r in rerun.compare(model.Run(a), model.Run(b))}
        self.assertEqual(rows[('fake', '1M')], 'at the edge')

    def test_compare_md_and_refusals(self):
        base = [20000, 20010, 19990]
        a, b = self.runs(ios(base, [19800, 19810, 19790], [20200, 20210, 20190]),
                         ios(base, [19800, 19812, 19791], [20200, 20211, 20191]))
        res = subprocess.run([sys.executable, '-m', 'bench.rerun', a, b], cwd=TOP, capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(b, 'COMPARE.md')) as f:
            text = f.read()
        self.assertIn('2 of 2 rows hold, 0 at the edge, 0 flip.', text)
        self.assertIn('| sg_ring | fake | 4k | significant (+), +1.01 % | significant (+), +1.01 % | holds |', text)
        # the same boot set twice is the same run again under icount
        shutil.rmtree(self.tmp)
        os.makedirs(self.tmp)
        a, b = self.runs(ios(base, base, base), ios(base, base, base), sets=('1', '1'))
        res = subprocess.run([sys.executable, '-m', 'bench.rerun', a, b], cwd=TOP, capture_output=True, text=True)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn('both runs are of boot set 1', res.stderr)

    def os_runs(self, name):
        """A run on the normal kernels (4k not resolved, 1M 1 % faster) and
        one of the same matrix on the os kernels, NAME (4k 1 % slower), both
        of boot set 1."""
        base = [20000, 20010, 19990]
        a = make_run(self.tmp, 'a', ios(base, [20000, 20012, 19991], [20200, 20210, 20190]), points=PTS,
                     extra_meta=['boot_set 1'])
        b = make_run(self.tmp, name, ios(base, [19800, 19810, 19790], [20200, 20211, 20191]), points=PTS,
                     extra_meta=['boot_set 1', 'kernel_flavour os'])
        return a, b

    def test_other_kernels_compare_the_shared_candidates_on_any_boot_set(self):
        a, b = self.os_runs('b')
        res = subprocess.run([sys.executable, '-m', 'bench.rerun', a, b], cwd=TOP, capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(b, 'COMPARE.md')) as f:
            text = f.read()
        self.assertIn('# Does each verdict hold on the os kernels', text)
        self.assertIn('1 of 2 rows hold, 1 differ, 0 flip.', text)
        self.assertRegex(text, r'\| sg_ring \| fake \| 4k \| [^|]* \| significant \(\+\), \+1\.0\d % \| differs \|')

    def test_reports_give_the_other_kernels_verdict_where_it_differs(self):
        a, _ = self.os_runs('os-run')
        with open(os.path.join(a, 'kernels.txt'), 'w') as f:
            f.write('# runs on other kernels\nos ../os-run\n')
        res = subprocess.run([sys.executable, '-m', 'bench.report', a], cwd=TOP, capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(a, 'REPORT.md')) as f:
            text = f.read()
        self.assertIn('| verdict | on the os kernels ([fixture](../os-run/COMPARE.md)) |', text)
        self.assertRegex(text, r'\| fake \| 4k \|[^\n]* \| \*\*differs: significant \(\+\), \+1\.0\d %\*\* \|')
        self.assertRegex(text, r'\| fake \| 1M \|[^\n]* \| the same verdict \|')
        # a line naming a run of other kernels than it says is refused
        with open(os.path.join(a, 'kernels.txt'), 'w') as f:
            f.write('debug ../os-run\n')
        res = subprocess.run([sys.executable, '-m', 'bench.report', a], cwd=TOP, capture_output=True, text=True)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn('kernels.txt:1: ../os-run is of the os kernels, not debug', res.stderr)


if __name__ == '__main__':
    unittest.main()
