"""Named configurations (bench/configs/*.conf, common/lib.sh load_config):
every file sets only settings its script takes, the environment wins over
the file, and a bad file or name is refused naming the cause."""
import glob
import os
import re
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIGS = os.path.join(TOP, 'bench', 'configs')
SCRIPTS = {'bench': 'bench/run.sh', 'attrib': 'bench/attrib.sh'}


def takes(script):
    """The settings SCRIPT passes to load_config."""
    with open(os.path.join(TOP, script)) as f:
        text = f.read().replace('\\\n', ' ')
    m = re.search(r'load_config "\$CONFIG" ([A-Z_ ]+)', text)
    assert m, f'{script} does not call load_config'
    return m.group(1).split()


def load(name, keys, env=None, top=TOP):
    script = f'top={top}; . {TOP}/common/lib.sh; load_config {name} {" ".join(keys)}; env | sort'
    e = {k: v for k, v in os.environ.items() if k not in keys}
    e.update(env or {})
    res = subprocess.run(['bash', '-c', script], env=e, capture_output=True, text=True)
    return res.returncode, dict(line.split('=', 1) for line in res.stdout.splitlines() if '=' in line), res.stderr


class Configs(unittest.TestCase):
    def test_every_file_loads_for_its_script(self):
        files = sorted(glob.glob(os.path.join(CONFIGS, '*.conf')))
        self.assertGreaterEqual(len(files), 8)
        for f in files:
            name = os.path.basename(f)[:-5]
            kind = name.split('-')[0]
            with self.subTest(config=name):
                self.assertIn(kind, SCRIPTS, 'a configuration is named <bench|attrib>-<what>')
                rc, env, err = load(name, takes(SCRIPTS[kind]))
                self.assertEqual(rc, 0, err)
                self.assertIn(f'configuration {name}', err)

    def test_values_and_environment_wins(self):
        keys = takes('bench/attrib.sh')
        rc, env, err = load('attrib-o2', keys, {'PAR': '1'})
        self.assertEqual(rc, 0, err)
        self.assertEqual(env['POINTS'], 'randread-4k-qd1 randread-1M-qd1')
        self.assertEqual(env['DEVICES'], 'fake real')
        self.assertEqual(env['PAR'], '1')

    def test_refusals(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, 'bench', 'configs'))
            with open(os.path.join(tmp, 'bench', 'configs', 'attrib-bad.conf'), 'w') as f:
                f.write('# a setting attrib.sh does not take\nDEVICES="fake"\nRW=read\n')
            with open(os.path.join(tmp, 'bench', 'configs', 'attrib-garbled.conf'), 'w') as f:
                f.write('DEVICES fake\n')
            keys = takes('bench/attrib.sh')
            for name, words in (('attrib-bad', 'attrib-bad.conf:3: RW is not a setting of this script'),
                                ('attrib-garbled', 'attrib-garbled.conf:1: want VAR=value'),
                                ('nosuch', "no configuration 'nosuch'")):
                with self.subTest(config=name):
                    rc, _, err = load(name, keys, top=tmp)
                    self.assertNotEqual(rc, 0)
                    self.assertIn(words, err)


if __name__ == '__main__':
    unittest.main()
