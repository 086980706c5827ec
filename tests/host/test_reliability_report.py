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
# one boot of results/reliability-20261203-0653 (in git history: results/INDEX.md)
REF = os.path.join(TOP, 'tests', 'data', 'reliability-run')

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


def boot_dir(run, name, info, files):
    d = os.path.join(run, name)
    os.makedirs(d)
    with open(os.path.join(d, 'run.info'), 'w') as f:
        f.write(info)
    for fn, text in files.items():
        with open(os.path.join(d, fn), 'w') as f:
            f.write(text)


class NewPartsTest(unittest.TestCase):
    """The soak figure, the IOMMU table and the DMA-API column."""

    def render(self, dma_api, dmar='passed\t4 DMAR faults logged'):
        with tempfile.TemporaryDirectory() as run:
            boot_dir(run, 'sg_table-iommu', 'variant sg_table\nflavour debug\nwall_seconds 100.5\n', {
                'RESULT': 'pass\n', 'complete': 'iommu\n', 'dma-api.txt': dma_api,
                'results.tsv': 'pvscsi/verify-4k\tpassed\t\n'
                               f'iommu/no-dma-at-a-mapped-iova\t{dmar}\n',
                'figures.tsv': 'pvscsi\tpte_baseline\t3\npvscsi/4k\tcommands\t1024\npvscsi/4k\tmax_segments\t1\n'
                               'pvscsi/4k\tiommu_maps\t2048\npvscsi/4k\tiommu_bytes_mapped\t8388608\n'
                               'pvscsi/4k\tiommu_bytes_unmapped\t8388608\npvscsi/4k\tpte_after\t3\n'
                               'iommu\tdmar_faults\t4\niommu\tdmar_faults_suppressed\t2\n'})
            boot_dir(run, 'sg_table-soak', 'variant sg_table\nwall_seconds 300\n', {
                'RESULT': 'pass\n', 'complete': 'soak\n', 'results.tsv': 'soak/target-written\tpassed\t\n',
                'figures.tsv': 'soak\tmib_written\t1024\nsoak\tseconds\t200\nsoak\trounds\t3\nsoak\tdisks\t3\n'})
            with open(os.path.join(run, 'PARTS'), 'w') as f:
                f.write('iommu soak\n')
            return subprocess.run(['/usr/bin/python3', REPORT, run], check=True,
                                  capture_output=True, text=True).stdout

    def test_soak_iommu_and_parts_are_shown(self):
        out = self.render('error_count 0\ndisabled N\n')
        self.assertIn('Parts run: iommu, soak', out)
        self.assertIn('Soak: 1.00 GiB written and verified in 3 rounds over 3 disks in 200 s', out)
        # 2048 maps over 1024 commands: 2.00 per command
        self.assertIn('| pvscsi/4k | 1024 | 1 | 2048 | 2.00 | 8388608 | 8388608 | 3 (3) |', out)
        self.assertIn('| sg_table-iommu | debug | iommu | pass |', out)
        self.assertIn('| sg_table-soak | normal | soak | pass |', out)

    def test_dmar_faults_are_shown_and_one_at_a_mapped_iova_fails(self):
        out = self.render('error_count 0\ndisabled N\n')
        self.assertIn('DMAR faults (`iommu/no-dma-at-a-mapped-iova` passed): 4 DMAR faults logged.', out)
        out = self.render('error_count 0\ndisabled N\n', 'failed\t1 at an IOVA a scenario had mapped')
        self.assertIn('| sg_table-iommu | debug | iommu | FAIL |', out)
        self.assertIn('`iommu/no-dma-at-a-mapped-iova` failed): 1 at an IOVA a scenario had mapped.', out)

    def test_dma_api_errors_fail_the_boot(self):
        out = self.render('error_count 2\ndisabled N\n')
        self.assertIn('| sg_table-iommu | debug | iommu | FAIL |', out)



class CollectTest(unittest.TestCase):
    """tests/reliability/collect.sh: boots of several invocations in one result."""

    COLLECT = os.path.join(TOP, 'tests', 'reliability', 'collect.sh')

    def boot(self, root, inv, name):
        d = os.path.join(root, inv, name)
        os.makedirs(os.path.join(d, 'share', 'out'))
        for fn, text in (('run.info', 'variant %s\nwall_seconds 10\n' % name.split('-')[0]),
                         ('RESULT', 'pass\n'), ('console.log', 'Linux version 6.1\n'),
                         (os.path.join('share', 'out', 'results.tsv'), 'x/verify-4k\tpassed\t\n'),
                         (os.path.join('share', 'out', 'complete'), 'done\n')):
            with open(os.path.join(d, fn), 'w') as f:
                f.write(text)
        return d

    def test_relative_destination_gets_every_boots_files(self):
        # the first version copied the plan's files to DEST relative to each
        # boot's share/out, and failed for a relative DEST
        with tempfile.TemporaryDirectory() as root:
            a = self.boot(root, 'inv1', 'sg_ring-qemu-disks')
            b = self.boot(root, 'inv2', 'sg_table-iommu')
            subprocess.run([self.COLLECT, 'out', 'qemu-disks iommu', a, b + '/'], cwd=root,
                           check=True, capture_output=True, text=True)
            dest = os.path.join(root, 'out')
            self.assertFalse(os.path.exists(dest + '.partial'))
            for name in ('sg_ring-qemu-disks', 'sg_table-iommu'):
                for fn in ('run.info', 'RESULT', 'console.log.gz', 'results.tsv', 'complete'):
                    self.assertTrue(os.path.isfile(os.path.join(dest, name, fn)), (name, fn))
            with open(os.path.join(dest, 'REPORT.md')) as f:
                report = f.read()
            self.assertIn('| sg_ring-qemu-disks |', report)
            self.assertIn('| sg_table-iommu |', report)

    def test_a_boot_given_twice_is_refused(self):
        with tempfile.TemporaryDirectory() as root:
            a = self.boot(root, 'inv1', 'sg_ring-soak')
            r = subprocess.run([self.COLLECT, 'out', 'soak', a, a], cwd=root, capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn('two boots named sg_ring-soak', r.stderr)


if __name__ == '__main__':
    unittest.main()
