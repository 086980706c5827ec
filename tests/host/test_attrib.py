"""Host-side tests of bench/attrib.py: folding the insncount plugin's block
counts onto functions, per I/O by difference, and the phase report, on the
hand-made fixture tests/data/attrib/ (a 6-symbol System.map, a kallsyms with
a scsi_debug function, and plugin output with three marks for one point of
N = 10 I/Os).  The expected figures are worked out by hand in the comments."""
import contextlib
import io
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data', 'attrib')

from bench import attrib_counts  # noqa: E402
from bench import attrib_fold  # noqa: E402
from bench import attrib_report  # noqa: E402


def fx(name):
    return os.path.join(DATA, name)


class FoldTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='attrib-test-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def fold(self, variant, kallsyms='kallsyms', counts=None):
        out = os.path.join(self.tmp, 'raw', 'fake', variant)
        attrib_fold.fold(fx(counts or 'counts-%s.txt' % variant), fx('System.map'), fx(kallsyms),
                    fx('points'), out)
        return out

    def test_fold_gives_each_function_its_instructions_in_both_runs(self):
        meta, funcs = attrib_counts.read_tsv(os.path.join(self.fold('sg_table'), 'randread-4k-qd1.tsv'))
        self.assertEqual(meta['n_ios'], [10])
        # marks 1..3: the N run is mark 2 - mark 1, the 2N run mark 3 - mark 2
        self.assertEqual(meta['total_insns'], [6757 - 4500, 9194 - 6757])
        # scsi_queue_rq's entry block (5 insns) ran 10 then 20 times, and a
        # 2-insn block that starts in it and ends in sg_next ran once in each
        self.assertEqual(funcs['scsi_queue_rq'], [52, 102, 10, 20])
        self.assertEqual(meta['spanning_insns'], [2, 2])
        # sg_next: a 3-insn block that is not its entry, 40 then 60 times
        self.assertEqual(funcs['sg_next'], [120, 180, 0, 0])
        # a module function, named from kallsyms
        self.assertEqual(funcs['do_device_access [scsi_debug]'], [70, 140, 10, 20])
        # user space and code past _etext are named as such
        self.assertEqual(funcs['[user]'], [2000, 2000, 0, 0])
        self.assertEqual(funcs['[kernel-unknown]'], [15, 15, 0, 0])
        self.assertEqual(set(funcs), {'scsi_queue_rq', 'sg_next', 'do_device_access [scsi_debug]',
                                      '[user]', '[kernel-unknown]'})

    def test_per_io_is_the_difference_of_the_runs_over_n(self):
        meta, funcs = attrib_counts.read_tsv(os.path.join(self.fold('sg_table'), 'randread-4k-qd1.tsv'))
        pio = attrib_counts.per_io(meta, funcs)
        self.assertEqual(pio['scsi_queue_rq'], 5.0)
        self.assertEqual(pio['sg_next'], 6.0)
        self.assertEqual(pio['[user]'], 0.0)

    def test_report_puts_phases_side_by_side_with_the_functions_behind_the_difference(self):
        self.fold('sg_table')
        self.fold('sg_ring')
        attrib_report.report(self.tmp, os.path.join(HERE, '..', '..', 'bench', 'attrib-phases.txt'))
        with open(os.path.join(self.tmp, 'ATTRIBUTION.md')) as f:
            md = f.read()
        self.assertIn('## fake randread-4k-qd1', md)
        # sg_next + do_device_access: 6 + 7 (sg_table), 30 + 7 (sg_ring: 60 -> 180 -> 420)
        self.assertIn('| iterate and copy | 13.0 | 37.0 | +24.0 | +184.6 % |', md)
        self.assertIn('| SCSI glue | 5.0 | 5.0 | 0.0 | +0.0 % |', md)
        self.assertIn('| **total** | 18.0 | 42.0 | +24.0 | +133.3 % |', md)
        self.assertIn('| `sg_next` | copy | 6.0 | 30.0 | +24.0 |', md)
        self.assertNotIn('`scsi_queue_rq`', md)  # no difference, not listed

    def test_phase_rules_match_whole_names_and_modules_by_their_function(self):
        rules = attrib_counts.read_phases(os.path.join(HERE, '..', '..', 'bench', 'attrib-phases.txt'))
        self.assertEqual(attrib_counts.phase_of(rules, 'sg_alloc_table_chained'), 'allocate')
        self.assertEqual(attrib_counts.phase_of(rules, 'sg_free_ring_chained'), 'free')
        self.assertEqual(attrib_counts.phase_of(rules, 'blk_rq_map_sg_ring'), 'map')
        self.assertEqual(attrib_counts.phase_of(rules, 'dma_map_sg_ring_attrs'), 'dma')
        self.assertEqual(attrib_counts.phase_of(rules, 'sg_ring_pcopy_to_buffer'), 'copy')
        self.assertEqual(attrib_counts.phase_of(rules, 'resp_read_dt0 [scsi_debug]'), 'scsi')
        self.assertEqual(attrib_counts.phase_of(rules, '[user]'), 'user')
        self.assertEqual(attrib_counts.phase_of(rules, 'blk_mq_submit_bio'), 'rest')
        self.assertEqual(attrib_counts.phase_of(rules, 'xsg_next'), 'rest')
        # gcc's copies of a function belong to its phase; the out-of-line
        # halves of the inline wrappers to theirs
        self.assertEqual(attrib_counts.phase_of(rules, 'sg_ring_xfer.part.0'), 'copy')
        self.assertEqual(attrib_counts.phase_of(rules, 'sg_next.cold'), 'copy')
        self.assertEqual(attrib_counts.phase_of(rules, 'sg_next.constprop.0.isra.0'), 'copy')
        self.assertEqual(attrib_counts.phase_of(rules, 'xsg_next.part.0'), 'rest')
        self.assertEqual(attrib_counts.phase_of(rules, '__sg_alloc_ring_chained'), 'allocate')
        self.assertEqual(attrib_counts.phase_of(rules, '__sg_free_ring_chained'), 'free')
        # dma_iter: the request DMA iterator maps the request, its per-segment
        # dma_map_page_attrs() is DMA, scsi_debug's bio_vec copy is copy
        self.assertEqual(attrib_counts.phase_of(rules, 'blk_rq_dma_map_iter_start'), 'map')
        self.assertEqual(attrib_counts.phase_of(rules, 'blk_map_iter_next'), 'map')
        self.assertEqual(attrib_counts.phase_of(rules, 'dma_map_page_attrs'), 'dma')
        self.assertEqual(attrib_counts.phase_of(rules, 'sdeb_copy_data [scsi_debug]'), 'copy')

    def check_dies(self, fn, words):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            fn()
        for w in words:
            self.assertIn(w, err.getvalue())

    def test_kernel_not_at_system_map_addresses_is_an_error_naming_kaslr(self):
        self.check_dies(lambda: self.fold('sg_table', kallsyms='kallsyms-kaslr'), ['KASLR', 'nokaslr'])

    def test_truncated_plugin_output_is_an_error(self):
        self.check_dies(lambda: self.fold('sg_table', counts='counts-truncated.txt'), ['no end line'])

    def test_too_few_marks_for_the_points_is_an_error(self):
        pts = os.path.join(self.tmp, 'points')
        with open(pts, 'w') as f:
            f.write('randread-4k-qd1 10\nrandread-64k-qd1 10\n')
        self.check_dies(lambda: attrib_fold.fold(fx('counts-sg_table.txt'), fx('System.map'), fx('kallsyms'),
                                            pts, os.path.join(self.tmp, 'o')),
                        ['3 mark snapshots', 'need 6'])



class PageCrossFoldTest(unittest.TestCase):
    """The defect: QEMU 7.2 reports a block's last instruction that crosses
    into a new 4 KiB page to the plugin and then leaves it to the next
    block, so it was counted twice per execution.  sg_ring's
    internal_get_user_pages_fast ran one instruction more per page pinned
    than sg_table's (+1281 per 4 MiB read) for that reason alone.  Here a
    tiny kernel linked at 0xffffffff81000000 has f's 10-byte movabs across
    the page at +0x1000 and g's last instruction near (not across) the end
    of the next page."""

    TEXT = 0xffffffff81000000

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='attrib-pagecross-')
        src = os.path.join(self.tmp, 'k.s')
        with open(src, 'w') as f:
            f.write('\t.text\n\t.globl f\npad:\n\t.skip 0xffa, 0xcc\n'
                    'f:\n\tnop\n\tnop\n\tmovabs $0x1122334455667788, %rax\n\tnop\n\tret\n'
                    'pad2:\n\t.skip 0x1ff4 - (pad2 - pad), 0xcc\n'
                    'g:\n' + '\tnop\n' * 6 + '\txor %eax, %eax\n\tret\n'
                    'end:\n')
        obj, self.vmlinux = os.path.join(self.tmp, 'k.o'), os.path.join(self.tmp, 'vmlinux')
        subprocess.run(['as', '-o', obj, src], check=True)
        subprocess.run(['ld', '-Ttext=%#x' % self.TEXT, '-e', 'f', '-o', self.vmlinux, obj], check=True)
        t = self.TEXT
        with open(os.path.join(self.tmp, 'System.map'), 'w') as f:
            for a, n in ((0, '_text'), (0, 'pad'), (0xffa, 'f'), (0x1008, 'pad2'), (0x1ff4, 'g'),
                         (0x2000, '_etext')):
                f.write('%x T %s\n' % (t + a, n))
        with open(os.path.join(self.tmp, 'kallsyms'), 'w') as f:
            f.write('%x T _text\n' % t)
        with open(os.path.join(self.tmp, 'points'), 'w') as f:
            f.write('randread-4M-qd1 10\n')
        # (start, last instruction, instructions): executions at marks 1, 2, 3
        blocks = {
            (t + 0xffa, t + 0xffc, 3): (0, 10, 30),   # nop, nop, movabs: the movabs is the phantom
            (t + 0xffc, t + 0x1007, 3): (0, 10, 30),  # movabs, nop, ret: where it really runs
            (t + 0xffc, t + 0xffc, 1): (0, 1, 2),     # the movabs alone (a jump to it): counted once
            (t + 0x1ff4, t + 0x1ffa, 7): (0, 5, 15),  # ends near the page end, does not cross
            (0x400ff0, 0x400ff8, 3): (0, 4, 12),      # user space: cannot be checked
        }
        with open(os.path.join(self.tmp, 'counts'), 'w') as f:
            for i in range(3):
                total = sum(k[2] * c[i] for k, c in blocks.items())
                f.write('S %d mark %d %d\n' % (i + 1, len(blocks), total))
                for k, c in blocks.items():
                    f.write('B %x %x %d %d\n' % (k[0], k[1], k[2], c[i]))
                f.write('E %d\n' % (i + 1))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def fold(self, vmlinux):
        out = os.path.join(self.tmp, 'out')
        attrib_fold.fold(*(os.path.join(self.tmp, n) for n in ('counts', 'System.map', 'kallsyms', 'points')),
                    out, vmlinux)
        return attrib_counts.read_tsv(os.path.join(out, 'randread-4M-qd1.tsv'))

    def test_page_crossers_finds_the_movabs_only(self):
        self.assertEqual(attrib_fold.page_crossers(self.vmlinux), {self.TEXT + 0xffc: 10})

    def test_a_page_crossing_last_instruction_is_counted_once(self):
        meta, funcs = self.fold(self.vmlinux)
        # f: the first block 2 instructions (not 3) per run, the second 3,
        # the movabs alone 1: N run 10 * 2 + 10 * 3 + 1, 2N run 20 * 2 + 20 * 3 + 1
        self.assertEqual(funcs['f'][:2], [51, 101])
        self.assertEqual(funcs['g'][:2], [35, 70])
        self.assertEqual(meta['page_cross_insns'], [10, 20])
        self.assertEqual(meta['page_cross_unchecked'], [4, 8])
        self.assertEqual(meta['total_insns'], [51 + 35 + 12, 101 + 70 + 24])

    def test_without_the_vmlinux_the_fold_counts_as_the_plugin_did(self):
        meta, funcs = self.fold(None)
        self.assertEqual(funcs['f'][:2], [61, 121])
        self.assertNotIn('page_cross_insns', meta)


class ExactFoldTest(PageCrossFoldTest):
    """The plugin's exact=on: a sixth field on every B line, the
    instructions started in the block (an inline add at each instruction).
    The fold takes a block's instructions from it: what ran of a block that
    an exception or an MMIO access cut (the block count has it whole), and
    no given-up page-crossing instruction (its add is removed with its
    code), so no page-crossing correction on top."""

    def setUp(self):
        super().setUp()
        t = self.TEXT
        # (start, last, instructions): (executions, instructions started) at marks 1, 2, 3
        blocks = {
            (t + 0xffa, t + 0xffc, 3): ((0, 10, 30), (0, 20, 60)),   # the phantom movabs never starts
            (t + 0xffc, t + 0x1007, 3): ((0, 10, 30), (0, 29, 88)),  # cut at its 2nd instruction once a run
            (t + 0xffc, t + 0xffc, 1): ((0, 1, 2), (0, 1, 2)),
            (t + 0x1ff4, t + 0x1ffa, 7): ((0, 5, 15), (0, 35, 101)),  # cut for I/O after 4 in the 2N run
            (0x400ff0, 0x400ff8, 3): ((0, 4, 12), (0, 12, 36)),
        }
        with open(os.path.join(self.tmp, 'counts'), 'w') as f:
            for i in range(3):
                total = sum(k[2] * c[0][i] for k, c in blocks.items())
                f.write('S %d mark %d %d\n' % (i + 1, len(blocks), total))
                for k, c in blocks.items():
                    f.write('B %x %x %d %d %d\n' % (k[0], k[1], k[2], c[0][i], c[1][i]))
                f.write('E %d\n' % (i + 1))

    def test_the_fold_counts_the_instructions_started(self):
        for vmlinux in (self.vmlinux, None):
            meta, funcs = self.fold(vmlinux)
            # f: 10 * 2 + 29 + 1 and 20 * 2 + 59 + 1; g: 35 and 70 - 4
            self.assertEqual(funcs['f'], [50, 100, 10, 20])
            self.assertEqual(funcs['g'][:2], [35, 66])
            self.assertEqual(funcs['[user]'][:2], [12, 24])
            self.assertEqual(meta['total_insns'], [97, 190])
            self.assertEqual(meta['page_cross_insns'], [0, 0])
            self.assertEqual(meta['page_cross_unchecked'], [0, 0])
            with open(os.path.join(self.tmp, 'out', 'randread-4M-qd1.tsv')) as f:
                self.assertIn('# exact_starts 1\n', f.read())

    def test_read_starts_is_none_for_block_counts_alone(self):
        self.assertIsNone(attrib_fold.read_starts(os.path.join(DATA, 'counts-sg_table.txt')))
        st = attrib_fold.read_starts(os.path.join(self.tmp, 'counts'))
        self.assertEqual(len(st), 3)
        self.assertEqual(st[2][(self.TEXT + 0x1ff4, self.TEXT + 0x1ffa, 7)], 101)

    # the parent's tests are of the five-field counts
    test_a_page_crossing_last_instruction_is_counted_once = None
    test_without_the_vmlinux_the_fold_counts_as_the_plugin_did = None
    test_page_crossers_finds_the_movabs_only = None


def write_tsv(path, n, funcs):
    """A fold's tsv as attrib_fold.fold writes it: FUNCS is {name: [insns N run,
    insns 2N run, entries N run, entries 2N run]}."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write('# insncount fold\n# n_ios %d\n# total_insns 0 0\n' % n)
        f.write('function\tinsns_n\tinsns_2n\tentries_n\tentries_2n\n')
        for name, v in funcs.items():
            f.write('%s\t%d\t%d\t%d\t%d\n' % ((name,) + tuple(v)))


class BufferLayoutTest(unittest.TestCase):
    """Bvecs per I/O in each run, and the report's flag when fio's buffer
    layout changed between the runs of N and 2N I/Os (the defect of
    results/attrib-20261205-qd1: fake randread-64k-qd1 on sg_ring had 2
    bvecs per I/O in the run of N = 1000 and 3 in the run of 2N, and the
    difference counted 4)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='attrib-layout-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_report(self, entries):
        for var, (e_n, e_2n) in entries.items():
            write_tsv(os.path.join(self.tmp, 'raw', 'fake', var, 'randread-64k-qd1.tsv'), 1000,
                      {'__bio_add_page': [17 * e_n, 17 * e_2n, e_n, e_2n],
                       'scsi_queue_rq': [5000, 10000, 1000, 2000]})
        attrib_report.report(self.tmp, os.path.join(HERE, '..', '..', 'bench', 'attrib-phases.txt'))
        with open(os.path.join(self.tmp, 'ATTRIBUTION.md')) as f:
            return f.read()

    def test_bvecs_per_io_is_each_runs_own(self):
        meta = {'n_ios': [1000]}
        self.assertEqual(attrib_counts.bvecs_per_io(meta, {'__bio_add_page': [0, 0, 2000, 6000]}), (2.0, 3.0))
        self.assertIsNone(attrib_counts.bvecs_per_io(meta, {'scsi_queue_rq': [0, 0, 1, 2]}))
        self.assertTrue(attrib_counts.layout_moved([(1.0, 1.0), (2.0, 3.0)]))
        self.assertFalse(attrib_counts.layout_moved([(16.0, 16.0), (1277.56, 1277.92)]))

    def test_report_flags_a_layout_that_moved_between_the_runs(self):
        md = self.run_report({'sg_table': (1000, 2000), 'sg_ring': (2000, 6000)})
        self.assertIn('in the N and 2N runs: sg_table 1.00, 1.00, sg_ring 2.00, 3.00.', md)
        self.assertIn('The buffer layout changed between the runs', md)

    def test_report_flags_kernels_whose_layouts_differ(self):
        md = self.run_report({'sg_table': (16000, 32000), 'sg_ring': (4000, 8000)})
        self.assertNotIn('changed between the runs', md)
        self.assertIn("The kernels' buffers had other layouts", md)

    def test_report_is_quiet_when_the_layout_is_the_same(self):
        md = self.run_report({'sg_table': (16000, 32000), 'sg_ring': (16000, 32000)})
        self.assertIn('sg_table 16.00, 16.00, sg_ring 16.00, 16.00.', md)
        self.assertNotIn('**The', md)


if __name__ == '__main__':
    unittest.main()
