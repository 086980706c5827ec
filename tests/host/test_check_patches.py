"""The checkpatch part of common/check-patches.sh, against a stub checkpatch.

Each patch passes only with no error, a Signed-off-by, every checker of
checkpatch run, and exactly the warnings and checks that its series'
checkpatch.accepted lists for it.  The stub prints a canned checkpatch
output per patch and records which python3 PATH gives it first: checkpatch
runs scripts/spdxcheck.py with that python3, and on a machine whose first
python3 is not Debian's (pyenv here) spdxcheck.py died on `import ply`
while every patch was still reported as passed.
"""
import os
import subprocess
import tempfile
import textwrap
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, 'common', 'check-patches.sh')

STUB = r'''#!/usr/bin/perl
# stub checkpatch.pl: prints $ENV{STUB_OUT}/<patch file name> and records
# the python3 that PATH finds first
my $patch = $ARGV[-1];
(my $name = $patch) =~ s|.*/||;
open(my $in, '<', "$ENV{STUB_OUT}/$name") or die "stub: no output for $name";
print while <$in>;
my $py = `sh -c 'command -v python3'`;
open(my $log, '>>', "$ENV{STUB_OUT}/python3.log") or die;
print $log $py;
'''

CLEAN = 'total: 0 errors, 0 warnings, 0 checks, 10 lines checked\n'
TRACEBACK = textwrap.dedent('''\
    Traceback (most recent call last):
      File "scripts/spdxcheck.py", line 6, in <module>
        from ply import lex, yacc
    ModuleNotFoundError: No module named 'ply'
    total: 0 errors, 0 warnings, 0 checks, 10 lines checked
    ''')
ONE_BUG = textwrap.dedent('''\
    WARNING:AVOID_BUG: Do not crash the kernel unless it is absolutely unavoidable
    #20: FILE: lib/x.c:3:
    +\tBUG_ON(!n);

    total: 0 errors, 1 warnings, 0 checks, 10 lines checked
    ''')
TWO_CHECKS = textwrap.dedent('''\
    CHECK:CAMELCASE: Avoid CamelCase: <SCpnt>
    CHECK:CAMELCASE: Avoid CamelCase: <SCpnt>
    total: 0 errors, 0 warnings, 2 checks, 10 lines checked
    ''')


class CheckPatches(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        self.series = os.path.join(t, 'series-dir')
        self.outs = os.path.join(t, 'outs')
        os.makedirs(self.series)
        os.makedirs(self.outs)
        os.makedirs(os.path.join(t, 'tree', 'scripts'))
        self.stub = os.path.join(t, 'tree', 'scripts', 'checkpatch.pl')
        with open(self.stub, 'w') as f:
            f.write(STUB)
        os.chmod(self.stub, 0o755)
        # a python3 that is not Debian's, first on PATH
        self.fakebin = os.path.join(t, 'bin')
        os.makedirs(self.fakebin)
        fake = os.path.join(self.fakebin, 'python3')
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\nexit 1\n')
        os.chmod(fake, 0o755)
        self.names = []

    def tearDown(self):
        self.tmp.cleanup()

    def patch(self, num, output, signed=True, accepted=None):
        name = f'{num}-a-patch.patch'
        with open(os.path.join(self.series, name), 'w') as f:
            f.write('Subject: [PATCH] a patch\n\nWhy.\n\n')
            if signed:
                f.write('Signed-off-by: A Developer <a@example.org>\n')
            f.write('---\n')
        with open(os.path.join(self.outs, name), 'w') as f:
            f.write(output)
        if accepted:
            with open(os.path.join(self.series, 'checkpatch.accepted'), 'a') as f:
                f.write(f'# a comment line\n{num} {accepted} the reason\n')
        self.names.append(name)

    def run_script(self):
        with open(os.path.join(self.series, 'series'), 'w') as f:
            f.write('# the series\n' + ''.join(n + '\n' for n in self.names))
        env = dict(os.environ, SGB_CHECKPATCH=self.stub, SGB_SERIES_DIRS=self.series,
                   STUB_OUT=self.outs, PATH=self.fakebin + ':' + os.environ['PATH'])
        res = subprocess.run(['bash', SCRIPT], env=env, capture_output=True, text=True)
        lines = {}
        for line in res.stdout.splitlines():
            name, verdict, why = line.split('\t')
            lines[os.path.basename(name)] = (verdict, why)
        return res, lines

    def test_clean_patch_passes(self):
        self.patch('0001', CLEAN)
        res, lines = self.run_script()
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(lines['0001-a-patch.patch'][0], 'passed')

    def test_spdxcheck_runs_under_debians_python3(self):
        self.patch('0001', CLEAN)
        self.run_script()
        with open(os.path.join(self.outs, 'python3.log')) as f:
            self.assertEqual(f.read().strip(), '/usr/bin/python3')

    def test_a_checker_that_died_fails_the_patch(self):
        self.patch('0001', TRACEBACK)
        res, lines = self.run_script()
        self.assertNotEqual(res.returncode, 0)
        verdict, why = lines['0001-a-patch.patch']
        self.assertEqual(verdict, 'failed')
        self.assertIn("ModuleNotFoundError: No module named 'ply'", why)

    def test_a_warning_not_accepted_fails(self):
        self.patch('0001', ONE_BUG)
        res, lines = self.run_script()
        self.assertNotEqual(res.returncode, 0)
        verdict, why = lines['0001-a-patch.patch']
        self.assertEqual(verdict, 'failed')
        self.assertIn('+WARNING:AVOID_BUG x1', why)

    def test_accepted_warnings_pass_with_their_count(self):
        self.patch('0001', ONE_BUG, accepted='WARNING:AVOID_BUG 1')
        self.patch('0002', TWO_CHECKS, accepted='CHECK:CAMELCASE 2')
        res, lines = self.run_script()
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertEqual(lines['0001-a-patch.patch'][0], 'passed')
        self.assertIn('accepted', lines['0002-a-patch.patch'][1])

    def test_one_more_than_accepted_fails(self):
        self.patch('0002', TWO_CHECKS, accepted='CHECK:CAMELCASE 1')
        _, lines = self.run_script()
        verdict, why = lines['0002-a-patch.patch']
        self.assertEqual(verdict, 'failed')
        self.assertIn('+CHECK:CAMELCASE x2', why)
        self.assertIn('-CHECK:CAMELCASE x1', why)

    def test_an_accepted_warning_that_is_gone_fails(self):
        self.patch('0001', CLEAN, accepted='WARNING:AVOID_BUG 1')
        _, lines = self.run_script()
        verdict, why = lines['0001-a-patch.patch']
        self.assertEqual(verdict, 'failed')
        self.assertIn('-WARNING:AVOID_BUG x1', why)

    def test_no_signed_off_by_fails(self):
        self.patch('0001', CLEAN, signed=False)
        _, lines = self.run_script()
        verdict, why = lines['0001-a-patch.patch']
        self.assertEqual(verdict, 'failed')
        self.assertIn('no Signed-off-by', why)



class SegLimit(unittest.TestCase):
    """seg_limit of the --prefixes part, run as the script runs it.

    It once ran inside $(...), so the die for a tree without
    SG_RING_CHUNK_SIZE ended only that subshell: the smoke check then ran
    without the limit and failed, and the cause was lost.  It must end the
    run, and the boot must use what it set.
    """
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = self.tmp.name
        for d in ('include/scsi', 'include/linux', 'drivers/scsi'):
            os.makedirs(os.path.join(self.src, d))
        self.write('include/scsi/scsi_host.h', 'unsigned use_sg_ring:1;\n')
        self.write('drivers/scsi/scsi_debug.c', 'static int x;\n')
        with open(SCRIPT) as f:
            text = f.read()
        start = text.index('\nseg_limit() {\n')
        self.func = text[start:text.index('\n}\n', start) + 3]
        self.script = text

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text):
        with open(os.path.join(self.src, rel), 'w') as f:
            f.write(text)

    def call(self):
        prog = ('. "$TOP/common/lib.sh"\n' + self.func +
                'num=0009\nseg_limit\necho "reached seglim=$seglim"\n')
        return subprocess.run(['bash', '-c', prog], capture_output=True, text=True,
                              env=dict(os.environ, TOP=TOP, src=self.src))

    def test_unconverted_scsi_debug_gets_the_chunk_size(self):
        self.write('include/linux/sg_ring.h', '#define SG_RING_CHUNK_SIZE\t127\n')
        r = self.call()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, 'reached seglim=--seg-limit=127\n')

    def test_converted_scsi_debug_gets_no_limit(self):
        self.write('drivers/scsi/scsi_debug.c', '.use_sg_ring = 1,\n')
        r = self.call()
        self.assertEqual(r.stdout, 'reached seglim=\n')

    def test_no_chunk_size_ends_the_run(self):
        self.write('include/linux/sg_ring.h', '/* nothing */\n')
        r = self.call()
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(r.stdout, '')
        self.assertIn('defines no SG_RING_CHUNK_SIZE', r.stderr)

    def test_called_in_the_scripts_shell(self):
        self.assertNotIn('$(seg_limit)', self.script)
        self.assertIn('\n\tseg_limit\n', self.script)


class Mode(unittest.TestCase):
    """The accelerator of the --prefixes boots.  qemu/accel.sh dies when
    /dev/kvm is usable but no kernel is built to probe it with; the script
    once went on with an empty mode, and every boot of every prefix failed
    with "unknown mode ''" while the run carried on."""
    def run_mode(self, accel, mode=None):
        with open(SCRIPT) as f:
            text = f.read()
        start = text.index('mode=${MODE:-auto}\n')
        part = text[start:text.index('\nfi\n', start) + 4]
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, 'qemu'))
            stub = os.path.join(tmp, 'qemu', 'accel.sh')
            with open(stub, 'w') as f:
                f.write('#!/bin/sh\n' + accel + '\n')
            os.chmod(stub, 0o755)
            prog = ('set -uo pipefail\ntop=$TOP\n. "$TOP/common/lib.sh"\ntop=$STUBTOP\n' + part +
                    'echo "reached mode=$mode"\n')
            env = dict(os.environ, TOP=TOP, STUBTOP=tmp)
            env.pop('MODE', None)
            if mode:
                env['MODE'] = mode
            return subprocess.run(['bash', '-c', prog], capture_output=True, text=True, env=env)

    def test_a_failed_probe_ends_the_run(self):
        r = self.run_mode('echo "no built kernel to probe KVM with" >&2; exit 1')
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(r.stdout, '')
        self.assertIn('no built kernel to probe KVM with', r.stderr)
        self.assertIn('set MODE=tcg', r.stderr)

    def test_the_probe_verdict_is_the_mode(self):
        r = self.run_mode('echo tcg')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, 'reached mode=tcg\n')

    def test_a_given_mode_is_not_probed(self):
        r = self.run_mode('exit 1', mode='tcg')
        self.assertEqual(r.stdout, 'reached mode=tcg\n')


if __name__ == '__main__':
    unittest.main()
