"""common/check-config.py: the final .config has what the fragments ask
for, the later of two fragments that set one option winning as in
merge_config.sh (bench/os.config turns common/distro.config's -O2 into
-Os for the os flavour), and a dropped option is named."""
import os
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(TOP, 'common', 'check-config.py')


class CheckConfigTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def check(self, config, *fragments):
        return subprocess.run(['/usr/bin/python3', CHECK, config, *fragments],
                              capture_output=True, text=True)

    def test_os_fragment_overrides_the_distro_fragment(self):
        """The real fragments: a .config at -Os passes with os.config after
        distro.config, and fails without it, naming the option."""
        distro = os.path.join(TOP, 'common', 'distro.config')
        osfrag = os.path.join(TOP, 'bench', 'os.config')
        # every option distro.config sets, as it sets it, but -Os
        with open(distro) as f:
            lines = [ln for ln in f if ln.startswith('CONFIG_') or ln.startswith('# CONFIG_')]
        text = ''.join(lines).replace('CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y',
                                      '# CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE is not set')
        config = self.write('config-os', text + 'CONFIG_CC_OPTIMIZE_FOR_SIZE=y\n')
        p = self.check(config, distro, osfrag)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.check(config, distro)
        self.assertEqual(p.returncode, 1)
        self.assertIn('CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y requested, .config has '
                      'CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=n', p.stderr)

    def test_the_later_fragment_wins_either_way(self):
        a = self.write('a.config', 'CONFIG_FOO=y\n')
        b = self.write('b.config', '# CONFIG_FOO is not set\n')
        off = self.write('off', '# CONFIG_FOO is not set\n')
        on = self.write('on', 'CONFIG_FOO=y\n')
        self.assertEqual(self.check(off, a, b).returncode, 0)
        self.assertEqual(self.check(on, b, a).returncode, 0)
        p = self.check(on, a, b)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f'{b}: CONFIG_FOO=n requested, .config has CONFIG_FOO=y', p.stderr)

    def test_a_dropped_option_is_named(self):
        frag = self.write('f.config', 'CONFIG_BAR=y\nCONFIG_BAZ=m\n')
        config = self.write('config', 'CONFIG_BAZ=m\n')
        p = self.check(config, frag)
        self.assertEqual(p.returncode, 1)
        self.assertIn('CONFIG_BAR=y requested, .config has CONFIG_BAR=n', p.stderr)


if __name__ == '__main__':
    unittest.main()
