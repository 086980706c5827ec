"""Host-side tests of the reliability report (tests/reliability/report.py)."""
import importlib.util
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
REPORT = os.path.join(TOP, 'tests', 'reliability', 'report.py')
REF = os.path.join(TOP, 'results', 'reliability-20261203-0653')

spec = importlib.util.spec_from_file_location('rel_report', REPORT)
rel_report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rel_report)


class RegenerateLineTest(unittest.TestCase):
    def test_partial_directory_is_named_by_its_final_relative_path(self):
        # run.sh renders the report while the directory is still .partial
        got = rel_report.regenerate_path(os.path.join(TOP, 'results', 'reliability-x.partial'))
        self.assertEqual(got, os.path.join('results', 'reliability-x'))

    def test_report_names_no_absolute_path(self):
        # the committed reference once named a worktree of the machine that made it
        with tempfile.TemporaryDirectory(dir=os.path.join(TOP, 'build') if os.path.isdir(
                os.path.join(TOP, 'build')) else None) as tmp:
            run = os.path.join(tmp, 'reliability-y.partial')
            shutil.copytree(REF, run)
            out = subprocess.run(['/usr/bin/python3', REPORT, run], check=True,
                                 capture_output=True, text=True).stdout
        line = [x for x in out.splitlines() if 'Regenerate with' in x][0]
        named = line.split('report.py ', 1)[1].rstrip('`.')
        self.assertFalse(os.path.isabs(named), line)
        self.assertFalse(named.endswith('.partial'), line)


if __name__ == '__main__':
    unittest.main()
