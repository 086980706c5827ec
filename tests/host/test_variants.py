"""The variant table (variants/<name>/variant): its readers agree and
refuse a table that does not say what the rig needs.

bench/variants.py is the Python reader, common/lib.sh (variant_get,
control_variant, candidate_variants) the shell's; both run here on the
fixtures in tests/data/variant-table/ and on the project's own table.
"""
import os
import subprocess
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench import variants  # noqa: E402

DATA = os.path.join(TOP, 'tests', 'data', 'variant-table')


def shell(root, script):
    """(status, stdout, stderr) of SCRIPT run after sourcing common/lib.sh
    with the variants of ROOT."""
    env = dict(os.environ, SGB_VARIANTS_DIR=root)
    env.pop('VARIANTS', None)
    res = subprocess.run(['bash', '-c', f'top={TOP}; . "$top/common/lib.sh"; {script}'],
                         env=env, capture_output=True, text=True)
    return res.returncode, res.stdout, res.stderr


class Python(unittest.TestCase):
    def test_good_table(self):
        t = variants.load(os.path.join(DATA, 'good'))
        self.assertEqual(sorted(t), ['cand', 'ctl'])
        self.assertEqual(t['cand']['title'], 'a candidate, with commas')
        self.assertEqual(t['cand']['kunit'].split(), ['s1', 's2'])
        self.assertEqual(variants.control(['cand', 'ctl'], t), 'ctl')
        self.assertEqual(variants.ordered(['cand', 'ctl'], t), ['ctl', 'cand'])

    def test_old_run_without_the_control_falls_back_to_its_first(self):
        t = variants.load(os.path.join(DATA, 'good'))
        self.assertEqual(variants.control(['gone', 'cand'], t), 'gone')

    def test_refusals_name_the_cause(self):
        for case, words in (('bad-role', "role is 'baseline'"), ('unknown-key', "unknown key 'kunits'"),
                            ('missing', 'no kunit'), ('nofile', 'has no file variant')):
            with self.subTest(case=case):
                with self.assertRaises(variants.VariantError) as cm:
                    variants.load(os.path.join(DATA, case))
                self.assertIn(words, str(cm.exception))

    def test_two_controls_refused(self):
        t = variants.load(os.path.join(DATA, 'two-controls'))
        with self.assertRaises(variants.VariantError) as cm:
            variants.control(['a', 'b'], t)
        self.assertIn('more than one control', str(cm.exception))

    def test_project_table(self):
        t = variants.load()
        controls = [n for n, v in t.items() if v['role'] == 'control']
        self.assertEqual(len(controls), 1, f'exactly one control in variants/: {controls}')
        for name, v in t.items():
            d = os.path.join(variants.ROOT, name)
            self.assertTrue(os.path.isfile(os.path.join(d, v['series'])), f'{name}: series {v["series"]}')
            if v['config'] != 'none':
                self.assertTrue(os.path.isfile(os.path.join(d, v['config'])), f'{name}: config {v["config"]}')
            self.assertTrue(v['kunit'].split(), f'{name}: no KUnit suite')


class Shell(unittest.TestCase):
    def test_good_table_as_python_reads_it(self):
        root = os.path.join(DATA, 'good')
        t = variants.load(root)
        rc, out, err = shell(root, 'control_variant; candidate_variants; variant_get cand title; '
                                   'variant_file cand config; variant_file ctl config; echo end')
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.split('\n'), ['ctl', 'cand', t['cand']['title'],
                                           os.path.join(root, 'cand', 'cand.config'), 'end', ''])

    def test_default_no_is_left_out_unless_named(self):
        root = os.path.join(DATA, 'wip')
        rc, out, err = shell(root, 'variants; echo --; VARIANTS="ctl wip"; variants; candidate_variants')
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.split(), ['ctl', '--', 'ctl', 'wip', 'wip'])
        self.assertEqual(variants.load(root)['wip']['default'], 'no')

    def test_refusals_name_the_cause(self):
        for case, script, words in (
                ('two-controls', 'control_variant', 'exactly one variant with \'role control\''),
                ('bad-role', 'variant_get a role', "role is 'baseline'"),
                ('missing', 'variant_get a kunit', "no single line 'kunit <value>'"),
                ('nofile', 'variant_get a role', "variants/a has no file 'variant'"),
                ('good', 'variant_get nosuch role', "unknown variant 'nosuch'")):
            with self.subTest(case=case):
                rc, out, err = shell(os.path.join(DATA, case), script)
                self.assertNotEqual(rc, 0, out)
                self.assertIn(words, err)

    def test_project_table_as_python_reads_it(self):
        t = variants.load()
        for name, v in t.items():
            with self.subTest(variant=name):
                rc, out, err = shell(variants.ROOT, f'for k in {" ".join(variants.KEYS)}; '
                                                   f'do variant_get {name} $k; done')
                self.assertEqual(rc, 0, err)
                self.assertEqual(out.splitlines(), [v[k] for k in variants.KEYS])


if __name__ == '__main__':
    unittest.main()
