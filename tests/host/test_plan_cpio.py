"""Host-side test of common/lib.sh's plan_cpio, the archive qemu/run.sh -l
appends to the initramfs: it must hold the plan (alone) under
/sgb-local/ and have the same bytes whenever it is made from the same plan
(a new mtime or inode number in it changed the instructions an icount boot
ran: results/plugin-determinism-20261203)."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))


def plan_cpio(plan, tmp, out):
    script = 'top=$1; . "$1/common/lib.sh"; plan_cpio "$2" "$3" "$4"'
    p = subprocess.run(['bash', '-c', script, '-', TOP, plan, tmp, out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise AssertionError(f'plan_cpio: exit {p.returncode}: {p.stderr}')
    with open(out, 'rb') as f:
        return f.read()


class PlanCpioTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='plan-cpio-test-')
        self.plan = os.path.join(self.tmp, 'plan.sh')
        with open(self.plan, 'w') as f:
            f.write('#!/bin/sh\necho hello\n')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_same_plan_same_bytes(self):
        a = plan_cpio(self.plan, os.path.join(self.tmp, 'a'), os.path.join(self.tmp, 'a.cpio'))
        time.sleep(1.1)  # a new second for mtimes, new files for inode numbers
        os.utime(self.plan)
        b = plan_cpio(self.plan, os.path.join(self.tmp, 'b'), os.path.join(self.tmp, 'b.cpio'))
        self.assertEqual(a, b)

    def test_holds_the_plan_alone(self):
        out = os.path.join(self.tmp, 'a.cpio')
        plan_cpio(self.plan, os.path.join(self.tmp, 'a'), out)
        p = subprocess.run(['cpio', '-it', '--quiet'], stdin=open(out, 'rb'), stdout=subprocess.PIPE,
                           text=True, check=True)
        self.assertEqual(sorted(p.stdout.split()), ['sgb-local', 'sgb-local/plan.sh'])


if __name__ == '__main__':
    unittest.main()
