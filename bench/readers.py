"""Readers of a bench run's raw files, one per format: meta.txt and the other
'key value' files, fio's JSON, the disk's block stat, slabinfo, perf's
report, the guest's kallsyms and its results.ktap (with the kernel's own
KTAP parser).  Nothing here reads a file the reports write."""
import gzip
import importlib.util
import io
import json
import os
import re
import sys

from bench import fiojson


def bs_bytes(text):
    """'4k' -> 4096, '1M' -> 1048576 (fio's binary units)."""
    m = re.match(r'^(\d+)([kKmMgG]?)$', text)
    if not m:
        raise ValueError(f'bad block size {text!r}: use e.g. 4k, 1M')
    return int(m.group(1)) * {'': 1, 'k': 1024, 'm': 1 << 20, 'g': 1 << 30}[m.group(2).lower()]


def split_point(point):
    """'randread-4k-qd32' -> ('randread', '4k', 32)."""
    rw, bs, qd = point.split('-')
    return rw, bs, int(qd[2:])


def size_class(point):
    return split_point(point)[1]


# ------------------------------------------------------------ readers

def read_kv(path):
    """'key value...' lines (meta.txt, run.info) -> {key: [values]}."""
    out = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition(' ')
            if k:
                out.setdefault(k, []).append(v)
    return out


def open_data(path, mode='r'):
    """PATH, or PATH.gz where a committed run keeps that file compressed
    (results/INDEX.md): the same text (or bytes, mode 'rb') either way."""
    if not os.path.exists(path) and os.path.exists(path + '.gz'):
        return gzip.open(path + '.gz', mode if 'b' in mode else 'rt')
    return open(path, mode)


def main_direction(job):
    """The direction fio ran (read or write) of one job of fiojson.jobs()."""
    return job['read'] if job['read']['total_ios'] >= job['write']['total_ios'] else job['write']


def read_fio(path, bs):
    """One fio json(+) file of a point: the metrics above (without req_kib)."""
    doc = fiojson.load(path)
    d = main_direction(fiojson.jobs(doc)[0])
    ios, ms = d['total_ios'], d['runtime_ms']
    if not ms:
        raise ValueError(f'{path}: fio reports a runtime of 0 ms')
    nus = lambda ns: None if ns is None else ns / 1000.0  # noqa: E731
    return {'ios': ios, 'window_ms': ms,
            'iops': ios * 1000.0 / ms,
            'bw_mib': ios * bs * 1000.0 / ms / 1048576.0,
            'ns_per_io': ms * 1e6 / ios if ios else None,
            'lat_mean_us': nus(d['lat_mean_ns']), 'lat_p50_us': nus(d['lat_p50_ns']),
            'lat_p99_us': nus(d['lat_p99_ns']), 'lat_p999_us': nus(d['lat_p999_ns'])}


def request_kib(outdir, point):
    """Mean size of the requests the disk completed during a point (KiB),
    from its block stat before and after, or None."""
    try:
        with open(os.path.join(outdir, point + '.blockstat0')) as f0, \
                open(os.path.join(outdir, point + '.blockstat')) as f1:
            a = [int(x) for x in f0.read().split()]
            b = [int(x) for x in f1.read().split()]
    except FileNotFoundError:
        return None
    ios = (b[0] - a[0]) + (b[2] - a[2])
    sectors = (b[1] - a[1]) + (b[3] - a[3])
    return sectors / 2.0 / ios if ios > 0 else None


def read_slabinfo(path):
    """The sg pool caches (sgpool-N, sgring-N) of a /proc/slabinfo copy:
    {name: {'active': n, 'total': n, 'objsize': B, 'per_slab': n, 'slabs': n}}."""
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if p and re.match(r'sg(pool|ring)-\d+$', p[0]):
                out[p[0]] = {'active': int(p[1]), 'total': int(p[2]), 'objsize': int(p[3]),
                             'per_slab': int(p[4]), 'slabs': int(p[14])}
    return out


def read_json(path):
    with open(path) as f:
        return json.load(f)


def read_kallsyms(path):
    """/proc/kallsyms (or kallsyms.gz) -> {address: [names]}."""
    out = {}
    with open_data(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3:
                out.setdefault(int(p[0], 16), []).append(p[2])
    return out


IDLE_NAMES = ('__cpuidle_text_start', 'native_safe_halt', 'default_idle', 'arch_cpu_idle',
              'cpu_idle_poll', 'default_idle_call', 'do_idle', 'amd_e400_idle', 'mwait_idle')


def idle_aliases(kallsyms):
    """The names that share an address with an idle-loop symbol: perf shows
    whichever name it picks (6.1's __sched_text_end is the address of
    __cpuidle_text_start and native_safe_halt)."""
    names = set()
    for syms in kallsyms.values():
        if any(s in IDLE_NAMES for s in syms):
            names.update(syms)
    return names


def read_perf(path, idle=()):
    """perf report's table with a field separator, as the guest writes it
    ('perf report -F overhead,sym -t "|"': ' 28.81%  |[k] name'; runs
    before job files wrote it without -F, the same columns; runs before
    issue 14 without -t, padded: ' 28.81%  [k] name'):
    [(share %, symbol)], symbols in IDLE renamed 'idle loop (<symbol>)'."""
    top = []
    with open(path) as f:
        for line in f:
            if '|' in line:
                share, sym = line.split('|', 1)
                fields = [share] + sym.split(None, 1)
            else:
                fields = line.split(None, 2)
            if len(fields) != 3 or not fields[0].strip().endswith('%'):
                continue
            sym = fields[2].strip()
            top.append((float(fields[0].strip()[:-1]), f'idle loop ({sym})' if sym in idle else sym))
    return top


def _load_module(name, kdir):
    """Module NAME from KDIR/NAME.py, registered under NAME as an import of
    it from KDIR would be."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(kdir, name + '.py'))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def kunit_parser():
    """The kernel tree's KTAP parser, tools/testing/kunit/kunit_parser.py of
    the unpacked base (build/git; SGB_KUNIT_DIR overrides), with its
    progress lines kept in a buffer instead of stdout."""
    global _kunit_parser
    if _kunit_parser is None:
        top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        kdir = os.environ.get('SGB_KUNIT_DIR', os.path.join(top, 'build', 'git', 'tools', 'testing', 'kunit'))
        if not os.path.exists(os.path.join(kdir, 'kunit_parser.py')):
            sys.exit(f'{kdir}/kunit_parser.py is missing: the bench reads its guests\' KTAP with the '
                     "kernel tree's parser; unpack the base with 'make base' (common/tree.sh base)")
        kunit_printer = _load_module('kunit_printer', kdir)   # kunit_parser imports it
        kp = _load_module('kunit_parser', kdir)
        kunit_printer.stdout._output = io.StringIO()
        _kunit_parser = kp
    return _kunit_parser


_kunit_parser = None


def read_steps(path):
    """The bench guest's results.ktap (bench/guest.sh: one test per step),
    parsed by the kernel's kunit_parser.py: {step: 'pass'|'fail'|'skip'|
    'crashed'} of the steps it reports, the number of steps the plan
    promised that it does not report (the guest stopped before them), and
    the parser's error count."""
    kp = kunit_parser()
    with open(path) as f:
        test = kp.parse_run_tests(f.readlines())
    names = {kp.TestStatus.SUCCESS: 'pass', kp.TestStatus.FAILURE: 'fail',
             kp.TestStatus.SKIPPED: 'skip'}
    steps = {t.name: names.get(t.status, 'crashed') for t in test.subtests if t.name}
    return steps, sum(1 for t in test.subtests if not t.name), test.counts.errors


# ------------------------------------------------------------ the report's other readers

def perf_bench_memcpy(path):
    """'perf bench mem memcpy -f all' output: {function: MiB/s} (perf prints
    binary GB, i.e. GiB/s)."""
    out, fn = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"# function '([^']+)'", line)
            if m:
                fn = m.group(1)
                continue
            m = re.match(r'\s*([0-9.]+) ([KMG])B/sec', line)
            if m and fn:
                out[fn] = float(m.group(1)) * {'K': 1 / 1024.0, 'M': 1.0, 'G': 1024.0}[m.group(2)]
                fn = None
    return out


def kernel_memcpy(outdir):
    """The perf bench name of the memcpy() the guest kernel patches in, from
    the CPU flags the boot saved; None if unknown."""
    try:
        with open(os.path.join(outdir, 'ceil-cpuflags.txt')) as f:
            flags = f.read().split()
    except FileNotFoundError:
        return None
    if 'erms' in flags:
        return 'x86-64-movsb'
    return 'x86-64-movsq' if 'rep_good' in flags else 'x86-64-unrolled'


def lat_bins(path):
    """fio json+ latency histogram of the main direction: sorted
    [(ns, count)], of the total latency (lat) where fio ran with
    --lat_percentiles=1, else of the completion latency (clat)."""
    job = fiojson.load(path)['jobs'][0]
    d = job['read'] if job['read']['total_ios'] >= job['write']['total_ios'] else job['write']
    kind = 'lat' if d.get('lat_ns', {}).get('bins') else 'clat'
    return kind, sorted((int(k), v) for k, v in d.get(kind + '_ns', {}).get('bins', {}).items())


def ceil_bw(path, point):
    """MiB/s of a ceiling point from completed I/Os."""
    return read_fio(path, bs_bytes(split_point(point)[1]))['bw_mib']
