"""Host-side tests of bench/lib.sh (the functions of bench/run.sh that size
each point's window and decide which boots a rerun keeps)."""
import csv
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
REF = os.path.join(TOP, 'results', 'ref-icount-2', 'points.csv')


def sh(*args):
    """Run one bench/lib.sh function with ARGS; its output."""
    script = '. "$1/common/lib.sh"; . "$1/bench/lib.sh"; shift; "$@"'
    p = subprocess.run(['bash', '-c', script, '-', TOP] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise AssertionError(f'{args}: exit {p.returncode}: {p.stderr}')
    return p.stdout.strip()


class WindowTest(unittest.TestCase):
    def test_short_points_keep_runtime(self):
        self.assertEqual(sh('window', 'fake', '4k', '300ms', '0.4'), '300')
        self.assertEqual(sh('window', 'real', '4k', '1s', '0.4'), '1000')

    def test_every_measured_point_gets_its_floor(self):
        # ref-icount-2 ran every point for 300 ms: real read-4M-qd32 held 35
        # I/Os (floor 3.19 %).  With the window window() gives, the guest
        # time per I/O measured there leaves every point within FLOOR.
        worst = {}
        with open(REF) as f:
            for r in csv.DictReader(f):
                if r['metric'] == 'ns_per_io':
                    key = (r['device'], r['point'].split('-')[1])
                    worst[key] = max(worst.get(key, 0), float(r['mean']))
        self.assertEqual(len(worst), 16)
        keys = sorted(worst)
        # one shell for all 16: for each, window DEVICE BS 300ms 0.4
        ws = sh('eval', '; '.join(f'window {d} {b} 300ms 0.4' for d, b in keys)).split()
        for ((dev, bs), w) in zip(keys, ws):
            ns, w = worst[(dev, bs)], int(w)
            floor = 100.0 / (w * 1e6 / ns) + 100.0 / w
            self.assertLessEqual(floor, 0.4, f'{dev} {bs}: window {w} ms, floor {floor:.3f} %')


class JobStateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.boot = os.path.join(self.tmp, 'r1')
        os.makedirs(os.path.join(self.boot, 'share'))
        self.plan = os.path.join(self.tmp, 'plan.sh')
        for path, text in ((self.plan, 'fio --runtime=300ms\n'),
                           (os.path.join(self.boot, 'share', 'plan.sh'), 'fio --runtime=300ms\n'),
                           (os.path.join(self.boot, 'run.info'), 'variant sg_ring\nmode icount\n')):
            with open(path, 'w') as f:
                f.write(text)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def result(self, text):
        with open(os.path.join(self.boot, 'RESULT'), 'w') as f:
            f.write(text)

    def test_passed_boot_of_the_same_job_is_kept(self):
        self.result('pass\n')
        self.assertEqual(sh('job_state', self.boot, self.plan, 'icount'), 'kept')

    def test_another_runtime_or_mode_is_stale(self):
        self.result('pass\n')
        self.assertEqual(sh('job_state', self.boot, self.plan, 'tcg'), 'stale')
        with open(self.plan, 'w') as f:
            f.write('fio --runtime=1000ms\n')
        self.assertEqual(sh('job_state', self.boot, self.plan, 'icount'), 'stale')

    def test_failed_or_missing_boot_is_none(self):
        self.assertEqual(sh('job_state', self.boot, self.plan, 'icount'), 'none')
        self.result('fail: timeout\n')
        self.assertEqual(sh('job_state', self.boot, self.plan, 'icount'), 'none')


if __name__ == '__main__':
    unittest.main()
