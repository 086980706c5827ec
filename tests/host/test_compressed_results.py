"""Host-side tests of the inputs a committed run keeps gzipped
(results/INDEX.md): an attribution run's <point>.tsv.gz and
<point>.cache.tsv.gz (bench/attrib_counts.py load), a boot's kallsyms.gz and an
inflight trace's trace_pipe_raw.gz (bench/readers.py open_data) read the
same as the plain files."""
import gzip
import os
import shutil
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')
DATA = os.path.join(HERE, '..', 'data')

from bench import attrib_counts  # noqa: E402
from bench import readers  # noqa: E402
from bench import tracefs  # noqa: E402


def gzip_file(path):
    with open(path, 'rb') as f, gzip.open(path + '.gz', 'wb') as g:
        g.write(f.read())
    os.remove(path)


class CompressedTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='sgb-gz-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_attribution_run_with_gzipped_counts(self):
        src = os.path.join(DATA, 'attrib-run', 'cache')
        run = os.path.join(self.tmp, 'cache')
        shutil.copytree(src, run)
        n = 0
        for root, _, files in os.walk(run):
            for fn in files:
                if fn.endswith('.tsv'):
                    gzip_file(os.path.join(root, fn))
                    n += 1
        self.assertEqual(n, 4)     # two .tsv and two .cache.tsv
        plain, got = attrib_counts.load(src), attrib_counts.load(run)
        self.assertEqual(got[0], plain[0])
        self.assertEqual(got[1], plain[1])
        self.assertTrue(got[0] and got[1])

    def test_kallsyms_gz(self):
        path = os.path.join(self.tmp, 'kallsyms')
        shutil.copy(os.path.join(DATA, 'attrib-iommu', 'kallsyms'), path)
        plain = readers.read_kallsyms(path)
        gzip_file(path)
        self.assertTrue(plain)
        self.assertEqual(readers.read_kallsyms(path), plain)

    def test_trace_pipe_raw_gz(self):
        src = os.path.join(DATA, 'inflight-trace')
        tdir = os.path.join(self.tmp, 'p.inflight')
        shutil.copytree(os.path.join(src, 'events'), os.path.join(tdir, 'events'))
        cpu = os.path.join(tdir, 'per_cpu', 'cpu0')
        os.makedirs(cpu)
        shutil.copy(os.path.join(src, 'sg_table-read-1M-qd32', 'stats'), cpu)
        shutil.copy(os.path.join(src, 'sg_table-read-1M-qd32', 'trace_pipe_raw.gz'), cpu)
        got = tracefs.read_inflight(self.tmp, 'p')
        with gzip.open(os.path.join(cpu, 'trace_pipe_raw.gz')) as f, \
                open(os.path.join(cpu, 'trace_pipe_raw'), 'wb') as g:
            g.write(f.read())
        os.remove(os.path.join(cpu, 'trace_pipe_raw.gz'))
        self.assertEqual(got, tracefs.read_inflight(self.tmp, 'p'))
        self.assertEqual(got['inflight'], 32)


if __name__ == '__main__':
    unittest.main()
