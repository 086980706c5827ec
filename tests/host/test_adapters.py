"""The adapter table (common/adapters.tsv): well formed, and what the
shell derives from it (common/lib.sh: the make test boots, the 6.1 limits,
the bench classes) follows it, so that an adapter is one row."""
import os
import subprocess
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(TOP, 'common', 'adapters.tsv')
FIELDS = 'name controller disk bus cd machine proc_name pci seg61 hwkb61 boot bench attrib'.split()


def rows(path=TABLE):
    with open(path) as f:
        return [dict(zip(FIELDS, line.rstrip('\n').split('\t')))
                for line in f if line.strip() and not line.startswith('#')]


def lib(script, table=TABLE):
    env = dict(os.environ, SGB_ADAPTERS=table)
    res = subprocess.run(['bash', '-c', f'top={TOP}; . "$top/common/lib.sh"; {script}'],
                         env=env, capture_output=True, text=True)
    return res.returncode, res.stdout, res.stderr


class Table(unittest.TestCase):
    def test_well_formed(self):
        with open(TABLE) as f:
            data = [line.rstrip('\n') for line in f if line.strip() and not line.startswith('#')]
        self.assertGreaterEqual(len(data), 10)
        for line in data:
            with self.subTest(row=line.split('\t')[0]):
                self.assertEqual(len(line.split('\t')), len(FIELDS), 'one tab-separated field each')
        names = [r['name'] for r in rows()]
        self.assertEqual(len(names), len(set(names)), 'adapter names are unique')
        for r in rows():
            with self.subTest(adapter=r['name']):
                self.assertIn(r['machine'], ('pc', 'q35'))
                self.assertTrue(r['boot'] == 'qemu-disks' or r['boot'].startswith('qemu-hba'))
                self.assertTrue(r['cd'] == '-' or ':' in r['cd'], 'cd is DEVICE:BUS or -')
                # SG_IO is checked on every qemu-hba adapter, at its 6.1 limit
                if r['boot'].startswith('qemu-hba'):
                    self.assertTrue(r['seg61'].isdigit() and r['hwkb61'].isdigit())


class Derived(unittest.TestCase):
    def boots(self, table=TABLE):
        rc, out, err = lib('printf "%s\\n" "$hba_boots"', table)
        self.assertEqual(rc, 0, err)
        return [line.split('|') for line in out.splitlines()]

    def test_each_hba_in_its_boot_and_the_cds_in_qemu_hba(self):
        boots = self.boots()
        for r in rows():
            if not r['boot'].startswith('qemu-hba'):
                continue
            got = [b for b in boots if r['name'] in b[2].split(',')]
            self.assertEqual([b[0] for b in got], [r['boot']], r['name'])
            self.assertIn(f"{r['name']}=file", got[0][1].split(','))
        hba = [b for b in boots if b[0] == 'qemu-hba'][0]
        self.assertEqual(hba[3].split(','), [r['name'] for r in rows() if r['cd'] != '-'])

    def test_limits_and_qemu_disks(self):
        rc, out, err = lib('printf "%s\\n" "$hba_limits61"; echo "$qdisk_boots"; hba_sgio_pages usb; hba_sgio_pages ahci')
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        want = [f"{r['name']} {r['seg61']} {r['hwkb61']}" for r in rows() if r['seg61'] != '-']
        self.assertEqual(lines[:len(want)], want)
        disks = ','.join(f"{r['name']}=file" for r in rows() if r['boot'] == 'qemu-disks')
        self.assertTrue(lines[len(want)].startswith(f'qemu-disks:{disks}: '), lines[len(want)])
        # L = min(max_segments, max_hw_sectors_kb / 4)
        self.assertEqual(lines[len(want) + 1:], ['256', '32'])

    def test_every_adapter_has_6_1_limits_for_passthrough(self):
        # issue 31: SG_IO of 6.1's most scattered pages on every adapter,
        # the qemu-disks ones (converted on sg_ring) too; and the guest gets
        # them as one sgb.limits61= argument
        rc, out, err = lib('hba_sgio_pages virtio; hba_sgio_pages pvscsi; echo "$limits61_arg"')
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[:2], ['1022', '128'])
        self.assertEqual([r['name'] for r in rows() if r['seg61'] == '-'], [])
        self.assertIn('virtio:1022:32767', lines[2].split('=', 1)[1].split(','))
        self.assertNotIn(' ', lines[2])

    def test_one_more_row_is_one_more_adapter(self):
        extra = os.path.join(TOP, 'tests', 'data', 'adapters', 'one-more-row.tsv')
        hba = [b for b in self.boots(extra) if b[0] == 'qemu-hba'][0]
        self.assertIn('newhba', hba[2].split(','))
        rc, out, err = lib('hba_sgio_pages newhba; adapter_get newhba proc_name', extra)
        self.assertEqual((rc, out.split()), (0, ['64', 'newdrv']), err)

    def test_bench_classes(self):
        rc, out, err = lib('adapter_of_class attrib iommu-strict; adapter_of_class bench virtio; '
                           'adapter_of_class bench megasas; echo end')
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.split(), ['megasas', 'virtio', 'end'])

    def test_guest_finds_driver_and_pci_by_the_header(self):
        # the guest's qdisk reads the table from its image with busybox awk:
        # proc_name and pci by the header's names, so a column added before
        # them moves nothing
        def guest(table, hba):
            env = dict(os.environ, SGB_ADAPTERS=table)
            res = subprocess.run(['busybox', 'sh', '-c', f'. {TOP}/common/image/guest-lib.sh; adapter_driver {hba}'],
                                 env=env, capture_output=True, text=True)
            return res.stdout.split()
        self.assertEqual(guest(TABLE, 'megasas-gen2'), ['megaraid_sas', '0x0079'])
        self.assertEqual(guest(TABLE, 'ahci'), ['ahci', '-'])
        self.assertEqual(guest(TABLE, 'nosuch'), [])
        with open(TABLE) as f:
            lines = f.read().split('\n')
        moved = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'sgb-adapters-moved-%d.tsv' % os.getpid())
        try:
            with open(moved, 'w') as f:
                for ln in lines:
                    if ln.startswith('# name\t') or (ln and not ln.startswith('#')):
                        c = ln.split('\t')
                        ln = '\t'.join(c[:6] + ['new' if ln.startswith('#') else 'x'] + c[6:])
                    f.write(ln + '\n')
            self.assertEqual(guest(moved, 'megasas-gen2'), ['megaraid_sas', '0x0079'])
        finally:
            os.remove(moved)

    def test_a_table_without_its_header_is_refused_by_name(self):
        bare = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'sgb-adapters-bare-%d.tsv' % os.getpid())
        try:
            with open(TABLE) as f, open(bare, 'w') as g:
                g.write(''.join(ln for ln in f if not ln.startswith('# name\t')))
            rc, _, err = lib('adapter_get ahci proc_name', bare)
            self.assertNotEqual(rc, 0)
            self.assertIn("has no header line '# name<TAB>...' naming its fields", err)
        finally:
            os.remove(bare)

    def test_unknown_adapter_named(self):
        rc, _, err = lib('adapter_get nosuch disk')
        self.assertNotEqual(rc, 0)
        self.assertIn("unknown adapter 'nosuch'", err)


if __name__ == '__main__':
    unittest.main()
