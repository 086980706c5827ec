"""Host-side tests of the compile test's analysis (common/check-build.py)."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(TOP, 'common', 'check-build.py')

TABLE_LOG = """\
  CC [M]  drivers/scsi/foo.o
/work/x/build/sg_table/src/drivers/scsi/foo.c:10:5: warning: unused variable 'i' [-Wunused-variable]
../../../sg_table/src/include/scsi/scsi_cmnd.h:200:1: warning: 'x' defined but not used [-Wunused-function]
drivers/scsi/bar.o: warning: objtool: bar_queue+0x1a4: unreachable instruction
"""
# the same warnings at other lines and offsets, one of them twice, and an error
RING_LOG = """\
/work/y/build/sg_ring/src/drivers/scsi/foo.c:12:5: warning: unused variable 'i' [-Wunused-variable]
../../../sg_ring/src/include/scsi/scsi_cmnd.h:260:1: warning: 'x' defined but not used [-Wunused-function]
../../../sg_ring/src/include/scsi/scsi_cmnd.h:260:1: warning: 'x' defined but not used [-Wunused-function]
drivers/scsi/bar.o: warning: objtool: bar_queue+0x1b0: unreachable instruction
/work/y/build/sg_ring/src/drivers/scsi/baz.c:3:10: error: 'struct scsi_data_buffer' has no member named 'table'
make[4]: *** [/work/y/build/sg_ring/src/scripts/Makefile.build:250: drivers/scsi/baz.o] Error 1
"""


def run(*args):
    return subprocess.run(['/usr/bin/python3', TOOL, *args], capture_output=True, text=True)


class DiagCompareTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def diag(self, name, log):
        path = os.path.join(self.tmp.name, name + '.log')
        with open(path, 'w') as f:
            f.write(log)
        out = run('diag', path)
        self.assertEqual(out.returncode, 0, out.stderr)
        dpath = os.path.join(self.tmp.name, name + '.diag')
        with open(dpath, 'w') as f:
            f.write(out.stdout)
        return dpath, out.stdout.splitlines()

    def test_paths_lines_and_offsets_are_normalised(self):
        _, lines = self.diag('t', TABLE_LOG)
        self.assertEqual(lines, [
            "warning\tdrivers/scsi/foo.c\tunused variable 'i' [-Wunused-variable]",
            "warning\tinclude/scsi/scsi_cmnd.h\t'x' defined but not used [-Wunused-function]",
            'warning\tdrivers/scsi/bar.o\tbar_queue: unreachable instruction',
        ])

    def test_new_means_more_often_and_errors_count(self):
        old, _ = self.diag('t', TABLE_LOG)
        new, _ = self.diag('r', RING_LOG)
        out = run('compare', old, new)
        self.assertEqual(out.returncode, 1)
        self.assertEqual(out.stdout.splitlines(), [
            "error\tdrivers/scsi/baz.c\t'struct scsi_data_buffer' has no member named 'table'",
            'error\tdrivers/scsi/baz.o\tmake: the build of this target failed',
            "warning\tinclude/scsi/scsi_cmnd.h\t'x' defined but not used [-Wunused-function]",
        ])

    def test_same_diagnostics_elsewhere_are_not_new(self):
        old, _ = self.diag('t', TABLE_LOG)
        out = run('compare', old, old)
        self.assertEqual((out.returncode, out.stdout), (0, ''))


class ReasonTest(unittest.TestCase):
    def test_names_the_option_and_the_parent_directory(self):
        with tempfile.TemporaryDirectory() as src:
            os.makedirs(os.path.join(src, 'drivers', 's390', 'scsi'))
            os.makedirs(os.path.join(src, 'drivers', 'scsi'))
            with open(os.path.join(src, 'drivers', 'Makefile'), 'w') as f:
                f.write('obj-$(CONFIG_S390)\t\t+= s390/\nobj-y += scsi/\n')
            with open(os.path.join(src, 'drivers', 's390', 'Makefile'), 'w') as f:
                f.write('obj-y += scsi/\n')
            with open(os.path.join(src, 'drivers', 's390', 'scsi', 'Makefile'), 'w') as f:
                f.write('zfcp-objs := zfcp_aux.o \\\n\tzfcp_fsf.o\nobj-$(CONFIG_ZFCP) += zfcp.o\n')
            with open(os.path.join(src, 'drivers', 'scsi', 'Makefile'), 'w') as f:
                f.write('obj-$(CONFIG_SCSI_FOO) += foo.o\nobj-$(CONFIG_SCSI_BAR) += bar.o\n')
            config = os.path.join(src, '.config')
            with open(config, 'w') as f:
                f.write('CONFIG_ZFCP=m\n# CONFIG_SCSI_FOO is not set\nCONFIG_SCSI_BAR=m\n')
            files = ['drivers/s390/scsi/zfcp_fsf.c', 'drivers/scsi/foo.c',
                     'drivers/scsi/NCR5380.c', 'drivers/scsi/bar.c']
            out = run('reason', src, config, *files)
            # only bar.c's object is built: the others are no goals
            configured = run('configured', src, config, *files)
        self.assertEqual(configured.stdout, 'drivers/scsi/bar.c\n')
        self.assertEqual(out.returncode, 0, out.stderr)
        got = dict(line.split('\t') for line in out.stdout.splitlines())
        self.assertIn('CONFIG_ZFCP=m', got['drivers/s390/scsi/zfcp_fsf.c'])
        self.assertTrue(got['drivers/s390/scsi/zfcp_fsf.c'].endswith('[CONFIG_S390=n]'),
                        got['drivers/s390/scsi/zfcp_fsf.c'])
        self.assertTrue(got['drivers/scsi/foo.c'].endswith('[CONFIG_SCSI_FOO=n]'))
        self.assertIn('no Makefile line', got['drivers/scsi/NCR5380.c'])


if __name__ == '__main__':
    unittest.main()


class RelativeOutTest(unittest.TestCase):
    """common/check-build.sh compile SRC OUT with relative paths: make runs
    with -C SRC, so a relative O= once named a directory inside the kernel
    tree and allmodconfig's .config was not where the script looked."""

    def test_make_gets_absolute_paths(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, 'src', '.git'))
            stub = os.path.join(tmp, 'bin')
            os.makedirs(stub)
            record = os.path.join(tmp, 'make-args')
            with open(os.path.join(stub, 'make'), 'w') as f:
                f.write('#!/bin/sh\nprintf "%%s\\n" "$@" >%s\nexit 1\n' % record)
            os.chmod(os.path.join(stub, 'make'), 0o755)
            env = dict(os.environ, PATH=stub + ':/usr/bin:/bin')
            out = subprocess.run(['bash', os.path.join(TOP, 'common', 'check-build.sh'),
                                  'compile', 'src', 'out'],
                                 cwd=tmp, env=env, capture_output=True, text=True)
            self.assertNotEqual(out.returncode, 0)
            self.assertIn('make allmodconfig failed', out.stderr)
            with open(record) as f:
                args = f.read().split('\n')
            self.assertIn('-C', args)
            self.assertEqual(args[args.index('-C') + 1], os.path.join(tmp, 'src'))
            self.assertIn('O=' + os.path.join(tmp, 'out', 'obj'), args)
            self.assertFalse(os.path.exists(os.path.join(tmp, 'src', 'out')))
