"""Host-side tests of bench/attrib.py's IOMMU class: the entries of a
function (executions of every translated block at its first instruction,
icount's cut-short translations included) per I/O, the DMA and IOMMU calls
table, the block requests per I/O from the disk's stat, the idle phase kept
out of the comparison, and `compare` of two runs; on the hand-made fixture
tests/data/attrib-iommu/ (a 9-symbol System.map, plugin output with three
marks for one point of N = 10 I/Os per kernel).  The expected figures are
worked out by hand in the comments.  Also: the report does not depend on
Python's hash seed (ties in the difference list are ordered by name)."""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')
DATA = os.path.join(HERE, '..', 'data', 'attrib-iommu')
PHASES = os.path.join(TOP, 'bench', 'attrib-phases.txt')

from bench import attrib_counts  # noqa: E402
from bench import attrib_fold  # noqa: E402
from bench import attrib_report  # noqa: E402


def fx(name):
    return os.path.join(DATA, name)


class IommuFoldTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='attrib-iommu-test-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def fold(self, variant, counts=None, run=None, dev='iommu-strict'):
        out = os.path.join(run or self.tmp, 'raw', dev, variant)
        attrib_fold.fold(fx(counts or 'counts-%s.txt' % variant), fx('System.map'), fx('kallsyms'), fx('points'), out)
        for f in ('queue-limits', 'iommu-state', 'randread-64k-qd1.stat'):
            shutil.copy(fx(f), out)
        return out

    def read(self, variant):
        return attrib_counts.read_tsv(os.path.join(self.fold(variant), 'randread-64k-qd1.tsv'))

    def test_entries_add_up_every_translation_of_the_first_block(self):
        meta, funcs = self.read('sg_table')
        # alloc_iova_fast: its entry block as a whole (8 insns, 15 then 30
        # runs) and cut short by icount (3 insns, 5 then 10 runs); the block
        # inside it at +0x30 (30 then 60 runs) is no entry
        self.assertEqual(funcs['alloc_iova_fast'], [15 * 8 + 5 * 3 + 30 * 4, 30 * 8 + 10 * 3 + 60 * 4, 20, 40])
        eio = attrib_counts.entries_per_io(meta, funcs)
        self.assertEqual(eio['alloc_iova_fast'], 2.0)
        # intel_iommu_map_pages: 171 then 341 runs, 17 per I/O by difference
        self.assertEqual(eio['intel_iommu_map_pages'], 17.0)
        # cpu_idle_poll ran only its loop block: instructions, no entries
        self.assertEqual(eio['cpu_idle_poll'], 0.0)
        self.assertEqual(attrib_counts.per_io(meta, funcs)['cpu_idle_poll'], (2600 - 1000) * 2 / 10)

    def test_stat_gives_requests_and_their_size_per_io(self):
        # read_ios 100 -> 112 -> 134, sectors 800 -> 2096 -> 4672: one
        # request of 128 sectors per I/O, and 2 requests (16 sectors) more in
        # each run that cancel
        rows = attrib_counts.read_stat(fx('randread-64k-qd1.stat'))
        self.assertEqual(attrib_counts.stat_per_io(rows, 10), (1.0, 128.0))

    def test_phase_rules_put_the_iommu_in_dma_and_the_idle_spin_in_idle(self):
        rules = attrib_counts.read_phases(PHASES)
        for f in ('alloc_iova_fast', 'alloc_iova', 'free_iova_fast', 'queue_iova', 'fq_flush_timeout',
                  'iommu_dma_map_sg', '__iommu_dma_unmap', 'intel_iommu_map_pages', 'qi_submit_sync',
                  'iova_rcache_get', 'iova_magazine_pop', '__alloc_and_insert_iova_range', 'remove_iova',
                  'dma_pte_clear_level', 'pfn_to_dma_pte', '__finalise_sg', 'dma_map_sg_ring_attrs',
                  'iommu_dma_map_sg_ring', 'iommu_dma_unmap_sg_ring', 'iommu_dma_layout_sg.isra.0',
                  '__finalise_sg.isra.0'):
            self.assertEqual(attrib_counts.phase_of(rules, f), 'dma', f)
        self.assertEqual(attrib_counts.phase_of(rules, 'cpu_idle_poll'), 'idle')
        self.assertEqual(attrib_counts.phase_of(rules, 'pvscsi_queue'), 'scsi')
        for f in ('megasas_build_and_issue_cmd', 'megasas_make_sgl_skinny', 'megasas_complete_cmd_dpc'):
            self.assertEqual(attrib_counts.phase_of(rules, f), 'scsi', f)

    def test_report_has_the_iommu_calls_the_stat_and_idle_apart(self):
        self.fold('sg_table')
        self.fold('sg_ring')
        attrib_report.report(self.tmp, PHASES)
        with open(os.path.join(self.tmp, 'ATTRIBUTION.md')) as f:
            md = f.read()
        self.assertIn('## iommu-strict: the disk\'s queue limits and the IOMMU', md)
        self.assertIn('- sg_table: max_hw_sectors_kb 32767, max_sectors_kb 512, max_segment_size 65536, '
                      'max_segments 128; IOMMU group type of 0000:00:03.0: DMA.', md)
        # dma: iommu_dma_map_sg 10 + alloc_iova_fast 25.5 + alloc_iova 6 +
        # intel_iommu_map_pages 119 = 160.5 (sg_table); 20 + 33.5 + 6 + 126
        # = 185.5 (sg_ring)
        self.assertIn('| DMA map/unmap | 160 | 186 | +25.0 | +15.6 % |', md)
        # idle: 320 and 180; the totals with it and without
        self.assertIn('| idle (spinning while QEMU does the I/O: host-dependent) | 320 | 180 | -140 | -43.8 % |', md)
        self.assertIn('| **total** | 486 | 370 | -115 | -23.7 % |', md)
        self.assertIn('| **total without idle** | 166 | 190 | +25.0 | +15.1 % |', md)
        self.assertIn('sg_table 1.0 (64.0 KiB each), sg_ring 1.0 (64.0 KiB each)', md)
        self.assertIn('| scatterlist maps (iommu_dma_map_sg: one per array mapped) | 1.00 | 2.00 | +1.00 |', md)
        self.assertIn('| IOVA allocations (alloc_iova_fast) | 2.00 | 3.00 | +1.00 |', md)
        # a kernel without series 0029-0030 (these fixtures) maps no ring at once
        self.assertIn('| sg_rings mapped at once (iommu_dma_map_sg_ring, series 0029-0030: one per ring of 2 or more '
                      'arrays) | 0.00 | 0.00 | 0.00 |', md)
        self.assertIn('| mapped ranges written to the IOMMU page table (intel_iommu_map_pages) | 17.00 | 18.00 | +1.00 |',
                      md)
        self.assertIn('| IOVA frees (free_iova_fast) | 0.00 | 0.00 | 0.00 |', md)
        # the difference without idle, and cpu_idle_poll not among its functions
        self.assertIn('the whole difference without idle is 25.0', md)
        self.assertNotIn('`cpu_idle_poll`', md)
        self.assertIn('| `iommu_dma_map_sg` | dma | 10.0 | 20.0 | +10.0 |', md)

    def test_report_without_idle_has_no_idle_rows(self):
        self.fold('sg_table', dev='fake')
        attrib_report.report(self.tmp, PHASES)
        with open(os.path.join(self.tmp, 'ATTRIBUTION.md')) as f:
            md = f.read()
        # the fixture's fake device still spins (it is the same counts), so
        # make one without: an idle row appears only when there is idle
        self.assertIn('| idle (spinning', md)
        os.remove(os.path.join(self.tmp, 'raw', 'fake', 'sg_table', 'randread-64k-qd1.tsv'))
        attrib_fold.fold(os.path.join(HERE, '..', 'data', 'attrib', 'counts-sg_table.txt'),
                    os.path.join(HERE, '..', 'data', 'attrib', 'System.map'),
                    os.path.join(HERE, '..', 'data', 'attrib', 'kallsyms'),
                    os.path.join(HERE, '..', 'data', 'attrib', 'points'),
                    os.path.join(self.tmp, 'raw', 'fake', 'sg_table'))
        os.remove(os.path.join(self.tmp, 'raw', 'fake', 'sg_table', 'randread-64k-qd1.stat'))
        attrib_report.report(self.tmp, PHASES)
        with open(os.path.join(self.tmp, 'ATTRIBUTION.md')) as f:
            md = f.read()
        self.assertNotIn('idle', md)
        self.assertNotIn('DMA and IOMMU calls', md)

    def test_compare_shows_what_differs_between_two_runs(self):
        a = os.path.join(self.tmp, 'a')
        b = os.path.join(self.tmp, 'b')
        self.fold('sg_table', run=a)
        # run B: "sg_table" is the sg_ring fixture, so every figure moves
        self.fold('sg_table', counts='counts-sg_ring.txt', run=b)
        import contextlib
        import io
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            attrib_report.compare(a, b, PHASES)
        out = buf.getvalue()
        self.assertIn('| iommu-strict | sg_table | randread-64k-qd1 | DMA map/unmap | 160 | 186 | +25.0 |', out)
        self.assertIn('| iommu-strict | sg_table | randread-64k-qd1 | **total** | 486 | 370 | -115 |'.replace(
            '**total**', 'total'), out)
        self.assertIn('the function that differs most outside idle: `iommu_dma_map_sg` | 10.0 | 20.0 | +10.0 |', out)
        self.assertIn('| iommu-strict | sg_table | randread-64k-qd1 | alloc_iova_fast | 2.00 | 3.00 |', out)


class NoIommuTest(unittest.TestCase):
    def test_without_an_iommu_the_table_has_only_the_calls_made(self):
        tmp = tempfile.mkdtemp(prefix='attrib-noiommu-test-')
        try:
            d = os.path.join(tmp, 'raw', 'pvscsi', 'sg_table')
            os.makedirs(d)
            with open(os.path.join(d, 'randread-4k-qd1.tsv'), 'w') as f:
                # N = 10: scsi_queue_rq entered 10 then 20 times, dma_direct_map_sg 11 then 21
                f.write('# n_ios 10\n# total_insns 0 0\nfunction\tinsns_n\tinsns_2n\tentries_n\tentries_2n\n'
                        'scsi_queue_rq\t50\t100\t10\t20\ndma_direct_map_sg\t110\t210\t11\t21\n')
            with open(os.path.join(d, 'queue-limits'), 'w') as f:
                f.write('max_segments 128\n')
            attrib_report.report(tmp, PHASES)
            with open(os.path.join(tmp, 'ATTRIBUTION.md')) as f:
                md = f.read()
            self.assertIn('| SCSI commands (scsi_queue_rq) | 1.00 |', md)
            self.assertIn('| scatterlist maps without an IOMMU (dma_direct_map_sg) | 1.00 |', md)
            self.assertNotIn('alloc_iova_fast', md)
            # the queue limits, and no IOMMU state where there is none
            self.assertIn('- sg_table: max_segments 128.', md)
            self.assertNotIn('IOMMU group type', md)
        finally:
            shutil.rmtree(tmp)


class HashSeedTest(unittest.TestCase):
    def test_report_is_the_same_whatever_the_hash_seed(self):
        tmp = tempfile.mkdtemp(prefix='attrib-seed-test-')
        try:
            for v, x in (('sg_table', 0), ('sg_ring', 1)):
                d = os.path.join(tmp, 'raw', 'fake', v)
                os.makedirs(d)
                with open(os.path.join(d, 'randread-4k-qd1.tsv'), 'w') as f:
                    f.write('# n_ios 1\n# total_insns 0 60\nfunction\tinsns_n\tinsns_2n\tentries_n\tentries_2n\n')
                    # twelve functions that all differ by the same 5
                    for i in range(12):
                        f.write('f%02d\t0\t%d\t0\t0\n' % (i, 5 + 5 * x if i % 2 else 5 - 5 * x + 10))
            mds = []
            for seed in ('1', '2', '3'):
                env = dict(os.environ, PYTHONHASHSEED=seed)
                subprocess.run(['/usr/bin/python3', '-m', 'bench.attrib', 'report', tmp],
                               check=True, env=env, cwd=TOP)
                with open(os.path.join(tmp, 'ATTRIBUTION.md')) as f:
                    mds.append(f.read())
            self.assertEqual(mds[0], mds[1])
            self.assertEqual(mds[0], mds[2])
            self.assertIn('| `f00` |', mds[0])
        finally:
            shutil.rmtree(tmp)


if __name__ == '__main__':
    unittest.main()
