"""Host-side tests of tests/plugin_clock.py, the comparison of the insncount
plugin's counts between guest marks with QEMU's icount clock, on the fixture
tests/data/plugin-clock/: the aux and clock figures of a real boot
(tests/plugin-clock.sh on sg_table: 200 and 400 4k reads) and a hand-made
counts file with that boot's totals, exceptions (3028 in each window:
asm_exc_page_fault and asm_exc_general_protection; an interrupt entry and a
block inside asm_exc_page_fault are not exceptions) and busybox
instructions (the plan's shell and spinner, at 0x400000).
Per window: clock C, instructions started S, block total T, phantoms P,
exceptions F; the check wants 0 <= S - C <= F and no hlt, and the cut
blocks' excess per I/O within 10 ppm of the instructions per I/O."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, '..', 'data', 'plugin-clock')

from tests import plugin_clock  # noqa: E402


def fx(name):
    return os.path.join(DATA, name)


class PluginClockTest(unittest.TestCase):
    def setUp(self):
        self.marks = plugin_clock.read_aux(fx('aux.txt'))
        self.exc = plugin_clock.read_exceptions(fx('counts.txt'), fx('System.map'))
        self.clock = plugin_clock.read_clock(fx('clock.txt'))

    def run_check(self, marks=None, exc=None, clock=None, tol=10):
        res = plugin_clock.check(marks or self.marks, exc or self.exc, clock or self.clock, 200, tol)
        return {name: (st, why) for name, st, why in res}

    def test_reads_the_fixture(self):
        self.assertEqual(len(self.marks), 3)  # the exit snapshot is not a mark
        self.assertEqual(self.clock, [3928511486, 4218908988, 4506892983])
        # entries of asm_exc_page_fault + asm_exc_general_protection only
        self.assertEqual([e[0] for e in self.exc], [8074, 11102, 14130])
        ws = plugin_clock.windows(self.marks, self.exc, self.clock)
        self.assertEqual(ws[0], dict(T=290451879, S=290400227, P=42809, H=0, C=290397502, F=3028,
                                     U=125242993))
        self.assertEqual(ws[1]['F'], 3028)

    def test_the_real_boot_passes(self):
        r = self.run_check()
        self.assertEqual(r['plugin/total-matches-icount-clock'][0], 'passed')
        self.assertIn('started 290400227 (+2725, 3028 exceptions)', r['plugin/total-matches-icount-clock'][1])
        self.assertIn('cut blocks +8843', r['plugin/total-matches-icount-clock'][1])
        st, why = r['plugin/cut-blocks-per-io-within-10ppm']
        self.assertEqual(st, 'passed')
        self.assertIn('+0.000 instructions per I/O', why)
        # (T - U) per I/O: ((3560532080 - 257114709) - (3272492653 - 137367491)
        # - ((3272492653 - 137367491) - (2982040774 - 12124498))) / 200
        self.assertIn('tolerance 0.154, 10 ppm of 15417 instructions per I/O outside busybox', why)

    def test_a_wrong_mark_fails(self):
        # the middle clock read 1,000,000 instructions after its snapshot
        # (what icmark late does): the first window's clock is 1e6 long,
        # the second's 1e6 short
        clock = list(self.clock)
        clock[1] += 1000000
        st, why = self.run_check(clock=clock)['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('the window of 200 I/Os started 997275 instructions fewer than the clock counted', why)
        self.assertIn('the window of 400 I/Os started 1002725 instructions more than the clock counted, '
                      'more than its 3028 exceptions explain', why)

    def test_the_tolerance_is_the_exceptions(self):
        # S - C = 2725 in the first window: F = 2725 passes, 2724 fails
        for f, want in ((2725, 'passed'), (2724, 'failed')):
            exc = [self.exc[0], (self.exc[0][0] + f,) + self.exc[1][1:], self.exc[2]]
            st, why = self.run_check(exc=exc)['plugin/total-matches-icount-clock']
            self.assertEqual(st, want, why)
        # and no fewer instructions started than the clock counted: one
        # instruction short fails however many exceptions
        clock = list(self.clock)
        clock[1] += 2726
        clock[2] += 2726
        st, why = self.run_check(clock=clock)['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('started 1 instructions fewer than the clock counted', why)

    def test_a_halt_in_a_window_fails(self):
        # 198 hlts before the first mark (the boot), one more in the first window
        marks = [self.marks[0], self.marks[1][:3] + (199,), self.marks[2][:3] + (199,)]
        st, why = self.run_check(marks=marks)['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('the window of 200 I/Os ran hlt 1 times', why)

    def test_marks_and_clock_must_pair(self):
        st, why = self.run_check(clock=self.clock + [4489579152 + 10])['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('3 mark snapshots (3 in the counts) but 4 clock readings', why)

    def test_aux_and_counts_must_be_one_boot(self):
        exc = [self.exc[0], (self.exc[1][0], self.exc[1][1] + 1, self.exc[1][2]), self.exc[2]]
        st, why = self.run_check(exc=exc)['plugin/total-matches-icount-clock']
        self.assertEqual(st, 'failed')
        self.assertIn('mark 2: the aux file says 3272492653 instructions, the counts 3272492654', why)

    def cut(self, extra):
        """The check with EXTRA more instructions of cut blocks in the 2N window."""
        m = self.marks[2]
        marks = [self.marks[0], self.marks[1], (m[0] + extra,) + m[1:]]
        e = self.exc[2]
        exc = [self.exc[0], self.exc[1], (e[0], e[1] + extra, e[2])]
        return self.run_check(marks=marks, exc=exc)

    def test_cut_blocks_per_io_beyond_the_tolerance_fail(self):
        # 10 ppm of about 15417 per I/O is 0.154: 30 more over 200 I/Os
        # (0.150) pass, 31 (0.155) fail
        self.assertEqual(self.cut(30)['plugin/cut-blocks-per-io-within-10ppm'][0], 'passed')
        r = self.cut(31)
        st, why = r['plugin/cut-blocks-per-io-within-10ppm']
        self.assertEqual(st, 'failed')
        self.assertIn('+0.155 instructions per I/O', why)
        # the total still matches: the excess is in T, not in S
        self.assertEqual(r['plugin/total-matches-icount-clock'][0], 'passed')

    def test_no_per_io_figure_fails(self):
        # the 2N run ran no more instructions outside busybox than the N run
        e = self.exc[2]
        exc = [self.exc[0], self.exc[1], (e[0], e[1], e[2] + 10 ** 9)]
        st, why = self.run_check(exc=exc)['plugin/cut-blocks-per-io-within-10ppm']
        self.assertEqual(st, 'failed')
        self.assertIn('no per-I/O figure to size the tolerance', why)

    def test_command_line_prints_result_lines_and_exit_status(self):
        out = subprocess.run([sys.executable, '-m', 'tests.plugin_clock', fx('aux.txt'), fx('counts.txt'), fx('System.map'),
                              fx('clock.txt'), '200'], capture_output=True, text=True, cwd=TOP)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = [line.split('\t') for line in out.stdout.splitlines()]
        self.assertEqual([(w[0], w[1]) for w in lines],
                         [('plugin/total-matches-icount-clock', 'passed'),
                          ('plugin/cut-blocks-per-io-within-10ppm', 'passed')])
        tmp = tempfile.mkdtemp(prefix='plugin-clock-test-')
        try:
            bad = os.path.join(tmp, 'clock.txt')
            with open(bad, 'w') as f:
                f.write('3928511486\n4219908988\n4506892983\n')
            out = subprocess.run([sys.executable, '-m', 'tests.plugin_clock', fx('aux.txt'), fx('counts.txt'), fx('System.map'),
                                  bad, '200'], capture_output=True, text=True, cwd=TOP)
            self.assertEqual(out.returncode, 1)
            self.assertTrue(out.stdout.startswith('plugin/total-matches-icount-clock\tfailed\t'), out.stdout)
            # counts that do not read: a failed line, not a traceback
            trunc = os.path.join(tmp, 'counts.txt')
            with open(fx('counts.txt')) as f:
                text = f.read()
            with open(trunc, 'w') as f:
                f.write(text[:text.index('E 2')])
            out = subprocess.run([sys.executable, '-m', 'tests.plugin_clock', fx('aux.txt'), trunc, fx('System.map'),
                                  fx('clock.txt'), '200'], capture_output=True, text=True, cwd=TOP)
            self.assertEqual(out.returncode, 1)
            self.assertIn('plugin/total-matches-icount-clock\tfailed\t', out.stdout)
        finally:
            shutil.rmtree(tmp)


if __name__ == '__main__':
    unittest.main()
