"""Host-side tests of the rig's parsers: KTAP and fio JSON."""
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data')

from bench import fiojson  # noqa: E402
from bench import ktap  # noqa: E402
from bench import readers  # noqa: E402


def read(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


class KtapTest(unittest.TestCase):
    def test_real_kunit_suite_gives_one_result_per_case(self):
        cases, problems = ktap.cases(read('list-kunit-test.ktap'))
        self.assertEqual(problems, [])
        self.assertEqual(len(cases), 39)
        self.assertEqual(cases[0], ('list-kunit-test.list_test_list_init', 'pass', ''))
        self.assertTrue(all(status == 'pass' for _, status, _ in cases))

    def test_failed_parameter_fails_its_case_and_is_named(self):
        cases, problems = ktap.cases(read('param-fail.ktap'))
        self.assertEqual(problems, [])
        got = {name: (status, reason) for name, status, reason in cases}
        self.assertEqual(got['sg_api.init_single'], ('pass', ''))
        self.assertEqual(got['sg_api.iterate_differing_sizes'], ('fail', 'failed parameters: 129'))
        self.assertEqual(got['sg_api.dma_map_failure_partway'],
                         ('skip', 'swiotlb is active for the test device'))
        self.assertEqual(got['sg_api.copy_odd_offsets'][0], 'fail')
        self.assertEqual(len(cases), 4)

    def test_suite_that_stopped_early_is_a_problem(self):
        cases, problems = ktap.cases(read('crashed.ktap'))
        self.assertEqual(len(cases), 2)
        self.assertTrue(any('2 of 5' in p for p in problems), problems)


    def test_parameter_without_subtest_header_folds_into_its_case(self):
        # 6.1's debugfs results keep only the last parameter line of a case
        cases, problems = ktap.cases(read('sg_api-6.1-debugfs.ktap'))
        names = [name for name, _, _ in cases]
        self.assertEqual(problems, [])
        self.assertEqual(len(cases), 9)
        self.assertIn('sg_api.iterate_differing_sizes', names)
        self.assertNotIn('sg_api.nents 2048', names)


    def test_diagnostic_lines_are_the_reason_of_their_case(self):
        # kunit_info() lines of sg_ring_blk (6.1's debugfs results): the
        # case counts reach make test's output
        cases, problems = ktap.cases(read('sg_ring_blk-diagnostics.ktap'))
        self.assertEqual(problems, [])
        got = {name: (status, reason) for name, status, reason in cases}
        self.assertEqual(len(cases), 3)
        status, reason = got['sg_ring_blk.sg_ring_blk_map_equal']
        self.assertEqual(status, 'pass')
        self.assertTrue(reason.startswith('sg_ring_blk: 2000 of 2000 cases equal'), reason)
        self.assertIn('2000 of 2000 integrity payloads equal',
                      got['sg_ring_blk.sg_ring_blk_integrity_equal'][1])
        # a case without diagnostics keeps an empty reason
        cases, _ = ktap.cases(read('list-kunit-test.ktap'))
        self.assertEqual(cases[0][2], '')

class FioJsonTest(unittest.TestCase):
    def test_jobs_of_a_real_fio_run(self):
        doc = fiojson.load(os.path.join(DATA, 'fio-verify.json'))
        jobs = fiojson.jobs(doc)
        self.assertEqual(len(jobs), 1)
        self.assertEqual(jobs[0]['error'], 0)
        self.assertGreater(jobs[0]['write']['io_bytes'], 0)
        self.assertGreater(jobs[0]['read']['io_bytes'], 0)
        self.assertEqual(fiojson.verify_errors(doc), [])

    def test_verify_mismatch_is_reported(self):
        doc = fiojson.load(os.path.join(DATA, 'fio-verify-bad.json'))
        self.assertEqual(fiojson.verify_errors(doc), [('verify', 84)])

    def test_leading_notes_before_json_are_skipped(self):
        doc = fiojson.load(os.path.join(DATA, 'fio-randread.json'))
        jobs = fiojson.jobs(doc)
        self.assertGreater(jobs[0]['read']['iops'], 0)
        self.assertIsNotNone(jobs[0]['read']['clat_p99_ns'])


if __name__ == '__main__':
    unittest.main()


class ReportTest(unittest.TestCase):
    """The report's readers of the raw files beside the fio JSON."""

    def setUp(self):
        import tempfile
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        import shutil
        shutil.rmtree(self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), 'w') as f:
            f.write(text)

    def test_request_size_from_block_stat_before_and_after(self):
        # 8 reads of 8192 sectors each: 4 MiB requests, whole
        self.write('p.blockstat0', '100 800 0 0\n')
        self.write('p.blockstat', '108 66336 0 0\n')
        self.assertEqual(readers.request_kib(self.dir, 'p'), 4096.0)

    def test_split_requests_show_as_smaller(self):
        # the same bytes in 16 requests: split in two on the way down
        self.write('p.blockstat0', '0 0 10 80\n')
        self.write('p.blockstat', '0 0 26 65616\n')
        self.assertEqual(readers.request_kib(self.dir, 'p'), 2048.0)

    def test_no_request_or_missing_file_gives_none(self):
        self.write('p.blockstat0', '5 40 0 0\n')
        self.write('p.blockstat', '5 40 0 0\n')
        self.assertIsNone(readers.request_kib(self.dir, 'p'))
        self.assertIsNone(readers.request_kib(self.dir, 'absent'))

    def test_latency_histogram_of_a_real_json_plus_run(self):
        kind, bins = readers.lat_bins(os.path.join(DATA, 'fio-jsonplus-randread-1M.json'))
        self.assertEqual(kind, 'clat')  # this run had no --lat_percentiles
        self.assertGreaterEqual(len(bins), 2)
        self.assertEqual(bins, sorted(bins))
        job = fiojson.load(os.path.join(DATA, 'fio-jsonplus-randread-1M.json'))['jobs'][0]['read']
        self.assertEqual(sum(c for _, c in bins), job['total_ios'])

    def test_perf_bench_memcpy_gives_mib_per_second_per_function(self):
        got = readers.perf_bench_memcpy(os.path.join(DATA, 'perf-bench-memcpy.txt'))
        self.assertEqual(sorted(got), ['default', 'x86-64-movsb', 'x86-64-movsq', 'x86-64-unrolled'])
        self.assertAlmostEqual(got['default'], 39.778513 * 1024)
