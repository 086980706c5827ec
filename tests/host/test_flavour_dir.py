"""Host-side test of common/lib.sh's flavour_dir, the one mapping of a kernel
flavour to its folder under build/ (common/build.sh, common/image/build.sh,
qemu/run.sh and bench/attrib.sh all ask it)."""
import os
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))


def flavour_dir(*args):
    script = 'set -e; top=$1; shift; . "$top/common/lib.sh"; d=$(flavour_dir "$@"); echo "dir $d"'
    return subprocess.run(['bash', '-c', script, '-', TOP, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


class FlavourDirTest(unittest.TestCase):
    def test_each_flavour_has_its_folder(self):
        for args, want in ((('sg_ring',), 'sg_ring'), (('sg_ring', ''), 'sg_ring'),
                           (('sg_table', 'debug'), 'sg_table-debug'),
                           (('sg_ring', 'iommu'), 'sg_ring-iommu'),
                           (('dma_iter', 'os'), 'dma_iter-os'),
                           (('sg_table', 'prefix'), 'sg_table-prefix')):
            p = flavour_dir(*args)
            self.assertEqual((p.returncode, p.stdout), (0, f'dir {want}\n'), (args, p.stderr))

    def test_unknown_flavour_stops_the_caller_naming_the_choices(self):
        p = flavour_dir('sg_ring', 'kasan')
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, '', 'a caller under set -e must not go on with an empty folder')
        self.assertIn("unknown kernel flavour 'kasan'", p.stderr)
        self.assertIn("'debug', 'iommu', 'os' or 'prefix'", p.stderr)


if __name__ == '__main__':
    unittest.main()
