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
    ('lat_mean_us', 'latency mean us', 'lower'),
    ('lat_p50_us', 'latency p50 us', 'lower'),
    ('lat_p99_us', 'latency p99 us', 'lower'),
    ('lat_p999_us', 'latency p99.9 us', 'lower'),
    ('cpu_ns_per_io', 'guest CPU ns per I/O', 'lower'),
    ('req_kib', 'KiB per request at the disk', 'higher'),
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


def request_kib(outdir, point):
    """Mean size of the requests the disk completed during a point (KiB),
    from its block stat before and after: shows whether large I/Os reach
    the driver whole or split."""
    try:
        with open(os.path.join(outdir, point + '.blockstat0')) as f0, \
                open(os.path.join(outdir, point + '.blockstat')) as f1:
            a = [int(x) for x in f0.read().split()]
            b = [int(x) for x in f1.read().split()]
    except (OSError, ValueError):
        return None
    ios = (b[0] - a[0]) + (b[2] - a[2])
    sectors = (b[1] - a[1]) + (b[3] - a[3])
    return sectors / 2.0 / ios if ios > 0 else None


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


def kernel_memcpy(rdirs):
    """The perf bench name of the memcpy() the guest kernel patches in, from
    the CPU flags the first boot saved; None if unknown."""
    for rdir in rdirs:
        try:
            with open(os.path.join(rdir, 'share', 'out', 'ceil-cpuflags.txt')) as f:
                flags = f.read().split()
        except OSError:
            continue
        if 'erms' in flags:
            return 'x86-64-movsb'
        return 'x86-64-movsq' if 'rep_good' in flags else 'x86-64-unrolled'
    return None


def lat_bins(path):
    """fio json+ latency histogram of the main direction: sorted
    [(ns, count)], of the total latency (lat) where fio ran with
    --lat_percentiles=1, else of the completion latency (clat)."""
    job = fiojson.load(path)['jobs'][0]
    d = job['read'] if job['read']['io_bytes'] >= job['write']['io_bytes'] else job['write']
    kind = 'lat' if d.get('lat_ns', {}).get('bins') else 'clat'
    return kind, sorted((int(k), v) for k, v in d.get(kind + '_ns', {}).get('bins', {}).items())


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
    nus = lambda ns: None if ns is None else ns / 1000.0  # noqa: E731
    s = {'iops': d['iops'], 'bw_mib': d['bw_bytes'] / 1048576.0,
         'lat_mean_us': us(d['lat_mean_ns']), 'lat_p50_us': nus(d['lat_p50_ns']),
         'lat_p99_us': nus(d['lat_p99_ns']), 'lat_p999_us': nus(d['lat_p999_ns'])}
    share = busy_share(outdir, point)
    s['cpu_ns_per_io'] = share * run_cpus(rdir) * 1e9 / d['iops'] if share is not None and d['iops'] else None
    s['req_kib'] = request_kib(outdir, point)
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
    return groups, top


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
        qemu_devs = [d for d in self.devices if m['device_' + d][0].startswith('qemu')]
        on = 'scsi_debug and QEMU disks' if qemu_devs else 'scsi_debug'
        L += [f'# sgbench A/B report: sg_ring vs sg_table on {on}', '']
        L.append(f"Run `{m['run_id'][0]}`: mode **{m['mode'][0]}**, engine {m['engine'][0]}, "
                 f"{m['runtime'][0]} guest time per point after {m['ramp'][0]} ramp, "
                 f"{reps} repeats, base {m['base'][0]}, {m['qemu'][0]}, host CPU {m['host_cpu'][0]}.")
        L.append('')
        for d in self.devices:
            L.append(f"- device `{d}`: {m['device_' + d][0]}")
        L.append('')
        if qemu_devs and m['mode'][0] == 'icount':
            L += [f"The QEMU disks ({', '.join(qemu_devs)}) complete in host time, not guest "
                  'instructions: on them icount mode is not deterministic (the guest runs with '
                  'idle=poll so that it does not sleep through a completion), and the two kernels '
                  'boot side by side so that host load hits both alike; their intervals are '
                  'correspondingly wider.', '']
        wall = os.path.join(self.run, 'wall.txt')
        if os.path.exists(wall):
            for line in open(wall):
                w = line.split()
                w = dict(zip(w[::2], w[1::2]))
                L.append(f"Wall time: {w['boots']} boots, {w['par']} at once on {w['host_cpus']} host CPUs: "
                         f"fio part {w['fio_s']} s, total {w['total_s']} s"
                         + (' (with the decision evidence).' if w.get('decision') == '1' else '.'))
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
        for d in self.devices:
            pts = self.cdf_points(d)
            if pts:
                L += [f'Latency CDF, device `{d}`, {", ".join(pts)} (fio json+ histogram '
                      'bins of the total latency where the run has them, first repeat; with `delay=0` an I/O can '
                      'complete inside the submitting system call, so fio\'s completion '
                      'latency alone would leave the driver out):', '',
                      f'![latency CDF {d}](plots/lat-cdf-{d}.png)', '']

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
              '--kallsyms <kallsyms>` re-opens them.  The two kernels are different builds, so '
              'their profiles are compared by symbol name below, each resolved with its own '
              'kallsyms (`perf diff` resolves both files with one symbol table).  In icount '
              'mode the sampling clock counts instructions, so a strictly periodic I/O loop '
              'can alias with the sampling period: read shares of a few % as indications, '
              'and the fio and microbenchmark figures as the measurement.', '']
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
                    L.append(f'{v} top symbols: ' + ', '.join(f'{s} {pc:.1f} %' for pc, s in got[v][1][:8]))
                    L.append('')
            for o in self.others:
                if o in got and self.control in got:
                    L += self.perf_compare(got[self.control][1], got[o][1], o)

    def perf_compare(self, a, b, other, n=12):
        """The symbols whose share differs most between two profiles."""
        pa, pb = dict((sym, pc) for pc, sym in a), dict((sym, pc) for pc, sym in b)
        syms = sorted(set(pa) | set(pb), key=lambda x: (-abs(pb.get(x, 0) - pa.get(x, 0)), x))[:n]
        L = [f'Largest differences, {other} against {self.control} (share of samples; '
             'symbols under the 0.3 % cut count as 0):', '',
             f'| symbol | {self.control} | {other} | difference |', '|---|---|---|---|']
        for x in syms:
            L.append(f'| {x} | {pa.get(x, 0):.2f} % | {pb.get(x, 0):.2f} % | {pb.get(x, 0) - pa.get(x, 0):+.2f} |')
        L.append('')
        return L

    def ceilings(self):
        """null_blk and memory copy ceilings from the fake boots."""
        ceils = self.meta.get('ceil', [])
        if not ceils or 'fake' not in self.devices:
            return
        L = self.lines

        def bw(path):
            job = fiojson.jobs(fiojson.load(path))[0]
            d = job['read'] if job['read']['io_bytes'] >= job['write']['io_bytes'] else job['write']
            return d['bw_bytes'] / 1048576.0

        def med(xs):
            return statistics.median(xs) if xs else None
        got = {}
        for v in self.variants:
            for rdir in self.rdirs.get(('fake', v), []):
                out = os.path.join(rdir, 'share', 'out')
                for c in ceils:
                    path = os.path.join(out, f'ceil-null-{c}.json')
                    if os.path.exists(path):
                        got.setdefault((v, 'null-' + c), []).append(bw(path))
                path = os.path.join(out, 'ceil-memcpy.txt')
                if os.path.exists(path):
                    for fn, mib in perf_bench_memcpy(path).items():
                        got.setdefault((v, 'memcpy'), {})[fn] = mib
        if not got:
            return
        L += ['## Ceilings: the stack without SCSI, and without the copy', '',
              'MiB/s, median of the fake boots.  null_blk (`queue_mode=2 irqmode=0`, requests '
              'up to 4 MiB) is the block layer with no SCSI and no scatterlist at all, so '
              'the two kernels should match there; `fake` is scsi_debug with `fake_rw=1` '
              '(SCSI and the sg code, no data copy); `real` also copies the data.  memcpy is '
              '`perf bench mem memcpy -s 1MB -f all` in the guest (MiB/s per implementation; '
              'the kernel\'s own memcpy() is the one its CPU flags select): the rate '
              'scsi_debug\'s data copy cannot beat.  In icount mode each iteration of a '
              '`rep movs` counts as one instruction, so the copy is far costlier against '
              'the rest of the path than on hardware.  First repeat only.', '']
        L.append('| point | kernel | null_blk | fake (share of null_blk) | real (share of null_blk) |')
        L.append('|---|---|---|---|---|')
        for c in ceils:
            for v in self.variants:
                nb = med(got.get((v, 'null-' + c), []))
                cells = [fmt(nb)]
                for d in ('fake', 'real'):
                    x = med(self.values(d, v, c, 'bw_mib')) if d in self.devices else None
                    cells.append(f'{fmt(x)} ({100 * x / nb:.0f} %)' if x and nb else
                                 ('n/a (point not in the matrix)' if x is None else fmt(x)))
                L.append(f'| {c} | {v} | ' + ' | '.join(cells) + ' |')
        L.append('')
        for v in self.variants:
            fns = got.get((v, 'memcpy'), {})
            # the kernel's memcpy(): rep movsb with ERMS, rep movsq with
            # REP_GOOD, else the unrolled loop (arch/x86/lib/memcpy_64.S)
            kfn = kernel_memcpy(self.rdirs.get(('fake', v), []))
            mc = fns.get(kfn) if kfn else None
            if mc:
                best = max((med(self.values('real', v, p, 'bw_mib')) or 0, p) for p in self.points) \
                    if 'real' in self.devices else (0, None)
                line = f'- {v}: memcpy ' + ', '.join(f'{fn} {fmt(x)}' for fn, x in sorted(fns.items())) + \
                    ' MiB/s'
                if best[1]:
                    line += (f'; best `real` point {best[1]} {fmt(best[0])} MiB/s = '
                             f'{100 * best[0] / mc:.0f} % of the kernel\'s memcpy ({kfn}, '
                             'from the guest\'s CPU flags)')
                L.append(line)
        L.append('')

    def requests(self):
        """Whether the large I/Os reached the disk whole."""
        L = self.lines
        rows = []
        for d in self.devices:
            for p in self.points:
                bs = p.split('-')[1]
                want = int(bs[:-1]) * (1024 if bs[-1] in 'mM' else 1)
                for v in self.variants:
                    xs = self.values(d, v, p, 'req_kib')
                    if xs:
                        rows.append((d, p, v, want, min(xs)))
        if not rows:
            return
        split = [r for r in rows if r[4] < r[3] * 0.999]
        L += ['## Requests at the disk', '',
              'Mean request size the disk completed during each point (from '
              '`/sys/block/<disk>/stat` before and after), against the fio block size: '
              + (f'**{len(split)} of {len(rows)} point runs had smaller requests** '
                 '(split on the way down):' if split else
                 f'all {len(rows)} point runs reached the disk whole (smallest mean per '
                 'point equals the block size).'), '']
        if split:
            L += ['| device | point | kernel | KiB per request |', '|---|---|---|---|']
            L += [f'| {d} | {p} | {v} | {x:.1f} |' for d, p, v, _, x in split]
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
              '`/proc/slabinfo` during an extra, unmeasured run of the point, polled; the '
              'snapshot with the most sg pool objects in use (active objects x object '
              'size, mempool reserves included).', '', '| device | point | kernel | objects |', '|---|---|---|---|']
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
        for d in self.devices:
            pts = self.cdf_points(d)
            if not pts:
                continue
            fig, axes = plt.subplots(1, len(pts), figsize=(3.2 * len(pts), 3), squeeze=False)
            for ax, p in zip(axes[0], pts):
                for v in self.variants:
                    kind, bins = lat_bins(os.path.join(self.rdirs[(d, v)][0], 'share', 'out', p + '.json'))
                    total = sum(c for _, c in bins)
                    if not total:
                        continue
                    xs, ys, acc = [], [], 0
                    for ns, c in bins:
                        acc += c
                        xs.append(ns / 1000.0)
                        ys.append(acc / total)
                    ax.step(xs, ys, where='post', label=v)
                ax.set_xscale('log')
                ax.set_title(p, fontsize=8)
                ax.set_xlabel('latency (submission to completion), us' if kind == 'lat' else
                              'completion latency (clat: no lat percentiles in this run), us',
                              fontsize=7)
                ax.tick_params(labelsize=7)
            axes[0][0].set_ylabel('fraction of I/Os', fontsize=7)
            axes[0][-1].legend(fontsize=7)
            fig.tight_layout()
            fig.savefig(os.path.join(self.run, 'plots', f'lat-cdf-{d}.png'), dpi=90,
                        metadata={'Software': None})
            plt.close(fig)

    def cdf_points(self, d):
        """The points of a device whose latency CDF is plotted: queue depth 1
        of the first random direction, every block size, where every variant
        has a first repeat."""
        if any((d, v) not in self.rdirs for v in self.variants):
            return []
        qd1 = [p for p in self.points if p.endswith('-qd1')]
        rws = [p.split('-')[0] for p in qd1]
        rw = next((r for r in ('randread', 'read', 'randwrite', 'write') if r in rws), None)
        return [p for p in qd1 if p.split('-')[0] == rw]

    def write(self):
        self.header()
        self.headline()
        self.profiles()
        self.microbench()
        self.ceilings()
        self.requests()
        self.memory()
        self.details()
        self.lines.append('Raw data: `raw/<device>/<variant>/r<N>/share/out/<point>.json` (fio json+), '
                          '`.stat0/.stat1` (/proc/stat), `.blockstat0/.blockstat` (disk stat before/after), '
                          '`ceil-*.json` (ceilings), guest logs '
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


if __name__ == "__main__":
    main()
