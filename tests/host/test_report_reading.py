"""Host-side tests of how REPORT.md reads (issue 34): the table at a
glance, the perf section, the latency percentiles and the difference
plot (item 7). The percentiles come with fio's bin width and are
not given where the measured difference is within two bins; the
difference plot draws each device class on its own axis over the
points' resolution bands, in colours and markers that do not depend on
telling red from green; the latency CDFs are gone.  Fixtures: runs made
by test_model.make_run, with json+ histogram bins written into them."""
import json
import os
import shutil
import tempfile
import unittest

from bench import report
from bench import report_latency
from bench import report_plots
from bench import stats
from tests.host.test_model import make_run  # noqa: E402


def add_bins(run, device, variant, point, bins):
    """Put fio json+ total-latency BINS ({ns: count}) into the first
    repeat's fio file of the point."""
    path = os.path.join(run, 'raw', device, variant, 'r1', 'share', 'out', point + '.json')
    with open(path) as f:
        doc = json.load(f)
    job = doc['jobs'][0]
    d = job['read'] if job['read']['total_ios'] else job['write']
    d['lat_ns']['bins'] = {str(ns): c for ns, c in bins.items()}
    with open(path, 'w') as f:
        json.dump(doc, f)


class BinTest(unittest.TestCase):
    def test_bin_width_is_fios(self):
        # fio stat.h: exact below 2**7 ns, then 64 bins per power of two
        self.assertEqual(report_latency.bin_width(100), 1)
        self.assertEqual(report_latency.bin_width(128), 2)
        self.assertEqual(report_latency.bin_width(17536), 256)      # 1.46 % at 17.5 us
        self.assertEqual(report_latency.bin_width(1220608), 16384)  # 1.34 % at 1.22 ms

    def test_percentile_is_the_bin_where_the_count_reaches_it(self):
        bins = [(1000, 40), (1100, 10), (1200, 49), (5000, 1)]
        self.assertEqual(report_latency.percentile(bins, 0.5), 1100)
        self.assertEqual(report_latency.percentile(bins, 0.99), 1200)
        self.assertEqual(report_latency.percentile(bins, 1.0), 5000)


class RenderTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_with_bins(self):
        # randread-1M-qd1: sg_ring 3 % faster (guest ns per I/O), well
        # beyond a bin; randread-4k-qd1: 0.2 % faster, within one
        pts = ('randread-4k-qd1', 'randread-1M-qd1')
        ios = {('fake', 'sg_table', pts[0]): [20000, 20010, 19990],
               ('fake', 'sg_ring', pts[0]): [20040, 20050, 20030],
               ('fake', 'sg_table', pts[1]): [1000, 1002, 998],
               ('fake', 'sg_ring', pts[1]): [1031, 1033, 1029]}
        run = make_run(self.tmp, 'run', ios, points=pts)
        add_bins(run, 'fake', 'sg_table', pts[0], {15008: 900, 15264: 100})
        add_bins(run, 'fake', 'sg_ring', pts[0], {14976: 900, 15264: 100})
        add_bins(run, 'fake', 'sg_table', pts[1], {299008: 500, 303104: 500})
        add_bins(run, 'fake', 'sg_ring', pts[1], {290816: 500, 294912: 500})
        return run

    def test_percentiles_only_where_the_effect_exceeds_the_bin(self):
        run = self.run_with_bins()
        os.makedirs(os.path.join(run, 'plots'))
        stale = os.path.join(run, 'plots', 'lat-cdf-fake.png')
        open(stale, 'w').close()
        report.Report(run).write(plots=True)
        with open(os.path.join(run, 'REPORT.md')) as f:
            text = f.read()
        rows = {ln.split(' | ')[0][2:]: ln for ln in text.splitlines() if ln.startswith('| randread-')
                and 'p50' not in ln and ' us' not in ln and '/' in ln}
        self.assertIn('not shown: the difference (-0.20 %) is within two bins', rows['randread-4k-qd1'])
        self.assertIn('| 0.85 % |', rows['randread-4k-qd1'])   # 128 ns at 15.0 us
        self.assertIn('-2.7 % (measured -3.01 %)', rows['randread-1M-qd1'])
        self.assertIn('| 15.0 / 15.3 |', rows['randread-4k-qd1'])
        self.assertNotIn('lat-cdf', text)
        self.assertFalse(os.path.exists(stale), 'a latency CDF of an earlier rendering was left')
        self.assertTrue(os.path.exists(os.path.join(run, 'plots', 'diff-sg_ring.png')))


class PlotStyleTest(unittest.TestCase):
    def test_verdict_is_in_marker_and_fill_as_well_as_colour(self):
        sig = stats.paired([100.0, 100.0, 100.0], [103.0, 103.1, 102.9], 0.1)
        sig.significant = True
        one = stats.paired([100.0], [97.0], 0.1, single=True)
        nr = stats.paired([100.0, 100.0, 100.0], [100.05, 99.95, 100.0], 0.3)
        self.assertEqual(report_plots.style(sig), (report_plots.SLOWER, 'o', True))
        self.assertEqual(report_plots.style(one), (report_plots.FASTER, 's', False))
        self.assertEqual(report_plots.style(nr), (report_plots.NEITHER, 'o', False))
        # neither colour is pure red or pure green
        self.assertNotIn(report_plots.FASTER.lower(), ('#00ff00', '#008000', '#2ca02c'))
        self.assertNotIn(report_plots.SLOWER.lower(), ('#ff0000', '#d62728'))

    def test_each_device_class_has_its_own_axis(self):
        small = [stats.paired([100.0] * 3, [99.6, 99.7, 99.65], 0.1)]
        big = [stats.paired([100.0] * 3, [75.0, 75.2, 74.9], 0.1)]
        for c in small + big:
            c.significant = True
        self.assertLess(report_plots.axis_limit(small), 1.0)
        self.assertGreater(report_plots.axis_limit(big), 25.0)


if __name__ == '__main__':
    unittest.main()


class PerfSectionTest(unittest.TestCase):
    """The perf section (issue 34, item 7): its symbol groups summed shares
    by regular expressions nobody checked (the idle loop under
    amd_e400_idle fell outside 'idle', which then read 0.0 % beside a
    13.5 % idle symbol), and its 'top symbols' were the first eight in
    perf's file order.  Now: no group sums, the top symbols by share, the
    AMD idle routine named the idle loop, and the perturbation said."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_top_symbols_by_share_and_amd_idle_named(self):
        pt = 'randread-4k-qd1'
        ios = {('fake', v, pt): [20000, 20010, 19990] for v in ('sg_table', 'sg_ring')}
        run = make_run(self.tmp, 'run', ios, points=(pt,), extra_meta=['perf fake:' + pt])
        for v in ('sg_table', 'sg_ring'):
            out = os.path.join(run, 'raw', 'fake', v, 'r1', 'share', 'out')
            with open(os.path.join(out, 'kallsyms'), 'w') as f:
                f.write('ffffffff81020000 t amd_e400_idle\nffffffff81000000 T sg_next\n')
            with open(os.path.join(out, pt + '.perf.txt'), 'w') as f:
                f.write(' 2.00% |[k] a_small_one\n 13.50% |[k] amd_e400_idle\n 5.00% |[k] sg_next\n')
        report.Report(run).write(plots=False)
        with open(os.path.join(run, 'REPORT.md')) as f:
            text = f.read()
        self.assertIn('sg_ring top symbols: idle loop (amd_e400_idle) 13.5 %, sg_next 5.0 %, a_small_one 2.0 %',
                      text)
        self.assertNotIn('| group |', text)
        self.assertIn('perf perturbs what it samples', text)


class GlanceTest(unittest.TestCase):
    """REPORT.md's table at a glance (issue 34: one headline table): a row
    per device and size with every candidate's verdict and what measured
    it, right after the device classes."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_one_row_per_device_and_size_with_what_measured_it(self):
        pts = ('randread-4k-qd1', 'randread-1M-qd1')
        ios = {}
        for d in ('real', 'fake'):
            ios[(d, 'sg_table', pts[0])] = [20000, 20010, 19990]
            ios[(d, 'sg_ring', pts[0])] = [20040, 20050, 20030]
            ios[(d, 'sg_table', pts[1])] = [1000, 1002, 998]
            ios[(d, 'sg_ring', pts[1])] = [1031, 1033, 1029]
        run = make_run(self.tmp, 'run', ios, points=pts, devices=('real', 'fake'))
        report.Report(run).write(plots=False)
        with open(os.path.join(run, 'REPORT.md')) as f:
            lines = f.read().splitlines()
        at = lines.index('| device | size | class | sg_ring against sg_table | measured by |')
        self.assertLess(at, lines.index('## Answer: sg_ring against sg_table, guest time per I/O'))
        rows = [ln for ln in lines[at + 2:] if ln.startswith('|')][:4]
        self.assertEqual([r.split(' | ')[0:2] for r in rows],
                         [['| real', '4k'], ['| real', '1M'], ['| fake', '4k'], ['| fake', '1M']])
        self.assertIn('**-3.01 %', rows[1])          # significant, bold
        self.assertIn('not resolved (-0.20 %', rows[0])
        self.assertTrue(all(r.endswith("fio: guest time per I/O, 3 repeats, the size's points |") for r in rows))


class GlanceIommuTest(__import__('tests.host.test_markdown_tables', fromlist=['RenderedRun']).RenderedRun):
    """The table at a glance carries the IOMMU class of the run's
    attribution evidence (the synthetic run of test_markdown_tables: the
    IOMMU class on two devices, run twice), each row with both runs."""

    def test_iommu_rows(self):
        run = self.run_dir()
        report.Report(run).write(plots=False)
        with open(os.path.join(run, 'REPORT.md')) as f:
            text = f.read()
        top = text.split('## Answer')[0]
        rows = [ln for ln in top.splitlines() if ln.split(' | ')[0] in ('| iommu-strict', '| iommu-lazy')
                and '-qd' in ln.split(' | ')[1]]
        self.assertTrue(rows, 'no IOMMU row in the table at a glance')
        for r in rows:
            self.assertIn('DMA map/unmap', r)
            self.assertIn(' and ', r)        # the run and its repeat
        self.assertIn("behind QEMU's intel-iommu", top)
