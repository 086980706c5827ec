"""The variant table: variants/<name>/variant, read for the analysis.

Each design the rig builds is a directory under variants/ with a file
`variant`, one "key value" a line (comments start with #):

  role    control (the design every other is measured against; exactly one)
          or candidate
  title   one line for reports
  series  the series file of the directory
  config  the config fragment of the directory, or none
  kunit   the KUnit suites the kernel must run, space-separated
  debug_config  a config fragment of the directory merged after
          common/debug.config into the debug kernel, or none
  kunit_debug  the KUnit suites the debug kernel must run besides
          those of kunit (the reliability suite checks them), or none
  default yes if make test and make bench take it when VARIANTS is not
          given; no for a design still being built
  memory  how a converted host's data buffer takes sg pool memory:
          chained (6.1's chained sg_table), ring (sg_ring) or none

common/lib.sh (variant_get, control_variant) is the shell's reader of the
same files; nothing else names a variant.
"""
import os

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.environ.get('SGB_VARIANTS_DIR', os.path.join(TOP, 'variants'))
KEYS = ('role', 'title', 'series', 'config', 'kunit', 'debug_config', 'kunit_debug', 'default', 'memory')
MEMORY = ('chained', 'ring', 'none')
ROLES = ('control', 'candidate')


class VariantError(Exception):
    """A variant file that does not say what the rig needs."""


def read(path):
    """{key: value} of one variant file; VariantError naming the file and
    the line on a key it does not know, a key twice, a key missing or a
    role other than control or candidate."""
    kv = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            key, _, value = line.partition(' ')
            if key not in KEYS:
                raise VariantError(f'{path}:{n}: unknown key {key!r}: use one of {", ".join(KEYS)}')
            if key in kv:
                raise VariantError(f'{path}:{n}: {key} given twice')
            kv[key] = value.strip()
    missing = [k for k in KEYS if k not in kv]
    if missing:
        raise VariantError(f'{path}: no {", ".join(missing)} (see the comment at the top of the file)')
    if kv['role'] not in ROLES:
        raise VariantError(f'{path}: role is {kv["role"]!r}: say control or candidate')
    if kv['default'] not in ('yes', 'no'):
        raise VariantError(f'{path}: default is {kv["default"]!r}: say yes or no')
    if kv['memory'] not in MEMORY:
        raise VariantError(f'{path}: memory is {kv["memory"]!r}: say one of {", ".join(MEMORY)}')
    return kv


def load(root=None):
    """{name: {key: value}} of every variant under ROOT (or root)."""
    root = root or ROOT
    out = {}
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        if not os.path.isdir(d):
            continue
        path = os.path.join(d, 'variant')
        if not os.path.exists(path):
            raise VariantError(f'{d} has no file variant: copy one from another variant '
                               'and set its role, title, series, config, kunit, debug_config, kunit_debug, default and memory')
        out[name] = read(path)
    return out


def control(names, table=None):
    """The control among NAMES (a run's variants): the one whose role is
    control in the table.  A run of names the table no longer holds falls
    back to the first name; more than one control is a VariantError."""
    table = load() if table is None else table
    found = [n for n in names if table.get(n, {}).get('role') == 'control']
    if len(found) > 1:
        raise VariantError(f'more than one control among {", ".join(names)}: {", ".join(found)}')
    return found[0] if found else names[0]


def ordered(names, table=None):
    """NAMES with the control first, the candidates after it in their
    order."""
    c = control(list(names), table)
    return [c] + [n for n in names if n != c]


def title(name, table=None):
    """The variant's one-line title, or its name if the table has none."""
    table = load() if table is None else table
    return table.get(name, {}).get('title', name)
