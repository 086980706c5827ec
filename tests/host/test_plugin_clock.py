"""Host-side tests of tests/plugin_clock.py, the comparison of the insncount
plugin's counts between guest marks with QEMU's icount clock, on the fixture
tests/data/plugin-clock/: the aux and clock figures of a real boot
(tests/plugin-clock.sh on sg_table, idle=poll: 200 and 400 4k reads) and a
hand-made counts file whose exception entries give that boot's exceptions
(3030 and 3028: asm_exc_page_fault and asm_exc_general_protection; an
interrupt entry and a block inside asm_exc_page_fault are not exceptions).
Per window: clock C, instructions started S, block total T, phantoms P,
exceptions F; the check wants 0 <= S - C <= F and no hlt."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
DATA = os.path.join(HERE, '..', 'data', 'plugin-clock')
SCRIPT = os.path.join(HERE, '..', 'plugin_clock.py')

import plugin_clock  # noqa: E402


def fx(name):
    return os.path.join(DATA, name)


class PluginClockTest(unittest.TestCase):
    def setUp(self):
        self.marks = plugin_clock.read_aux(fx('aux.txt'))
        self.exc = plugin_clock.read_exceptions(fx('counts.txt'), fx('System.map'))
        self.clock = plugin_clock.read_clock(fx('clock.txt'))

    def run_check(self, marks=None, exc=None, clock=None, tol=0.5):
        res = plugin_clock.check(marks or self.marks, exc or self.exc, clock or self.clock, 200, tol)
        return {name: (st, why) for name, st, why in res}

    def test_reads_the_fixture(self):
        self.assertEqual(len(self.marks), 3)  # the exit snapshot is not a mark
        self.assertEqual(self.clock, [3926599664, 4208095496, 4489579152])
        # entries of asm_exc_page_fault + asm_exc_general_protection only
        self.assertEqual([e for e, _ in self.exc], [100000, 103030, 106058])
        ws = plugin_clock.windows(self.marks, self.exc, self.clock)
        self.assertEqual(ws[0], dict(T=281550270, S=281498559, P=42869, H=0, C=281495832, F=3030))
        self.assertEqual(ws[1]['F'], 3028)

    def test_the_real_boot_passes(self):
        r = self.run_check()
        self.assertEqual(r['plugin/total-matches-icount-clock'][0], 'passed')
        self.assertIn('started 281498559 (+2727, 3030 exceptions)', r['plugin/total-matches-icount-clock'][1])
        self.assertIn('cut blocks +8842', r['plugin/total-matches-icount-clock'][1])
        self.assertEqual(r['plugin/cut-blocks-per-io-within-0.5'][0], 'passed')
        self.assertIn('+0.005 instructions per I/O', r['plugin/cut-blocks-per-io-within-0.5'][1])

    def test_a_wrong_mark_fails(self):
        # the middle clock read 1,000,000 instructions after its snapshot
        # (what icmark late does): the first window's clock is 1e6 long,
        # the second's 1e6 short
        clock = list(self.clock)
        clock[1] += 1000000
        st, why = self.run_check(clock=clock)['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('the window of 200 I/Os started 997273 instructions fewer than the clock counted', why)
        self.assertIn('the window of 400 I/Os started 1002725 instructions more than the clock counted, '
                      'more than its 3028 exceptions explain', why)

    def test_the_tolerance_is_the_exceptions(self):
        # S - C = 2727 in the first window: F = 2727 passes, 2726 fails
        for f, want in ((2727, 'passed'), (2726, 'failed')):
            exc = [self.exc[0], (self.exc[0][0] + f, self.exc[1][1]), self.exc[2]]
            st, why = self.run_check(exc=exc)['plugin/total-matches-icount-clock']
            self.assertEqual(st, want, why)
        # and no fewer instructions started than the clock counted: one
        # instruction short fails however many exceptions
        clock = list(self.clock)
        clock[1] += 2728
        clock[2] += 2728
        st, why = self.run_check(clock=clock)['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('started 1 instructions fewer than the clock counted', why)

    def test_a_halt_in_a_window_fails(self):
        marks = [self.marks[0], self.marks[1][:3] + (1,), self.marks[2][:3] + (1,)]
        st, why = self.run_check(marks=marks)['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('the window of 200 I/Os ran hlt 1 times', why)

    def test_marks_and_clock_must_pair(self):
        st, why = self.run_check(clock=self.clock + [4489579152 + 10])['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('3 mark snapshots (3 in the counts) but 4 clock readings', why)

    def test_aux_and_counts_must_be_one_boot(self):
        exc = [self.exc[0], (self.exc[1][0], self.exc[1][1] + 1), self.exc[2]]
        st, why = self.run_check(exc=exc)['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('mark 2: the aux file says 4208377245 instructions, the counts 4208377246', why)

    def test_cut_blocks_per_io_beyond_the_tolerance_fail(self):
        # 101 more instructions of cut blocks in the 2N window: +0.51 per I/O
        m = self.marks[2]
        marks = [self.marks[0], self.marks[1], (m[0] + 101,) + m[1:]]
        exc = [self.exc[0], self.exc[1], (self.exc[2][0], self.exc[2][1] + 101)]
        r = self.run_check(marks=marks, exc=exc)
        self.assertEqual(r['plugin/cut-blocks-per-io-within-0.5'][0], 'failed')
        self.assertIn('+0.510 instructions per I/O', r['plugin/cut-blocks-per-io-within-0.5'][1])
        # the total still matches: the excess is in T, not in S
        self.assertEqual(r['plugin/total-matches-icount-clock'][0], 'passed')

    def test_command_line_prints_result_lines_and_exit_status(self):
        out = subprocess.run([sys.executable, SCRIPT, fx('aux.txt'), fx('counts.txt'), fx('System.map'),
                              fx('clock.txt'), '200'], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = [line.split('\t') for line in out.stdout.splitlines()]
        self.assertEqual([(w[0], w[1]) for w in lines],
                         [('plugin/total-matches-icount-clock', 'passed'),
                          ('plugin/cut-blocks-per-io-within-0.5', 'passed')])
        tmp = tempfile.mkdtemp(prefix='plugin-clock-test-')
        try:
            bad = os.path.join(tmp, 'clock.txt')
            with open(bad, 'w') as f:
                f.write('3926599664\n4209095496\n4489579152\n')
            out = subprocess.run([sys.executable, SCRIPT, fx('aux.txt'), fx('counts.txt'), fx('System.map'),
                                  bad, '200'], capture_output=True, text=True)
            self.assertEqual(out.returncode, 1)
            self.assertTrue(out.stdout.startswith('plugin/total-matches-icount-clock\tfailed\t'), out.stdout)
            # counts that do not read: a failed line, not a traceback
            trunc = os.path.join(tmp, 'counts.txt')
            with open(fx('counts.txt')) as f:
                text = f.read()
            with open(trunc, 'w') as f:
                f.write(text[:text.index('E 2')])
            out = subprocess.run([sys.executable, SCRIPT, fx('aux.txt'), trunc, fx('System.map'),
                                  fx('clock.txt'), '200'], capture_output=True, text=True)
            self.assertEqual(out.returncode, 1)
            self.assertIn('plugin/total-matches-icount-clock\tfailed\t', out.stdout)
        finally:
            shutil.rmtree(tmp)


if __name__ == '__main__':
    unittest.main()
