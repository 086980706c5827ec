"""tests/check_guest.py's smoke verdicts on two real prefix boots.

tests/data/smoke-prefix-0008 and smoke-prefix-0009 are the smoke outputs
(fio JSON, the disk's block stat around each size) of `make check-patches`
boots on 2026-12-05: at 0008 scsi_debug takes a 1M or 4M write whole; at
0009 the SCSI core's transition gives the still unconverted scsi_debug one
array of at most 127 entries a command, so the block layer splits each 1M
write into 3 commands and each 4M write into 9.  The check wants whole
requests unless told the host's segment limit, and then exactly that split.
"""
import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(TOP, 'tests', 'data')


def verdicts(fixture, *args):
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(DATA, fixture), os.path.join(tmp, 'share', 'out'))
        res = subprocess.run(['/usr/bin/python3', '-m', 'tests.check_guest', tmp, 'p', *args],
                             capture_output=True, text=True, check=True, cwd=TOP)
    return {line.split('\t')[0]: line.split('\t')[1] for line in res.stdout.splitlines()}


class WholeRequests(unittest.TestCase):
    def test_whole_requests_pass_without_a_limit(self):
        v = verdicts('smoke-prefix-0008')
        for bs in ('4k', '64k', '1M', '4M'):
            self.assertEqual(v[f'p/smoke/whole-requests-{bs}'], 'passed')
            self.assertEqual(v[f'p/smoke/fio-verify-{bs}'], 'passed')

    def test_split_requests_fail_without_a_limit(self):
        v = verdicts('smoke-prefix-0009')
        self.assertEqual(v['p/smoke/whole-requests-1M'], 'failed')
        self.assertEqual(v['p/smoke/whole-requests-4M'], 'failed')

    def test_split_at_the_limit_passes_with_it(self):
        v = verdicts('smoke-prefix-0009', '--seg-limit=127')
        for bs in ('4k', '64k', '1M', '4M'):
            self.assertEqual(v[f'p/smoke/whole-requests-{bs}'], 'passed')

    def test_whole_requests_fail_where_a_limit_must_split_them(self):
        v = verdicts('smoke-prefix-0008', '--seg-limit=127')
        self.assertEqual(v['p/smoke/whole-requests-1M'], 'failed')
        self.assertEqual(v['p/smoke/whole-requests-4M'], 'failed')
        self.assertEqual(v['p/smoke/whole-requests-64k'], 'passed')

    def test_a_split_at_another_limit_fails(self):
        v = verdicts('smoke-prefix-0009', '--seg-limit=128')
        self.assertEqual(v['p/smoke/whole-requests-1M'], 'failed')

    def test_a_limit_that_is_no_number_is_refused(self):
        res = subprocess.run(['/usr/bin/python3', '-m', 'tests.check_guest', '/nonexistent', 'p', '--seg-limit=many'],
                             capture_output=True, text=True, cwd=TOP)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn('whole number of segments', res.stderr)


class KunitOnly(unittest.TestCase):
    """--kunit-only: a boot of another plan (the reliability suite's on the
    debug kernel) has KUnit results and no smoke files."""

    def run_kunit_only(self, *suites):
        with tempfile.TemporaryDirectory() as tmp:
            kdir = os.path.join(tmp, 'share', 'out', 'kunit')
            os.makedirs(kdir)
            shutil.copy(os.path.join(DATA, 'list-kunit-test.ktap'), os.path.join(kdir, 'list-kunit-test.ktap'))
            res = subprocess.run(['/usr/bin/python3', '-m', 'tests.check_guest', tmp, 'p', '--kunit-only', *suites],
                                 capture_output=True, text=True, check=True, cwd=TOP)
        return [line.split('\t') for line in res.stdout.splitlines()]

    def test_kunit_results_and_no_smoke_verdicts(self):
        lines = self.run_kunit_only('list-kunit-test')
        self.assertTrue(lines)
        self.assertFalse([n for n, *_ in lines if '/smoke/' in n])
        self.assertEqual({st for _, st, _ in lines}, {'passed'})

    def test_a_wanted_suite_that_did_not_run_fails(self):
        lines = self.run_kunit_only('dma_debug_sg_ring')
        self.assertIn(['p/kunit/dma_debug_sg_ring', 'failed', 'suite dma_debug_sg_ring did not run (not built in?)'],
                      lines)


if __name__ == '__main__':
    unittest.main()
