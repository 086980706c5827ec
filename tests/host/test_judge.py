"""Host-side tests of qemu/judge.sh: the verdict of a guest run from its
console log and share/out, here on made-up run directories (no QEMU)."""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
JUDGE = os.path.join(TOP, 'qemu', 'judge.sh')
DMA_ERROR_LOG = os.path.join(TOP, 'tests', 'data', 'dma-api-error-console.log')
BOOT_NOTES = ('[    0.412345] DMA-API: preallocated 65536 debug entries\n'
              '[    0.412399] DMA-API: debugging enabled by kernel config\n'
              '[    2.000000] Run /init as init process\n')
CLEAN_COUNTERS = ('error_count 0\ndisabled N\nnum_free_entries 65500\n'
                  'min_free_entries 65000\nnr_total_entries 65536\n')


class JudgeTest(unittest.TestCase):
    def judge(self, console, dma_api=None, status='0'):
        """(exit status, RESULT) of judge.sh on a run with this console log."""
        with tempfile.TemporaryDirectory() as out:
            os.makedirs(os.path.join(out, 'share', 'out'))
            with open(os.path.join(out, 'console.log'), 'w') as f:
                f.write(console)
            with open(os.path.join(out, 'run.info'), 'w') as f:
                f.write('variant sg_table\nwall_seconds 12.5\n')
            with open(os.path.join(out, 'share', 'out', 'status'), 'w') as f:
                f.write(status + '\n')
            if dma_api is not None:
                with open(os.path.join(out, 'share', 'out', 'dma-api.txt'), 'w') as f:
                    f.write(dma_api)
            p = subprocess.run(['bash', JUDGE, out, '0', '600'], capture_output=True, text=True)
            with open(os.path.join(out, 'RESULT')) as f:
                return p.returncode, f.read().strip()

    def test_clean_debug_boot_passes(self):
        # the boot notes of DMA-API debugging are not reports
        self.assertEqual(self.judge(BOOT_NOTES, CLEAN_COUNTERS), (0, 'pass'))

    def test_dma_api_error_line_fails_and_is_named(self):
        # the fixture has 6.1's check_unmap() message (kernel/dma/debug.c)
        # in the order __warn() prints it: the WARNING line, then the text;
        # the verdict names the DMA-API line, not the generic WARNING
        with open(DMA_ERROR_LOG) as f:
            rc, res = self.judge(f.read(), CLEAN_COUNTERS)
        self.assertNotEqual(rc, 0)
        self.assertTrue(res.startswith('fail: DMA-API debug report: line 6:'), res)
        self.assertIn('frees DMA memory with different size', res)

    def test_dma_api_disabling_itself_fails(self):
        rc, res = self.judge(BOOT_NOTES + '[ 9.1] DMA-API: debugging out of memory - disabling\n',
                             CLEAN_COUNTERS)
        self.assertNotEqual(rc, 0)
        self.assertIn('debugging out of memory', res)

    def test_errors_counted_but_not_printed_fail(self):
        # only the first error is printed unless all_errors is set: the count decides
        rc, res = self.judge(BOOT_NOTES, CLEAN_COUNTERS.replace('error_count 0', 'error_count 3'))
        self.assertNotEqual(rc, 0)
        self.assertIn('DMA-API debug counted 3 errors', res)

    def test_dma_api_debugging_off_fails(self):
        rc, res = self.judge(BOOT_NOTES, CLEAN_COUNTERS.replace('disabled N', 'disabled Y'))
        self.assertNotEqual(rc, 0)
        self.assertIn('DMA-API debugging was off', res)

    def test_kasan_report_fails(self):
        rc, res = self.judge(BOOT_NOTES + '[ 5.0] BUG: KASAN: slab-out-of-bounds in sg_next+0x12/0x40\n',
                             CLEAN_COUNTERS)
        self.assertNotEqual(rc, 0)
        self.assertTrue(res.startswith('fail: kernel report: line 4:'), res)

    def test_non_debug_kernel_without_counters_passes(self):
        self.assertEqual(self.judge('[ 2.0] Run /init as init process\n'), (0, 'pass'))


if __name__ == '__main__':
    unittest.main()
