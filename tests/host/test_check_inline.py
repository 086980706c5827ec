"""Host-side tests of common/check-inline.py on objects gcc builds here."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(TOP, 'common', 'check-inline.py')

# the same helper, out of line in "a" and forced inline in "b"; a function
# only "a" defines (a difference of design); one both keep out of line
SRC_A = """\
static __attribute__((noinline)) int
helper(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int ring_only(int x)
{
	return x - 1;
}

int blk_map(int x)
{
	return helper(x) + ring_only(x);
}
"""
SRC_B = """\
static inline __attribute__((always_inline)) int
helper(int x)
{
	return x * 3 + 1;
}

int blk_map(int x)
{
	return helper(x);
}
"""


def git(cwd, *args):
    subprocess.run(['git', '-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', *args],
                   check=True, capture_output=True)


class CheckInlineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.build = cls.tmp.name
        for v, code in (('a', SRC_A), ('b', SRC_B)):
            src = os.path.join(cls.build, v, 'src')
            obj = os.path.join(cls.build, v, 'obj', 'block')
            os.makedirs(os.path.join(src, 'block'))
            os.makedirs(os.path.join(src, 'include'))
            os.makedirs(obj)
            with open(os.path.join(src, 'block', 'merge.c'), 'w') as f:
                f.write(code)
            git(src, 'init', '-q')
            git(src, 'add', '.')
            git(src, 'commit', '-q', '-m', 'x')
            subprocess.run(['gcc', '-O2', '-c', '-o', os.path.join(obj, 'merge.o'),
                            os.path.join(src, 'block', 'merge.c')], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_tool(self, accepted=''):
        path = os.path.join(self.build, 'accepted')
        with open(path, 'w') as f:
            f.write(accepted)
        return subprocess.run(['/usr/bin/python3', TOOL, '--build', self.build,
                               '--accepted', path, 'a', 'b'], capture_output=True, text=True)

    def test_inline_in_one_kernel_only_fails(self):
        r = self.run_tool()
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn('DIFFERS: helper() is out of line in a (block/merge.o) and inline in b', r.stdout)

    def test_function_of_one_design_is_not_a_difference(self):
        r = self.run_tool()
        self.assertNotIn('ring_only', r.stdout)
        self.assertIn('check-inline: 1 unaccepted difference(s)', r.stdout)

    def test_accepted_difference_passes(self):
        r = self.run_tool('# why\nhelper the test says so\n')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('accepted: helper() is out of line in a', r.stdout)

    def test_stale_acceptance_fails(self):
        r = self.run_tool('helper the test says so\nblk_map no longer differs\n')
        self.assertEqual(r.returncode, 1)
        self.assertIn('STALE: blk_map() is listed', r.stdout)

    def test_missing_build_is_named(self):
        r = subprocess.run(['/usr/bin/python3', TOOL, '--build', self.build, 'a', 'nosuch'],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('run common/build.sh nosuch', r.stderr)


if __name__ == '__main__':
    unittest.main()
