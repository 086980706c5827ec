"""Host-side test of bench/attrib.sh's device descriptions in meta.txt:
each device class gets its own line.  The catch-all arm for the adapters
of the table stood before the IOMMU classes' arms, so iommu-strict and
iommu-lazy were described as "q35 machine, no IOMMU, the normal kernel"
(results/attrib-20261207-iommu-o2-sg_table, mended by hand), and the
reports' device classes are read from these lines."""
import os
import re
import subprocess
import unittest

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')


def describe(device):
    """The meta.txt line bench/attrib.sh writes for DEVICE: its case block
    run in bash with the helpers it calls stubbed."""
    with open(os.path.join(TOP, 'bench', 'attrib.sh')) as f:
        text = f.read()
    m = re.search(r'\tfor d in "\$\{devices\[@\]\}"; do\n\t\tcase \$d in\n(.*?)\t\tesac\n', text, re.S)
    assert m, 'the case block of the device descriptions is not where this test looks'
    script = ('hba_of() { echo megasas; }; adapter_get() { echo q35; }; kernel_desc="the normal kernel"; '
              'iommu_kernel=iommu; idle_arg=" idle=poll"; d=%s\ncase $d in\n%s\tesac\n' % (device, m.group(1)))
    return subprocess.run(['bash', '-c', script], capture_output=True, text=True, check=True).stdout


class DescriptionTest(unittest.TestCase):
    def test_the_iommu_classes_are_described_behind_the_iommu(self):
        for dev, strict in (('iommu-strict', '1'), ('iommu-lazy', '0')):
            line = describe(dev)
            self.assertIn('q35 + intel-iommu', line)
            self.assertIn(f'intel_iommu=on iommu.strict={strict}', line)
            self.assertNotIn('no IOMMU', line)

    def test_an_adapter_of_the_table_still_gets_the_generic_line(self):
        self.assertIn('no IOMMU', describe('ahci'))
        self.assertIn('device_pvscsi pvscsi', describe('pvscsi'))


if __name__ == '__main__':
    unittest.main()
