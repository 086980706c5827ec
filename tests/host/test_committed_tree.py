"""A run written into results/ is made from a committed tree
(common/lib.sh require_committed_tree, project_commit): a change or an
untracked file outside results/ and build/ stops it, naming the file,
unless ALLOW_DIRTY=1; runs elsewhere (SGB_RESULTS) are not checked."""
import os
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def git(repo, *args):
    subprocess.run(['git', '-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', *args],
                   check=True, capture_output=True, text=True)


def check(repo, env=None):
    e = {k: v for k, v in os.environ.items() if k not in ('SGB_RESULTS', 'ALLOW_DIRTY')}
    e.update(env or {})
    res = subprocess.run(['bash', '-c', f'top={repo}; . {TOP}/common/lib.sh; require_committed_tree; project_commit'],
                         env=e, capture_output=True, text=True)
    return res.returncode, res.stdout.strip(), res.stderr


class CommittedTree(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.repo = self.tmp.name
        git(self.repo, 'init', '-q')
        for d in ('bench', 'results', 'build'):
            os.makedirs(os.path.join(self.repo, d))
        with open(os.path.join(self.repo, 'bench', 'run.sh'), 'w') as f:
            f.write('one\n')
        git(self.repo, 'add', 'bench/run.sh')
        git(self.repo, 'commit', '-q', '-m', 'one')

    def tearDown(self):
        self.tmp.cleanup()

    def test_clean_tree_runs_and_names_its_commit(self):
        with open(os.path.join(self.repo, 'results', 'new-run.txt'), 'w') as f:
            f.write('a run writes here\n')
        rc, out, err = check(self.repo)
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r'^[0-9a-f]{40}$')

    def test_change_refused_naming_the_file(self):
        with open(os.path.join(self.repo, 'bench', 'run.sh'), 'w') as f:
            f.write('two\n')
        rc, out, err = check(self.repo)
        self.assertNotEqual(rc, 0)
        self.assertIn('not committed (bench/run.sh', err)
        self.assertIn('ALLOW_DIRTY=1', err)

    def test_untracked_file_refused(self):
        with open(os.path.join(self.repo, 'bench', 'new.py'), 'w') as f:
            f.write('x\n')
        rc, _, err = check(self.repo)
        self.assertNotEqual(rc, 0)
        self.assertIn('bench/new.py', err)

    def test_allowed_or_elsewhere_runs_and_says_so(self):
        with open(os.path.join(self.repo, 'bench', 'run.sh'), 'w') as f:
            f.write('two\n')
        for env in ({'ALLOW_DIRTY': '1'}, {'SGB_RESULTS': '/tmp/elsewhere'}):
            with self.subTest(env=env):
                rc, out, err = check(self.repo, env)
                self.assertEqual(rc, 0, err)
                self.assertTrue(out.endswith(' with uncommitted changes'), out)


if __name__ == '__main__':
    unittest.main()
