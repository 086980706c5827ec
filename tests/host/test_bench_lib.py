"""Host-side tests of bench/lib.sh (the functions of bench/run.sh that size
each point's window, write each boot's job file and decide which boots a
rerun keeps) and of bench/guest.sh, the guest script that reads the job."""
import csv
import functools
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
# ref-icount-2's ns_per_io rows of points.csv (the run itself is in git
# history: results/INDEX.md)
REF = os.path.join(TOP, 'tests', 'data', 'ref-icount-2-ns-per-io.csv')
from bench import readers  # noqa: E402


def sh(*args):
    """Run one bench/lib.sh function with ARGS; its output."""
    script = 'top=$1; . "$top/common/lib.sh"; . "$top/bench/lib.sh"; shift; "$@"'
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


MATRIX = '''
points=(randread-4k-qd1 read-4M-qd1 read-1M-qd32 write-4k-qd32)
perfs=(fake:read-1M-qd32) ceils=(read-1M-qd32) inflights=(read-4M-qd1) inflight_ns=5000000
mode=icount engine=io_uring
ramp=100ms runtime=300ms floor=0.4 perf_delay=200 microbench=1
kernel_id() { echo "series_sha256 s-$1 config_sha256 c-$1"; }
'''


@functools.lru_cache(maxsize=None)
def job(device, variant, repeat, settings=''):
    """bench/lib.sh's job() for the small matrix above (SETTINGS: more
    shell assignments after it)."""
    return sh('eval', '\n'.join((MATRIX, settings, f'job {device} {variant} {repeat}'))) + '\n'


# the guest helpers and tools bench/guest.sh calls, each logging its call
STUB_LIB = """
log() { echo "$*" >>"$LOG"; }
sd_load() { log sd_load "$@"; echo sda; }
qdisk() { log qdisk "$@"; echo sdb; }
nullb_load() { log nullb_load; echo nullb0; }
block_stat() { log block_stat "$@"; echo 0 0 0 0; }
slab_peak() { log slab_peak "$@"; }
inflight_trace() { log inflight_trace "$@"; }
"""
STUB_TOOLS = ('fio', 'perf', 'modprobe', 'rmmod', 'cp', 'mv', 'grep', 'cat')


class GuestJobTest(unittest.TestCase):
    """The job format: bench/run.sh's job() writes it, bench/guest.sh (the
    static guest script, run here by dash: busybox sh, the guest's shell,
    would run its own applets (modprobe, cp, mv) instead of the stubs)
    reads it, with the guest helpers and tools replaced by stubs that log
    their calls."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.log = os.path.join(self.tmp, 'log')
        stubs = os.path.join(self.tmp, 'bin')
        os.makedirs(stubs)
        for t in STUB_TOOLS:
            with open(os.path.join(stubs, t), 'w') as f:
                f.write('#!/bin/sh\necho "${0##*/} $*" >>"$LOG"\n')
            os.chmod(os.path.join(stubs, t), 0o755)
        with open(os.path.join(self.tmp, 'lib.sh'), 'w') as f:
            f.write(STUB_LIB)
        for d in ('share', 'out', 'scsi_debug'):
            os.makedirs(os.path.join(self.tmp, d))
        self.env = {'PATH': stubs, 'LOG': self.log, 'SGB_LIB': os.path.join(self.tmp, 'lib.sh'),
                    'SGB_SHARE': os.path.join(self.tmp, 'share'),
                    'SGB_OUT': os.path.join(self.tmp, 'out'),
                    # scsi_debug's driver attributes (never the host's)
                    'SGB_SCSI_DEBUG_SYSFS': os.path.join(self.tmp, 'scsi_debug')}

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def guest(self, text):
        """Run bench/guest.sh on job TEXT: (exit status, stderr, calls)."""
        with open(os.path.join(self.tmp, 'share', 'job'), 'w') as f:
            f.write(text)
        p = subprocess.run(['/bin/dash', os.path.join(TOP, 'bench', 'guest.sh')],
                           env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        calls = []
        if os.path.exists(self.log):
            with open(self.log) as f:
                calls = f.read().splitlines()
        return p.returncode, p.stderr, calls

    def test_first_fake_boot_runs_points_in_job_order_with_extras(self):
        text = job('fake', 'sg_ring', 1)
        lines = text.splitlines()
        self.assertIn('disk scsi_debug dev_size_mb=1024 delay=0 fake_rw=1', lines)
        self.assertIn('kernel series_sha256 s-sg_ring config_sha256 c-sg_ring', lines)
        self.assertIn('microbench', lines)
        pts = [ln.split() for ln in lines if ln.startswith('point ')]
        self.assertEqual(sorted(p[1] for p in pts),
                         sorted(['randread-4k-qd1', 'read-4M-qd1', 'read-1M-qd32', 'write-4k-qd32']))
        extras = {p[1]: p[3:] for p in pts}
        self.assertEqual(extras['read-4M-qd1'], ['slab'])
        self.assertEqual(extras['read-1M-qd32'], ['perf'])
        self.assertEqual(extras['randread-4k-qd1'], [])
        self.assertEqual(lines[-3:], ['inflight read-4M-qd1 300 5000000', 'ceil read-1M-qd32 300', 'memcpy'])
        st, err, calls = self.guest(text)
        self.assertEqual(st, 0, err)
        self.assertEqual(calls[0], 'sd_load dev_size_mb=1024 delay=0 fake_rw=1')
        self.assertTrue(calls[1].startswith('cp /proc/kallsyms '))
        self.assertEqual(calls[2], 'modprobe sg_api_bench')
        fios = [c.split() for c in calls if c.startswith('fio --name=')]
        self.assertEqual([f[1][7:] for f in fios],
                         [p[1] for p in pts] + ['null-read-1M-qd32'])
        for f, p in zip(fios, pts):
            self.assertIn(f'--runtime={p[2]}ms', f)
            self.assertIn('--randseed=1', f)
            self.assertIn('--filename=/dev/sda', f)
            self.assertIn('--ramp_time=100ms', f)
        self.assertIn('--filename=/dev/nullb0', fios[-1])
        self.assertEqual(sum(c == 'nullb_load' for c in calls), 1)
        slab = [c for c in calls if c.startswith('slab_peak ')]
        self.assertEqual(len(slab), 1)
        self.assertIn('read-4M-qd1.slabinfo fio --name=read-4M-qd1 ', slab[0])
        perf = [c for c in calls if c.startswith('perf record')]
        self.assertEqual(len(perf), 1)
        self.assertIn('-D 200 ', perf[0])
        self.assertIn('-- fio --name=read-1M-qd32 ', perf[0])
        self.assertEqual(calls[-2].split()[:3], ['perf', 'bench', 'mem'])
        infl = [c for c in calls if c.startswith('inflight_trace ')]
        self.assertEqual(len(infl), 1)
        self.assertIn('read-4M-qd1.inflight fio --name=inflight-read-4M-qd1 ', infl[0])
        self.assertIn('--iodepth=1 ', infl[0])
        # the completion delay was set for it and put back to delay=0
        sd = os.path.join(self.tmp, 'scsi_debug')
        with open(os.path.join(sd, 'ndelay')) as f, open(os.path.join(sd, 'delay')) as g:
            self.assertEqual((f.read(), g.read()), ('5000000\n', '0\n'))

    def test_later_repeat_has_no_first_repeat_extras_and_its_own_order(self):
        one, two = job('fake', 'sg_ring', 1), job('fake', 'sg_ring', 2)
        self.assertNotIn('microbench', two.splitlines())
        self.assertNotIn('slab', two)
        self.assertNotIn('ceil ', two)
        self.assertNotIn('inflight ', two)
        self.assertIn('seed 2', two.splitlines())
        order = lambda t: [ln.split()[1] for ln in t.splitlines() if ln.startswith('point ')]  # noqa: E731
        self.assertNotEqual(order(one), order(two))
        # both kernels get the same job but for what names the kernel
        other = job('fake', 'sg_table', 2)
        diff = [(a, b) for a, b in zip(two.splitlines(), other.splitlines()) if a != b]
        self.assertEqual([a.split()[0] for a, _ in diff], ['variant', 'kernel'])
        st, err, calls = self.guest(two)
        self.assertEqual(st, 0, err)
        self.assertFalse([c for c in calls if c.startswith(('modprobe', 'slab_peak', 'nullb_load'))])

    def test_another_boot_set_has_its_own_seeds_and_keeps_the_extras(self):
        # SEED=2 (boot_set): fio's seed and the order from another range;
        # boot set 1 is the job of before, and the first repeat still has
        # its extras
        one, two = job('fake', 'sg_table', 1), job('fake', 'sg_table', 1, 'boot_set=2')
        self.assertIn('\nseed 1\n', one)
        self.assertIn('\nseed 1001\n', two)
        self.assertEqual(job('fake', 'sg_table', 1, 'boot_set=1'), one)
        pts = lambda j: sorted(ln for ln in j.splitlines() if ln.startswith('point '))  # noqa: E731
        self.assertEqual(pts(one), pts(two))
        for extra in ('microbench', 'inflight read-4M-qd1', 'memcpy'):
            self.assertIn(extra, two)

    def test_shuffle_is_park_miller_fisher_yates_in_any_awk(self):
        # the order must not depend on the host's awk (mawk and gawk have
        # different rand()): the same shuffle computed here independently
        lines = [f'p{i}' for i in range(32)]

        def want(seed):
            out, x = list(lines), seed % 2147483647 or 2147483646
            for i in range(len(out) - 1, 0, -1):
                x = x * 16807 % 2147483647
                j = x % (i + 1)
                out[i], out[j] = out[j], out[i]
            return out
        for seed in (1, 2, 3, 17):
            for awk in ('mawk', 'original-awk', 'gawk'):
                if not shutil.which(awk) and awk != 'mawk':
                    continue
                got = sh('eval', f'awk() {{ command {awk} "$@"; }}; printf "%s\\n" {" ".join(lines)} | shuffle {seed}')
                self.assertEqual(got.split(), want(seed), f'{awk} seed {seed}')
        self.assertNotEqual(want(1), want(2))

    def test_qemu_disk(self):
        st, err, calls = self.guest(job('virtio', 'sg_ring', 2))
        self.assertEqual(st, 0, err)
        self.assertEqual(calls[0], 'qdisk virtio')

    def test_unknown_line_fails_naming_it(self):
        st, err, calls = self.guest(job('fake', 'sg_ring', 2) + 'pointt read-4k-qd1 300\n')
        self.assertNotEqual(st, 0)
        self.assertIn("unknown line in the job: 'pointt read-4k-qd1 300'", err)
        self.assertEqual(calls, [])

    def test_missing_setting_fails_naming_it(self):
        text = ''.join(ln + '\n' for ln in job('fake', 'sg_ring', 2).splitlines() if not ln.startswith('seed '))
        st, err, calls = self.guest(text)
        self.assertNotEqual(st, 0)
        self.assertIn('the job sets no seed', err)
        self.assertEqual(calls, [])

    def test_unknown_extra_fails(self):
        st, err, _ = self.guest(job('fake', 'sg_ring', 2) + 'point read-4k-qd1 300 slub\n')
        self.assertNotEqual(st, 0)
        self.assertIn("unknown extra 'slub' of point read-4k-qd1", err)

    def steps(self):
        return readers.read_steps(os.path.join(self.tmp, 'out', 'results.ktap'))

    def test_steps_are_ktap_read_by_kunit_parser(self):
        st, err, _ = self.guest(job('fake', 'sg_ring', 1))
        self.assertEqual(st, 0, err)
        steps, missing, errors = self.steps()
        self.assertEqual((missing, errors), (0, 0))
        self.assertEqual(sorted(steps), sorted(['disk', 'microbench', 'randread-4k-qd1', 'read-4M-qd1',
                                                'read-1M-qd32', 'write-4k-qd32', 'read-4M-qd1.slab',
                                                'read-1M-qd32.perf', 'inflight.read-4M-qd1', 'ceil.read-1M-qd32',
                                                'memcpy']))
        self.assertEqual(set(steps.values()), {'pass'})

    def test_failing_tool_fails_its_steps_and_the_boot(self):
        with open(os.path.join(self.tmp, 'bin', 'fio'), 'w') as f:
            f.write('#!/bin/sh\necho "fio $*" >>"$LOG"\nexit 1\n')
        st, err, calls = self.guest(job('fake', 'sg_ring', 2))
        self.assertNotEqual(st, 0)
        self.assertIn('4 of 6 steps failed', err)
        steps, missing, errors = self.steps()
        self.assertEqual((missing, errors), (0, 0))
        self.assertEqual(steps, {'disk': 'pass', 'randread-4k-qd1': 'fail', 'read-4M-qd1': 'fail',
                                 'read-1M-qd32': 'fail', 'write-4k-qd32': 'fail', 'read-1M-qd32.perf': 'pass'})
        self.assertEqual(sum(c.startswith('fio ') for c in calls), 4)

    def test_guest_that_stops_leaves_the_rest_unreported(self):
        # a guest that dies mid-job: the plan promised more steps
        st, err, _ = self.guest(job('fake', 'sg_ring', 2))
        self.assertEqual(st, 0, err)
        path = os.path.join(self.tmp, 'out', 'results.ktap')
        with open(path) as f:
            lines = f.read().splitlines()
        with open(path, 'w') as f:
            f.write('\n'.join(lines[:4]) + '\n')
        steps, missing, _ = self.steps()
        self.assertEqual(len(steps), 2)
        self.assertEqual(missing, 4)


class JobStateTest(unittest.TestCase):
    """The resume rule: a rerun keeps a boot only when it passed and its
    job file is this run's, byte for byte."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.boot = os.path.join(self.tmp, 'r1')
        os.makedirs(os.path.join(self.boot, 'share'))
        self.job = os.path.join(self.tmp, 'job')
        text = job('fake', 'sg_ring', 1)
        for path in (self.job, os.path.join(self.boot, 'share', 'job')):
            with open(path, 'w') as f:
                f.write(text)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def result(self, text):
        with open(os.path.join(self.boot, 'RESULT'), 'w') as f:
            f.write(text)

    def rewrite(self, settings):
        with open(self.job, 'w') as f:
            f.write(job('fake', 'sg_ring', 1, settings))

    def test_passed_boot_of_the_same_job_is_kept(self):
        self.result('pass\n')
        self.assertEqual(sh('job_state', self.boot, self.job), 'kept')

    def test_another_runtime_mode_kernel_or_extra_is_stale(self):
        self.result('pass\n')
        for settings, was, now in (
                ('runtime=1s', "'point ", "'point "),
                ('mode=tcg', "'mode icount'", "'mode tcg'"),
                ('kernel_id() { echo series_sha256 s2 config_sha256 c; }', "'kernel series_sha256 s-sg_ring",
                 "'kernel series_sha256 s2"),
                ('microbench=0', "'microbench'", "''"),
                ('ceils=()', "'ceil read-1M-qd32 300'", "''")):
            self.rewrite(settings)
            self.assertEqual(sh('job_state', self.boot, self.job), 'stale', settings)
            why = sh('job_diff', self.boot, self.job)
            self.assertIn(f'was {was}', why)
            self.assertIn(f'now {now}', why)

    def test_a_boot_with_a_plan_and_no_job_is_stale(self):
        # a boot of a run from before job files (share/plan.sh)
        self.result('pass\n')
        os.rename(os.path.join(self.boot, 'share', 'job'), os.path.join(self.boot, 'share', 'plan.sh'))
        self.assertEqual(sh('job_state', self.boot, self.job), 'stale')
        self.assertIn('no job file', sh('job_diff', self.boot, self.job))

    def test_failed_or_missing_boot_is_none(self):
        self.assertEqual(sh('job_state', self.boot, self.job), 'none')
        self.result('fail: timeout\n')
        self.assertEqual(sh('job_state', self.boot, self.job), 'none')


if __name__ == '__main__':
    unittest.main()
