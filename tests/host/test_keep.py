"""bench/keep.sh: a finished run folder as results/ keeps it (INDEX.md):
the forensic files in forensics.tar.xz with its checksum, the large
inputs gzipped and still read as the plain files, nothing the reports
read moved."""
import os
import shutil
import subprocess
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')
DATA = os.path.join(HERE, '..', 'data')

from bench import readers  # noqa: E402


def keep(run):
    return subprocess.run([os.path.join(TOP, 'bench', 'keep.sh'), run], capture_output=True, text=True)


class KeepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='sgb-keep-')
        self.run = os.path.join(self.tmp, 'run')
        boot = os.path.join(self.run, 'raw', 'fake', 'sg_ring', 'r1')
        out = os.path.join(boot, 'share', 'out')
        trace = os.path.join(out, 'read-4M-qd32.inflight')
        os.makedirs(os.path.join(trace, 'per_cpu', 'cpu0'))
        os.makedirs(os.path.join(trace, 'events', 'kmem', 'kmem_cache_alloc'))
        files = {os.path.join(self.run, 'meta.txt'): 'run_id x\n', os.path.join(self.run, 'REPORT.md'): '# r\n',
                 os.path.join(boot, 'console.log'): 'boot\n', os.path.join(boot, 'run.stderr'): '',
                 os.path.join(boot, 'run.info'): 'variant sg_ring\n', os.path.join(out, 'dmesg.txt'): 'dmesg\n',
                 os.path.join(out, 'read-1M-qd32.perf.data'): 'PERFILE2', os.path.join(out, 'read-1M-qd32.perf.txt'): 'p\n',
                 os.path.join(out, 'read-4M-qd32.json'): '{}\n',
                 os.path.join(trace, 'events', 'kmem', 'kmem_cache_alloc', 'filter'): 'none\n',
                 os.path.join(trace, 'per_cpu', 'cpu0', 'trace_pipe_raw'): 'x' * 4096}
        for path, text in files.items():
            with open(path, 'w') as f:
                f.write(text)
        shutil.copy(os.path.join(DATA, 'attrib-iommu', 'kallsyms'), os.path.join(out, 'kallsyms'))
        # a second boot of the same kernel: the same kallsyms, and a third
        # whose kallsyms differs
        for r, extra in (('r2', ''), ('r3', 'ffffffff81000000 T added\n')):
            o = os.path.join(self.run, 'raw', 'fake', 'sg_ring', r, 'share', 'out')
            os.makedirs(o)
            shutil.copy(os.path.join(out, 'kallsyms'), os.path.join(o, 'kallsyms'))
            with open(os.path.join(o, 'kallsyms'), 'a') as f:
                f.write(extra)
        self.out, self.boot = out, boot

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_forensics_packed_inputs_gzipped_reports_untouched(self):
        plain = readers.read_kallsyms(os.path.join(self.out, 'kallsyms'))
        res = keep(self.run)
        self.assertEqual(res.returncode, 0, res.stderr)
        with tarfile.open(os.path.join(self.run, 'forensics.tar.xz')) as t:
            names = sorted(t.getnames())
        self.assertEqual(names, sorted([
            'raw/fake/sg_ring/r1/console.log', 'raw/fake/sg_ring/r1/run.stderr',
            'raw/fake/sg_ring/r1/share/out/dmesg.txt', 'raw/fake/sg_ring/r1/share/out/read-1M-qd32.perf.data',
            'raw/fake/sg_ring/r1/share/out/read-4M-qd32.inflight/events/kmem/kmem_cache_alloc/filter']))
        for n in names:
            self.assertFalse(os.path.exists(os.path.join(self.run, n)), n)
        # what the reports read stays, the large inputs read as before
        for f in ('run.info', 'share/out/read-1M-qd32.perf.txt', 'share/out/read-4M-qd32.json'):
            self.assertTrue(os.path.exists(os.path.join(self.boot, f)), f)
        self.assertEqual(readers.read_kallsyms(os.path.join(self.out, 'kallsyms')), plain)
        self.assertTrue(os.path.exists(os.path.join(self.out, 'read-4M-qd32.inflight', 'per_cpu', 'cpu0',
                                                    'trace_pipe_raw.gz')))
        r2, r3 = (os.path.join(self.run, 'raw', 'fake', 'sg_ring', r, 'share', 'out') for r in ('r2', 'r3'))
        self.assertEqual(os.listdir(r2), [])
        self.assertEqual(os.listdir(r3), ['kallsyms.gz'])
        res = subprocess.run(['sha256sum', '-c', 'SHA256SUMS'], cwd=self.run, capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)

    def test_kept_twice_or_unfinished_is_refused(self):
        self.assertEqual(keep(self.run).returncode, 0)
        res = keep(self.run)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn('already has forensics.tar.xz', res.stderr)
        os.remove(os.path.join(self.run, 'REPORT.md'))
        os.remove(os.path.join(self.run, 'forensics.tar.xz'))
        res = keep(self.run)
        self.assertIn('has no REPORT.md', res.stderr)


if __name__ == '__main__':
    unittest.main()
