"""Host-side tests of common/image/scatterio.c, the guest's scattered-buffer
direct I/O tool: it verifies data from buffers whose neighbouring pages are
not physically adjacent, and fails, naming the cause, on bad input."""
import os
import re
import subprocess
import tempfile
import unittest

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
SRC = os.path.join(TOP, 'common', 'image', 'scatterio.c')


class ScatterioTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # O_DIRECT needs a real filesystem, not tmpfs: the build directory
        os.makedirs(os.path.join(TOP, 'build'), exist_ok=True)
        cls.dir = tempfile.TemporaryDirectory(dir=os.path.join(TOP, 'build'))
        cls.exe = os.path.join(cls.dir.name, 'scatterio')
        subprocess.run(['gcc', '-static', '-O2', '-Wall', '-Wextra', '-Werror',
                        '-o', cls.exe, SRC], check=True)
        cls.file = os.path.join(cls.dir.name, 'disk')
        with open(cls.file, 'wb') as f:
            f.truncate(16 << 20)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def run_it(self, *args):
        return subprocess.run([self.exe, *args], capture_output=True, text=True)

    def test_scattered_writes_read_back_identical(self):
        if os.geteuid() != 0:
            self.skipTest('page frame numbers in /proc/self/pagemap need root')
        for bs, total in (('4k', '64k'), ('64k', '1M'), ('1M', '4M')):
            p = self.run_it(self.file, bs, total, '4M')
            self.assertEqual(p.returncode, 0, p.stderr)
            pages = {'4k': 1, '64k': 16, '1M': 256}[bs]
            self.assertRegex(p.stdout, r'each buffer %d separate pages, no two neighbours '
                             r'physically adjacent: read back identical' % pages)

    def test_size_not_a_page_multiple_fails_naming_it(self):
        p = self.run_it(self.file, '3k', '9k', '0')
        self.assertEqual(p.returncode, 1)
        self.assertIn('BS must be a multiple of the page size', p.stderr)

    def test_size_without_number_fails(self):
        p = self.run_it(self.file, 'M', '1M', '0')
        self.assertEqual(p.returncode, 1)
        self.assertIn("'M' is not a size", p.stderr)

    def test_missing_device_is_named(self):
        p = self.run_it(os.path.join(self.dir.name, 'nope'), '4k', '4k', '0')
        self.assertEqual(p.returncode, 1)
        self.assertTrue(re.search(r'nope: No such file', p.stderr), p.stderr)


if __name__ == '__main__':
    unittest.main()
