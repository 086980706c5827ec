"""Host-side tests of the results model (bench/model.py) and of the reports
read through it: only valid metrics, paired statistics with a stated
resolution, the headline, DECISION.md from raw files alone."""
import json
import math
import os
import shutil
import statistics
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data')

from bench import decision  # noqa: E402
from bench import decision_rules  # noqa: E402
from bench import model  # noqa: E402
from bench import readers  # noqa: E402
from bench import stats  # noqa: E402
from bench import report  # noqa: E402
from bench import report_lib  # noqa: E402


def fio_json(point, ios, ms, inflight=0, lat_ns=1000.0):
    """A fio json document of one point: IOS completed in MS; io_bytes also
    counts INFLIGHT I/Os (what fio does at queue depth > 1)."""
    rw, bs, _ = readers.split_point(point)
    size = readers.bs_bytes(bs)
    d = {'io_bytes': (ios + inflight) * size, 'total_ios': ios, 'runtime': ms,
         'iops': ios * 1000.0 / ms, 'bw_bytes': (ios + inflight) * size * 1000 // ms,
         'lat_ns': {'mean': lat_ns, 'percentile': {'50.000000': 1000, '99.000000': 2000,
                                                   '99.900000': 3000}}}
    empty = {'io_bytes': 0, 'total_ios': 0, 'runtime': 0, 'iops': 0.0, 'bw_bytes': 0}
    main = 'read' if 'read' in rw else 'write'
    job = {'jobname': point, 'error': 0, 'read': empty, 'write': empty}
    job[main] = d
    return {'jobs': [job]}


def make_run(top, name, ios, points=('randread-4k-qd1',), devices=('fake',), extra_meta=()):
    """A run directory: IOS[(device, variant, point)] = [I/Os per repeat]
    in a 300 ms window each, or [(I/Os, window ms) per repeat]."""
    run = os.path.join(top, name)
    reps = max(len(v) for v in ios.values())
    os.makedirs(os.path.join(run, 'raw'))
    with open(os.path.join(run, 'meta.txt'), 'w') as f:
        f.write('run_id fixture\nproject_commit 0123abc\nmode icount\nengine io_uring\n'
                f'repeats {reps}\nruntime 300ms\nramp 100ms\ndevices {" ".join(devices)}\n')
        for d in devices:
            f.write(f'device_{d} scsi_debug fixture\n')
        f.write(''.join(f'point {p}\n' for p in points))
        f.write('variants sg_ring sg_table\nbase linux fixture\nqemu QEMU fixture\nhost_cpu fixture\n')
        f.write(''.join(line + '\n' for line in extra_meta))
    for (d, v, p), per_rep in ios.items():
        for r, n in enumerate(per_rep, 1):
            n, ms = n if isinstance(n, tuple) else (n, 300)
            out = os.path.join(run, 'raw', d, v, f'r{r}', 'share', 'out')
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, p + '.json'), 'w') as f:
                json.dump(fio_json(p, n, ms, inflight=10), f)
            with open(os.path.join(run, 'raw', d, v, f'r{r}', 'RESULT'), 'w') as f:
                f.write('pass\n')
    return run


class MetricsTest(unittest.TestCase):
    def test_bandwidth_counts_completed_ios_not_io_bytes(self):
        # real write-4M-qd32 of ref-icount-2: 62 I/Os completed in 303 ms,
        # io_bytes 83 I/Os' worth (the ones in flight when the ramp ended)
        row = readers.read_fio(os.path.join(DATA, 'fio-write-4M-qd32-inflight.json'), 4 << 20)
        self.assertEqual(row['ios'], 62)
        self.assertEqual(row['window_ms'], 303)
        self.assertAlmostEqual(row['bw_mib'], 62 * 4 * 1000 / 303.0)
        self.assertLess(row['bw_mib'], 1000)           # fio's bw_bytes gives 1096
        self.assertAlmostEqual(row['ns_per_io'], 303e6 / 62)

    def test_no_proc_stat_metric(self):
        row = readers.read_fio(os.path.join(DATA, 'fio-write-4M-qd32-inflight.json'), 4 << 20)
        self.assertNotIn('cpu_ns_per_io', row)
        self.assertNotIn('cpu_ns_per_io', [k for k, _, _ in report_lib.METRICS])

    def test_idle_loop_is_named_idle(self):
        tmp = tempfile.mkdtemp()
        try:
            ks = os.path.join(tmp, 'kallsyms')
            with open(ks, 'w') as f:
                f.write('ffffffff81361970 t native_safe_halt\nffffffff81361970 T __cpuidle_text_start\n'
                        'ffffffff81361970 T __sched_text_end\nffffffff81000000 T sg_next\n')
            txt = os.path.join(tmp, 'p.perf.txt')
            with open(txt, 'w') as f:
                f.write('    17.11%  [k] __sched_text_end\n     4.00%  [k] sg_next\n')
            top = readers.read_perf(txt, readers.idle_aliases(readers.read_kallsyms(ks)))
            self.assertEqual(top, [(17.11, 'idle loop (__sched_text_end)'), (4.0, 'sg_next')])
        finally:
            shutil.rmtree(tmp)

    def test_perf_report_with_field_separator(self):
        # perf report -q --stdio --no-children --sort sym -g none -t '|' (host perf 6.1)
        top = readers.read_perf(os.path.join(DATA, 'perf-report-t.txt'), {'pvm_irq_enable'})
        self.assertEqual(top[0], (28.81, 'idle loop (pvm_irq_enable)'))
        self.assertEqual(top[1], (6.78, '0x000000000013f776'))

    def test_perf_report_with_fields_and_separator(self):
        # perf report -q --stdio --no-children --sort sym -F overhead,sym -g none -t '|'
        # (host perf 6.1, as bench/guest.sh runs it), and its first line
        # with a kernel symbol that is idle
        top = readers.read_perf(os.path.join(DATA, 'perf-report-F-t.txt'), {'PyErr_Format'})
        self.assertEqual(top[0], (4.05, 'PyDict_SetDefault'))
        self.assertEqual(top[1], (1.35, 'idle loop (PyErr_Format)'))
        with open(os.path.join(DATA, 'perf-report-F-t.txt')) as f:
            self.assertEqual(len(top), sum(1 for ln in f if ln.strip()))

    def test_slabinfo_reads_slabs_and_objects_per_slab(self):
        s = readers.read_slabinfo(os.path.join(DATA, 'decision-run', 'raw', 'real', 'sg_ring', 'r1',
                                             'share', 'out', 'read-4M-qd32.slabinfo'))
        self.assertTrue(s)
        for x in s.values():
            self.assertEqual(x['total'], x['slabs'] * x['per_slab'])


class StatisticsTest(unittest.TestCase):
    def test_identical_repeats_are_never_significant_nor_plus_minus_zero(self):
        # real read-4M-qd32 of ref-icount-2: 35 I/Os in every repeat, both kernels
        c = stats.paired([305e6 / 35] * 3, [305e6 / 35] * 3, stats.quantum_floor(35, 305))
        self.assertFalse(c.significant)
        self.assertIsNone(c.p)
        self.assertFalse(c.resolved)
        self.assertEqual(c.verdict(), 'not resolved')
        self.assertIn('not resolved', report_lib.cell(c))
        self.assertGreater(c.floor, 2.8)          # one I/O in 35 is 2.86 %

    def test_constant_step_without_spread_is_not_significant(self):
        stats.holm([c := stats.paired([100.0] * 3, [101.0] * 3, 0.01)])
        self.assertFalse(c.significant)

    def test_pairing_removes_the_repeat_effect(self):
        # the repeats differ by 10 % (order, layout), sg_ring is 1 % slower in each
        a = [100.0, 110.0, 105.0]
        b = [101.0, 111.05, 106.1]
        c = stats.paired(a, b, 0.01)
        stats.holm([c])
        self.assertTrue(c.significant)
        self.assertAlmostEqual(c.mean, 1.0, places=1)
        self.assertLess(c.half, 0.2)

    def test_holm_over_many_comparisons(self):
        comps = [stats.paired([100.0, 100.0, 100.0], [101.0, 101.2, 100.8 + i * 0.01], 0.01) for i in range(3)]
        comps += [stats.paired([100.0, 100.0, 100.0], [100.5, 99.0, 101.6], 0.01) for _ in range(50)]
        stats.holm(comps)
        ps = sorted(c.p for c in comps)
        self.assertLess(ps[0], 0.05)
        # Holm multiplies the smallest p by the number of tests
        best = min(comps, key=lambda c: c.p)
        self.assertAlmostEqual(best.p_holm, min(1.0, best.p * len(comps)))
        self.assertFalse(any(c.significant for c in comps[3:]))

    def test_difference_under_the_floor_is_not_significant(self):
        c = stats.paired([1000.0, 1010.0, 1005.0], [1001.0, 1011.1, 1006.0], 0.5)
        stats.holm([c])
        self.assertFalse(c.significant)

    def test_resolution_is_the_floor_or_the_detectable_effect(self):
        c = stats.paired([100.0, 100.0, 100.0], [101.0, 103.0, 99.0], 0.3)
        self.assertGreater(c.mde, c.half)          # power 80 % needs more than the interval
        self.assertEqual(c.resolution, max(c.floor, c.mde))

    # ref-icount-4's real randread-4M-qd32: 473 against 475 I/Os in all
    # three repeats, windows of 2462, 2461 and 2461 ms on both kernels.
    # The differences agree but for float rounding (sd 1e-14 %), which
    # `sd > 0` took for spread: bold "-0.42 % ± < 0.01 %", p = 2e-28.
    WIN = (2462, 2461, 2461)

    def test_near_equal_float_spread_counts_as_none(self):
        a = [w * 1e6 / 473 for w in self.WIN]
        b = [w * 1e6 / 475 for w in self.WIN]
        c = stats.paired(a, b, stats.quantum_floor(473, 2461))
        self.assertGreater(statistics.stdev(c.diffs), 0)   # the rounding is there
        self.assertLess(statistics.stdev(c.diffs), 1e-12)
        stats.holm([c])
        self.assertFalse(c.single)
        self.assertIsNone(c.p)
        self.assertEqual((c.half, c.mde), (0.0, 0.0))
        self.assertFalse(c.significant)
        self.assertEqual(c.pm, c.floor)                    # ± the floor, not < 0.01 %
        self.assertEqual(c.resolution, c.floor)
        self.assertEqual(report_lib.plus_minus(c), '-0.42 % ± 0.25 %, the same in all 3 repeats')
        # a real spread of the same size as the difference is still tested
        d = stats.paired([100.0, 100.0, 100.0], [99.5, 99.6, 99.55], 0.1)
        self.assertIsNotNone(d.p)

    def test_the_same_io_counts_in_every_repeat_are_one_observation(self):
        # with the window's whole milliseconds the repeats differ (real
        # read-4M-qd32 of ref-icount-4: sg_ring 2462, 2461, 2461 ms against
        # 2461 ms each: "-0.41 % ± 0.06 %", significant), but every repeat
        # completed the same I/Os: one observation, no p, no interval
        self.assertEqual(stats.Comparison([-0.4, -0.4, -0.44], 0.25, [1.0]).single, False)
        c = stats.paired([2461e6 / 473] * 3, [w * 1e6 / 475 for w in self.WIN], stats.quantum_floor(473, 2461),
                         single=True)
        stats.holm([c])
        self.assertTrue(c.single)
        self.assertIsNone(c.p)
        self.assertIsNone(c.p_holm)
        self.assertTrue(math.isnan(c.half) and math.isnan(c.pm) and math.isnan(c.resolution))
        self.assertFalse(c.significant)
        self.assertFalse(c.resolved)
        self.assertFalse(c.resolves(0.5))
        self.assertEqual(c.verdict(), 'one observation')   # -0.41 % is beyond the 0.25 % floor
        self.assertNotIn('±', report_lib.cell(c))
        self.assertEqual(report_lib.cell(c), '-0.41 %, one observation (floor 0.25 %)')
        # under the floor it is not resolved, as one repeat is
        self.assertEqual(stats.paired([100.0] * 2, [100.1] * 2, 0.3, single=True).verdict(), 'not resolved')
        self.assertEqual(stats.paired([100.0], [101.0], 0.3).verdict(), 'one observation')

    def test_run_compare_finds_the_repeated_io_counts(self):
        tmp = tempfile.mkdtemp()
        try:
            p = ('randread-4M-qd32', 'read-4M-qd32', 'randread-4k-qd1')
            ios = {('real', 'sg_table', p[0]): list(zip([473] * 3, self.WIN)),
                   ('real', 'sg_ring', p[0]): list(zip([475] * 3, self.WIN)),
                   ('real', 'sg_table', p[1]): [(473, 2461)] * 3,
                   ('real', 'sg_ring', p[1]): list(zip([475] * 3, self.WIN)),
                   # one kernel's counts repeat, the other's do not: tested
                   ('real', 'sg_table', p[2]): [18925, 18925, 18925],
                   ('real', 'sg_ring', p[2]): [18808, 18809, 18803]}
            m = model.Run(make_run(tmp, 'r', ios, p, ('real',)))
            fam = m.family('sg_ring')
            self.assertTrue(fam[('real', p[0])].single)
            self.assertTrue(fam[('real', p[1])].single)
            self.assertFalse(fam[('real', p[2])].single)
            self.assertTrue(fam[('real', p[2])].significant)
            self.assertFalse(any(fam[('real', x)].significant for x in p[:2]))
            # latency is not the I/O count over the window: tested as it spreads
            self.assertFalse(m.compare('real', p[0], 'sg_ring', 'lat_mean_us').single)
            # the size class of one-observation points is one observation
            cls = m.classes('sg_ring')
            self.assertTrue(cls[('real', '4M')][0].single)
            self.assertFalse(cls[('real', '4k')][0].single)
            self.assertEqual(stats.resolving(fam.values()), {'resolve': 1, 'floor': 0, 'one': 2, 'spread': 0})
        finally:
            shutil.rmtree(tmp)

    def test_plus_minus_is_at_least_the_floor(self):
        # repeats that agree to 0.01 % at a point whose floor is 0.3 %
        c = stats.paired([100.0, 100.0, 100.0], [101.0, 101.01, 100.99], 0.3)
        self.assertLess(c.half, 0.03)
        self.assertEqual(c.pm, 0.3)
        self.assertEqual(report_lib.plus_minus(c), '+1.00 % ± 0.30 %')
        # a spread wider than the floor is printed as it is
        d = stats.paired([100.0, 100.0, 100.0], [101.0, 103.0, 99.0], 0.3)
        self.assertEqual(d.pm, d.half)
        self.assertEqual(report_lib.plus_minus(d), f'+1.00 % ± {d.half:.2f} %')


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def read(self, run, name):
        with open(os.path.join(run, name)) as f:
            return f.read()

    def test_headline_in_the_first_40_lines_and_no_plus_minus_zero(self):
        points = ['randread-4k-qd1', 'randread-4M-qd32']
        ios = {}
        for d in ('real', 'fake'):
            ios[(d, 'sg_table', points[0])] = [18925, 18920, 18924]
            ios[(d, 'sg_ring', points[0])] = [18808, 18809, 18803]
            ios[(d, 'sg_table', points[1])] = [35, 35, 35]
            ios[(d, 'sg_ring', points[1])] = [35, 35, 35]
        run = make_run(self.tmp, 'r', ios, points, ('real', 'fake'),
                       extra_meta=['perf fake:read-1M-qd32'])
        report.Report(run).write()  # with the plots, once
        lines = self.read(run, 'REPORT.md').splitlines()
        head = [i for i, ln in enumerate(lines) if ln.startswith('| device | size |')]
        self.assertTrue(head and head[0] < 40, head)
        text = '\n'.join(lines)
        self.assertNotIn('± 0.00 %', text)
        self.assertIn('| real | 4M | not resolved', text)
        # a perf point that was not run has no section
        self.assertNotIn('Where the time goes', text)
        self.assertNotIn('microbenchmark', text)
        self.assertTrue(os.path.exists(os.path.join(run, 'points.csv')))
        self.assertFalse(os.path.exists(os.path.join(run, 'summary.json')))

    def test_a_tiny_interval_is_not_printed_as_zero(self):
        # ref-icount-3's real randread-4M-qd32: repeats agreeing to 0.003 %
        # printed '± 0.00 %'
        self.assertEqual(report_lib.pct(0.003, False), '< 0.01 %')
        self.assertEqual(report_lib.pct(0.006, False), '0.01 %')
        self.assertEqual(report_lib.pct(-0.003), '-0.00 %')
        self.assertEqual(report_lib.pct(0.42, False), '0.42 %')

    def test_repeats_that_agree_exactly_say_so(self):
        # ref-icount-3's real randwrite-4M-qd32: both kernels gave the same
        # I/O count in every repeat, printed '-0.44 % ± 0.00 %': one
        # observation, with no interval
        points = ['randwrite-4M-qd32']
        ios = {('real', 'sg_table', points[0]): [3000, 3000, 3000],
               ('real', 'sg_ring', points[0]): [3030, 3030, 3030]}
        run = make_run(self.tmp, 'eq', ios, points, ('real',))
        report.Report(run).write(plots=False)
        text = self.read(run, 'REPORT.md')
        self.assertNotIn('± 0.00 %', text)
        self.assertIn('| randwrite-4M-qd32 | -0.99 %, one observation (floor 0.37 %) |', text)
        self.assertIn('| real | 4M | -0.99 %, one observation | -990 of 100000 | floor 0.37 % | 0 of 1 | '
                      'one observation |', text)
        self.assertIn('0 of 1 points resolve a difference of 0.5 % or less', text)
        self.assertIn(', 1 because they are one observation', text)
        self.assertNotIn('**-0.99 %', text)  # never significant without spread

    def test_identical_io_counts_are_never_significant_in_the_report(self):
        # ref-icount-4's real randread-4M-qd32, read-4M-qd32 and
        # write-4M-qd32: bold, significant, on the same I/O counts in every
        # repeat; beside them a point whose counts vary
        points = ['randread-4M-qd32', 'read-4M-qd32', 'randread-4k-qd1']
        ios = {('real', 'sg_table', points[0]): [(473, w) for w in StatisticsTest.WIN],
               ('real', 'sg_ring', points[0]): [(475, w) for w in StatisticsTest.WIN],
               ('real', 'sg_table', points[1]): [(473, 2461)] * 3,
               ('real', 'sg_ring', points[1]): [(475, w) for w in StatisticsTest.WIN],
               ('real', 'sg_table', points[2]): [18925, 18920, 18924],
               ('real', 'sg_ring', points[2]): [18808, 18809, 18803]}
        run = make_run(self.tmp, 'icount', ios, points, ('real',))
        report.Report(run).write(plots=False)
        text = self.read(run, 'REPORT.md')
        self.assertIn('| randread-4M-qd32 | -0.42 %, one observation (floor 0.25 %) |', text)
        self.assertIn('| read-4M-qd32 | -0.41 %, one observation (floor 0.25 %) |', text)
        self.assertIn('| real | 4M | -0.41 %, one observation | -21558 of 5203312 | floor 0.25 % | 0 of 2 | '
                      'one observation |', text)
        self.assertRegex(text, r'\| randread-4k-qd1 \| \*\*\+0\.62 % ± 0\.34 % \(res\. 0\.34 %\)\*\* \|')
        with open(os.path.join(run, 'points.csv')) as f:
            rows = [ln.split(',') for ln in f if ',ns_per_io,sg_ring,' in ln]
        # vs_control_ci95_pct and p empty, significant 0 at the two 4M points
        head = 'device,point,metric,kernel,n,median,mean,ci95,vs_control_pct,vs_control_ci95_pct,floor_pct,' \
            'mde_pct,p,p_holm,significant,resolved'.split(',')
        got = {r[1]: dict(zip(head, r)) for r in rows}
        for p in points[:2]:
            self.assertEqual((got[p]['vs_control_ci95_pct'], got[p]['p'], got[p]['significant']), ('', '', '0'))
        self.assertEqual(got[points[2]]['significant'], '1')

    def test_single_repeat_renders_and_says_so(self):
        # make test's small bench runs REPEATS=1; its resume check reads 'Status: complete'
        run = make_run(self.tmp, 'one', {('fake', 'sg_table', 'randread-4k-qd1'): [100],
                                         ('fake', 'sg_ring', 'randread-4k-qd1'): [99]})
        report.Report(run).write(plots=False)
        text = self.read(run, 'REPORT.md')
        self.assertRegex(text, r'(?m)^Status: complete\.$')
        self.assertIn('| fake | 4k | not resolved', text)
        self.assertIn('0 of 1 points resolve', text)

    def test_same_raw_files_same_report(self):
        run = make_run(self.tmp, 'r', {('fake', 'sg_table', 'randread-4k-qd1'): [100, 101],
                                       ('fake', 'sg_ring', 'randread-4k-qd1'): [99, 100]})
        report.Report(run).write(plots=False)
        first = self.read(run, 'REPORT.md')
        report.Report(run).write(plots=False)
        self.assertEqual(first, self.read(run, 'REPORT.md'))


class DecisionFromRawTest(unittest.TestCase):
    """DECISION.md comes from raw files alone: the same whether rendered
    before or after the report, and whatever the run folder is called."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.roles = decision_rules.ROLES
        decision_rules.ROLES = decision_rules.ROLES[:1]

    def tearDown(self):
        decision_rules.ROLES = self.roles
        shutil.rmtree(self.tmp)

    def run_dir(self, name):
        ios = {('real', 'sg_table', 'randread-4k-qd1'): [18925, 18920, 18924, 18930],
               ('real', 'sg_ring', 'randread-4k-qd1'): [18708, 18709, 18703, 18712]}
        run = make_run(self.tmp, name, ios, devices=('real',))
        shutil.copytree(os.path.join(DATA, 'decision-run', 'raw', 'decision'), os.path.join(run, 'raw', 'decision'))
        return run

    def render(self, run):
        """DECISION.md and its appendix (the rows in full, the tables), one text."""
        decision.Decision(run).write()
        with open(os.path.join(run, 'DECISION.md')) as f, open(os.path.join(run, decision_rules.APPENDIX)) as g:
            return f.read() + g.read()

    def test_first_or_last_and_any_folder_name(self):
        a = self.run_dir('one')
        first = self.render(a)
        report.Report(a).write(plots=False)
        last = self.render(a)
        self.assertEqual(first, last)
        self.assertEqual(first, self.render(self.run_dir('another-name')))
        self.assertIn('Guest time per I/O (fio over scsi_debug: real) | **sg_table**', first)

    def test_no_significant_point_gives_no_verdict(self):
        run = make_run(self.tmp, 'flat', {('real', 'sg_table', 'read-4M-qd32'): [35, 35, 35],
                                          ('real', 'sg_ring', 'read-4M-qd32'): [35, 35, 35]},
                       points=('read-4M-qd32',), devices=('real',))
        shutil.copytree(os.path.join(DATA, 'decision-run', 'raw', 'decision'), os.path.join(run, 'raw', 'decision'))
        text = self.render(run)
        self.assertIn('| **neither shown**: no point significant of 1 (paired, Holm); 1 not resolved', text)

    def test_identical_io_counts_are_one_observation_and_resolve_nothing(self):
        # real randwrite-4M-qd32 of ref-icount-4 (504 against 506 I/Os in
        # every repeat) beside a point that resolves 0.5 %
        pts = ('randwrite-4M-qd32', 'randread-4k-qd1')
        run = make_run(self.tmp, 'one', {('real', 'sg_table', pts[0]): [(504, 2460)] * 3,
                                         ('real', 'sg_ring', pts[0]): [(506, 2459)] * 3,
                                         ('real', 'sg_table', pts[1]): [18925, 18920, 18924],
                                         ('real', 'sg_ring', pts[1]): [18808, 18809, 18803]},
                       points=pts, devices=('real',))
        shutil.copytree(os.path.join(DATA, 'decision-run', 'raw', 'decision'), os.path.join(run, 'raw', 'decision'))
        text = self.render(run)
        self.assertIn('| Guest time per I/O (fio over scsi_debug: real) | **sg_table**: sg_ring +0.62 % to +0.62 % '
                      'at 1 significant points of 2 (paired, Holm); 0 not resolved, 1 one '
                      'observation; 1 of 2 resolve a 0.5 % difference ([in full]', text)
        # in full in the appendix
        self.assertIn('Ahead: **sg_table**. sg_ring +0.62 % to +0.62 % '
                      'guest ns per I/O at the 1 significant points of 2 (paired, Holm); 0 not resolved by the rig; '
                      '1 one observation (beyond the floor, but the same I/O counts in every repeat on both '
                      'kernels: no interval, no test); 1 of 2 resolve a 0.5 % difference (resolution at most '
                      '0.5 %); per size class', text)


if __name__ == '__main__':
    unittest.main()


class DevicesTest(unittest.TestCase):
    """Every device but scsi_debug's is a QEMU disk, and every device must
    be described: the first run with ahci (bench-unconverted, 2026-12-08)
    had no device_ahci line, and the report died on a KeyError."""
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_qemu_devices_are_all_but_scsi_debugs(self):
        self.assertFalse(model.is_qemu_device('real'))
        self.assertFalse(model.is_qemu_device('fake'))
        for d in ('virtio', 'pvscsi', 'ahci'):
            self.assertTrue(model.is_qemu_device(d), d)

    def test_an_undescribed_device_is_named(self):
        run = make_run(self.tmp, 'r', {('ahci', v, 'randread-4k-qd1'): [100, 100] for v in ('sg_ring', 'sg_table')},
                       devices=('ahci',))
        meta = os.path.join(run, 'meta.txt')
        with open(meta) as f:
            text = f.read()
        with open(meta, 'w') as f:
            f.write(text.replace('device_ahci scsi_debug fixture\n', ''))
        with self.assertRaises(SystemExit) as cm:
            model.Run(run)
        self.assertIn('has no device_ahci line', str(cm.exception.code))
        self.assertIn('RUN_ID=r', str(cm.exception.code))
