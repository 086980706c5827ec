#!/usr/bin/python3
"""report.py RUNDIR - write RUNDIR/REPORT.md, RUNDIR/summary.json and the
plots in RUNDIR/plots/ from the raw files of a bench run alone (same raw
files, same bytes out).

Method: per device, point and variant, the median of the repeats and a 95 %
Student-t confidence interval of the mean; the difference of each variant
against the control (sg_table) in % of the control's mean, with a 95 %
Welch interval.  A difference is called significant only where that
interval excludes zero and each variant has at least 3 repeats.  In the
deterministic mode (icount) guest time counts instructions, so repeats
differ only through fio's random seed (varied per repeat) and the intervals
are narrow; a significant difference there is a difference in instruction
path length, not in hardware speed (no caches are modelled).
"""
import glob
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fiojson  # noqa: E402

try:
    from scipy import stats
except ImportError:  # pragma: no cover - make deps installs python3-scipy
    sys.exit('report.py: python3-scipy is missing: run make deps')

CONTROL = 'sg_table'
METRICS = [  # key, label, better
    ('iops', 'IOPS', 'higher'),
    ('bw_mib', 'MiB/s', 'higher'),
    ('clat_mean_us', 'clat mean us', 'lower'),
    ('clat_p50_us', 'clat p50 us', 'lower'),
    ('clat_p99_us', 'clat p99 us', 'lower'),
    ('clat_p999_us', 'clat p99.9 us', 'lower'),
    ('cpu_ns_per_io', 'guest CPU ns per I/O', 'lower'),
]
# perf symbol groups: where the scatter/gather code spends its time
GROUPS = [
    ('allocate', re.compile(r'sg_alloc|sg_pool_alloc|sg_ring_alloc|alloc_ring|scsi_alloc_sgtables|mempool_alloc|sg_init_table|sg_ring_init')),
    ('free', re.compile(r'sg_free|sg_pool_free|free_ring|scsi_free_sgtables|mempool_free')),
    ('map', re.compile(r'blk_rq_map|blk_bvec_map_sg|blk_next_sg|dma_map_sg|dma_unmap_sg|dma_direct_map_sg|dma_direct_unmap_sg')),
    ('iterate-copy', re.compile(r'sg_copy|sg_pcopy|sg_miter|sg_ring_miter|sg_ring_copy|sg_ring_pcopy|sg_next|sg_nents|sg_ring_num|sg_zero_buffer|sg_ring_zero|sg_page_iter|sg_ring_xfer')),
    ('data copy (memcpy)', re.compile(r'^(memcpy|memcpy_orig|__memcpy|memmove|copy_user|rep_movs)')),
]


def read_meta(run):
    meta = {}
    with open(os.path.join(run, 'meta.txt')) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition(' ')
            meta.setdefault(k, []).append(v)
    return meta


def busy_share(outdir, point):
    """Share of guest CPU time (all CPUs) not idle or in iowait during a
    point, from /proc/stat before and after it."""
    try:
        with open(os.path.join(outdir, point + '.stat0')) as f0, \
                open(os.path.join(outdir, point + '.stat1')) as f1:
            a = [int(x) for x in f0.read().split()[1:]]
            b = [int(x) for x in f1.read().split()[1:]]
    except (OSError, ValueError):
        return None
    d = [y - x for x, y in zip(a, b)]
    total = sum(d)
    if total <= 0:
        return None
    return (total - d[3] - (d[4] if len(d) > 4 else 0)) / total


def run_cpus(rdir):
    with open(os.path.join(rdir, 'run.info')) as f:
        for line in f:
            if line.startswith('cpus '):
                return int(line.split()[1])
    return 1


def sample(rdir, point):
    """One repeat of one point.  Guest CPU ns per I/O is the busy share of
    the guest's CPUs times their number over the IOPS: what one I/O costs in
    guest CPU time (instructions, in icount mode)."""
    outdir = os.path.join(rdir, 'share', 'out')
    doc = fiojson.load(os.path.join(outdir, point + '.json'))
    job = fiojson.jobs(doc)[0]
    d = job['read'] if job['read']['io_bytes'] >= job['write']['io_bytes'] else job['write']
    us = lambda ns: (ns or 0) / 1000.0  # noqa: E731
    s = {'iops': d['iops'], 'bw_mib': d['bw_bytes'] / 1048576.0,
         'clat_mean_us': us(d['clat_mean_ns']), 'clat_p50_us': us(d['clat_p50_ns']),
         'clat_p99_us': us(d['clat_p99_ns']), 'clat_p999_us': us(d['clat_p999_ns'])}
    share = busy_share(outdir, point)
    s['cpu_ns_per_io'] = share * run_cpus(rdir) * 1e9 / d['iops'] if share is not None and d['iops'] else None
    return s


def completed(run, device, variant):
    for rdir in sorted(glob.glob(os.path.join(run, 'raw', device, variant, 'r*'))):
        try:
            with open(os.path.join(rdir, 'RESULT')) as f:
                if f.read().strip() == 'pass':
                    yield rdir
        except OSError:
            continue


def ci_mean(xs):
    n = len(xs)
    m = statistics.fmean(xs)
    if n < 2:
        return m, float('nan')
    return m, stats.t.ppf(0.975, n - 1) * statistics.stdev(xs) / math.sqrt(n)


def welch(a, b):
    """mean(b) - mean(a) and the half-width of its 95 % interval."""
    na, nb = len(a), len(b)
    diff = statistics.fmean(b) - statistics.fmean(a)
    if na < 2 or nb < 2:
        return diff, float('nan')
    va, vb = statistics.variance(a) / na, statistics.variance(b) / nb
    if va + vb == 0:
        return diff, 0.0
    dof = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    return diff, stats.t.ppf(0.975, dof) * math.sqrt(va + vb)


def fmt(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return 'n/a'
    return f'{x:.4g}' if abs(x) < 1000 else f'{x:.0f}'


def perf_groups(path):
    """Share of samples (%) per symbol group in a 'perf report --sort sym' text."""
    groups = {name: 0.0 for name, _ in GROUPS}
    top = []
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*([0-9.]+)%\s+\[[k.]\]\s+(\S+)', line)
            if not m:
                continue
            pct, sym = float(m.group(1)), m.group(2)
            top.append((pct, sym))
            for name, rx in GROUPS:
                if rx.search(sym):
                    groups[name] += pct
                    break
    return groups, top[:8]


def slab_objs(path):
    """Active objects of the sg pools (sgpool-N, and sgring-N where present)."""
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts and (parts[0].startswith('sgpool-') or parts[0].startswith('sgring-')):
                out[parts[0]] = (int(parts[1]), int(parts[3]))  # active, objsize
    return out


class Report:
    def __init__(self, run):
        self.run = run
        self.meta = read_meta(run)
        self.variants = self.meta['variants'][0].split()
        self.devices = self.meta['devices'][0].split()
        self.points = self.meta.get('point', [])
        self.control = CONTROL if CONTROL in self.variants else self.variants[0]
        self.others = [v for v in self.variants if v != self.control]
        self.data = {}
        self.rdirs = {}
        for d in self.devices:
            for v in self.variants:
                for rdir in completed(run, d, v):
                    self.rdirs.setdefault((d, v), []).append(rdir)
                    out = os.path.join(rdir, 'share', 'out')
                    for p in self.points:
                        path = os.path.join(out, p + '.json')
                        if not os.path.exists(path):
                            sys.exit(f'report.py: {path} is missing: the boot is marked '
                                     'complete but has no data for this point')
                        s = sample(rdir, p)
                        self.data.setdefault((d, v, p), []).append(s)
        if not self.data:
            sys.exit(f'report.py: {run} has no completed boot (no raw/<device>/<variant>/r*/RESULT = pass)')
        self.summary = {}
        self.lines = []

    def values(self, d, v, p, key):
        return [s[key] for s in self.data.get((d, v, p), []) if s.get(key) is not None]

    def diff(self, d, p, key, other):
        a, b = self.values(d, self.control, p, key), self.values(d, other, p, key)
        if not a or not b:
            return None
        diff, half = welch(a, b)
        base = statistics.fmean(a)
        if base == 0:
            return None
        sig = not math.isnan(half) and abs(diff) > half and len(a) >= 3 and len(b) >= 3
        return 100 * diff / base, 100 * half / base if not math.isnan(half) else half, sig

    def header(self):
        m = self.meta
        reps = int(m['repeats'][0])
        complete = all(len(self.rdirs.get((d, v), [])) == reps for d in self.devices for v in self.variants)
        L = self.lines
        L += ['# sgbench A/B report: sg_ring vs sg_table on scsi_debug', '']
        L.append(f"Run `{m['run_id'][0]}`: mode **{m['mode'][0]}**, engine {m['engine'][0]}, "
                 f"{m['runtime'][0]} guest time per point after {m['ramp'][0]} ramp, "
                 f"{reps} repeats, base {m['base'][0]}, {m['qemu'][0]}, host CPU {m['host_cpu'][0]}.")
        L.append('')
        for d in self.devices:
            L.append(f"- device `{d}`: {m['device_' + d][0]}")
        L.append('')
        L.append('Status: ' + ('complete.' if complete else
                               '**INCOMPLETE**: some boots are missing; the figures cover completed boots only.'))
        if os.path.isdir(os.path.join(self.run, 'raw', 'decision')):
            L += ['', 'What each API costs the people who write and review the code (churn, complexity, '
                  'API surface, conversion cost, memory per command): [DECISION.md](DECISION.md).']
        L += ['', __doc__.split('\n\n', 1)[1].strip(), '']

    def headline(self):
        L = self.lines
        L += ['## Summary: IOPS difference per point', '']
        for o in self.others:
            L.append(f'{o} against {self.control}, IOPS, % of the control (95 % interval); '
                     '**bold** where significant.')
            L.append('')
            L.append('| point | ' + ' | '.join(self.devices) + ' |')
            L.append('|---|' + '---|' * len(self.devices))
            for p in self.points:
                row = [p]
                for d in self.devices:
                    r = self.diff(d, p, 'iops', o)
                    if r is None:
                        row.append('n/a')
                        continue
                    txt = f'{r[0]:+.2f} ± {fmt(r[1])}'
                    row.append(f'**{txt}**' if r[2] else txt)
                L.append('| ' + ' | '.join(row) + ' |')
            L.append('')
            L.append(f'![IOPS difference](plots/iops-diff-{o}.png)')
            L.append('')

    def details(self):
        L = self.lines
        for d in self.devices:
            L += [f'## Device `{d}`: every metric', '']
            for p in self.points:
                L += [f'### {d} {p}', '']
                hdr = '| metric | ' + ' | '.join(f'{v} median (mean ± 95 % CI, n)' for v in self.variants)
                hdr += ''.join(f' | {o} vs {self.control}' for o in self.others) + ' |'
                L += [hdr, '|' + '---|' * (1 + len(self.variants) + len(self.others))]
                for key, label, better in METRICS:
                    row = [label]
                    for v in self.variants:
                        xs = self.values(d, v, p, key)
                        if not xs:
                            row.append('no data')
                            continue
                        m, half = ci_mean(xs)
                        row.append(f'{fmt(statistics.median(xs))} ({fmt(m)} ± {fmt(half)}, {len(xs)})')
                        self.summary.setdefault(d, {}).setdefault(p, {}).setdefault(v, {})[key] = {
                            'median': statistics.median(xs), 'mean': m, 'ci95': half, 'n': len(xs)}
                    for o in self.others:
                        r = self.diff(d, p, key, o)
                        if r is None:
                            row.append('n/a')
                            continue
                        word = ''
                        if r[2]:
                            good = (r[0] > 0) == (better == 'higher')
                            word = ' **significant** (' + ('better' if good else 'worse') + ')'
                        row.append(f'{r[0]:+.2f} % ± {fmt(r[1])} %{word}')
                    L.append('| ' + ' | '.join(row) + ' |')
                L.append('')

    def profiles(self):
        L = self.lines
        perfs = self.meta.get('perf', [])
        if not perfs:
            return
        L += ['## Where the time goes (perf in the guest)', '',
              '`perf record -a -g -e cpu-clock` during one extra run of the point, first '
              'completed repeat; share of all samples per symbol group (the groups are '
              'regular expressions in bench/report.py). perf.data and the guest\'s '
              'kallsyms are kept beside the fio files: `perf report -i <point>.perf.data '
              '--kallsyms <kallsyms>` re-opens them; `perf diff` of the two compares them.', '']
        for spec in perfs:
            d, _, p = spec.partition(':')
            L += [f'### {d} {p}', '']
            L.append('| group | ' + ' | '.join(self.variants) + ' |')
            L.append('|---|' + '---|' * len(self.variants))
            got = {}
            for v in self.variants:
                rd = self.rdirs.get((d, v))
                path = os.path.join(rd[0], 'share', 'out', p + '.perf.txt') if rd else None
                if path and os.path.exists(path):
                    got[v] = perf_groups(path)
            for name, _ in GROUPS:
                L.append(f'| {name} | ' + ' | '.join(
                    f'{got[v][0][name]:.1f} %' if v in got else 'n/a' for v in self.variants) + ' |')
            L.append('')
            for v in self.variants:
                if v in got:
                    L.append(f'{v} top symbols: ' + ', '.join(f'{s} {pc:.1f} %' for pc, s in got[v][1]))
                    L.append('')

    def memory(self):
        L = self.lines
        rows = []
        for d in self.devices:
            for v in self.variants:
                rd = self.rdirs.get((d, v))
                if not rd:
                    continue
                for path in sorted(glob.glob(os.path.join(rd[0], 'share', 'out', '*.slabinfo'))):
                    objs = slab_objs(path)
                    p = os.path.basename(path)[:-len('.slabinfo')]
                    cells = ', '.join(f'{k} {a} x {sz} B' for k, (a, sz) in sorted(objs.items(), key=lambda kv: kv[1][1]))
                    rows.append(f'| {d} | {p} | {v} | {cells} |')
        if not rows:
            return
        L += ['## sg pool slab objects while 4M requests run', '',
              '`/proc/slabinfo` 0.2 s into the point (active objects x object size, mempool '
              'reserves included).', '', '| device | point | kernel | objects |', '|---|---|---|---|']
        L += rows
        L.append('')

    def microbench(self):
        L = self.lines
        res = {}
        for v in self.variants:
            rd = self.rdirs.get((self.devices[0], v))
            if not rd:
                continue
            path = os.path.join(rd[0], 'share', 'out', 'microbench.json')
            if os.path.exists(path):
                with open(path) as f:
                    res[v] = json.load(f)
        if not res:
            L += ['## The API alone', '', 'No microbenchmark results in this run '
                  '(the kernels were built without the sg_api_bench module).', '']
            return
        L += ['## The API alone: in-kernel microbenchmark (sg_api_bench)', '',
              'Median guest ns per operation (instructions in icount mode), first boot of each '
              'kernel; p10-p90 in brackets.', '']
        keys = []
        for v in res:
            for pt in res[v].get('points', []):
                k = (pt['op'], pt['nents'])
                if k not in keys:
                    keys.append(k)
        L.append('| op | segments | ' + ' | '.join(res) + ' |')
        L.append('|---|---|' + '---|' * len(res))
        for op, n in keys:
            cells = []
            for v in res:
                pt = [x for x in res[v].get('points', []) if x['op'] == op and x['nents'] == n]
                cells.append(f"{pt[0]['median_ns']} [{pt[0]['p10_ns']}-{pt[0]['p90_ns']}]" if pt else 'n/a')
            L.append(f'| {op} | {n} | ' + ' | '.join(cells) + ' |')
        L.append('')

    def plots(self):
        import matplotlib
        matplotlib.use('Agg')
        matplotlib.rcParams['svg.hashsalt'] = 'sgbench'
        import matplotlib.pyplot as plt
        os.makedirs(os.path.join(self.run, 'plots'), exist_ok=True)
        for o in self.others:
            fig, ax = plt.subplots(figsize=(10, 0.28 * len(self.points) * len(self.devices) + 1.5))
            labels, vals, errs, colors = [], [], [], []
            for d in self.devices:
                for p in self.points:
                    r = self.diff(d, p, 'iops', o)
                    labels.append(f'{d} {p}')
                    vals.append(r[0] if r else 0)
                    errs.append(r[1] if r and not math.isnan(r[1]) else 0)
                    colors.append('tab:red' if r and r[2] and r[0] < 0 else
                                  'tab:green' if r and r[2] else 'tab:gray')
            y = range(len(labels))
            ax.barh(list(y), vals, xerr=errs, color=colors, capsize=2)
            ax.set_yticks(list(y))
            ax.set_yticklabels(labels, fontsize=7)
            ax.invert_yaxis()
            ax.axvline(0, color='black', linewidth=0.8)
            ax.set_xlabel(f'IOPS, {o} vs {self.control}, % (95 % interval); colour = significant')
            fig.tight_layout()
            fig.savefig(os.path.join(self.run, 'plots', f'iops-diff-{o}.png'), dpi=90,
                        metadata={'Software': None})
            plt.close(fig)

    def write(self):
        self.header()
        self.headline()
        self.profiles()
        self.microbench()
        self.memory()
        self.details()
        self.lines.append('Raw data: `raw/<device>/<variant>/r<N>/share/out/<point>.json` (fio json+), '
                          '`.stat0/.stat1` (/proc/stat), `.blockstat`, guest logs '
                          '(`console.log`, `share/out/dmesg.txt`), metadata (`run.info`, `meta.txt`).')
        self.plots()
        with open(os.path.join(self.run, 'REPORT.md'), 'w') as f:
            f.write('\n'.join(self.lines) + '\n')
        with open(os.path.join(self.run, 'summary.json'), 'w') as f:
            json.dump(self.summary, f, indent=1, sort_keys=True)
            f.write('\n')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    run = sys.argv[1].rstrip('/')
    if not os.path.exists(os.path.join(run, 'meta.txt')):
        sys.exit(f'report.py: {run} is not a bench run (no meta.txt); '
                 'give a results/<run-id> directory made by make bench')
    Report(run).write()


main()
