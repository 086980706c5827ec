"""report.py RUNDIR - write RUNDIR/REPORT.md, its long tables in
RUNDIR/REPORT-appendix.md (where the run draws on attribution runs),
RUNDIR/points.csv and the plots in RUNDIR/plots/ from the raw files of a
bench run alone, read through bench/model.py (same raw files, same bytes
out).

The design is paired.  In every repeat both kernels run the same
points in the same shuffled order with the same fio random seed, so each
repeat gives one difference per point: sg_ring's guest ns per completed I/O
(the measured window over the I/Os completed in it) against sg_table's, in
% of sg_table's.  Per point the report gives the mean of those per-repeat
differences with its 95 % t interval, printed no narrower than the
point's quantisation floor (± the larger of the two: the floor is one
I/O over the I/Os completed in the window, plus fio's whole-millisecond
clock over the window), and the point's resolution: the larger of its
floor and the minimum detectable effect of its paired spread (two-sided
5 %, power 80 %).  A difference is significant only where the paired t
test's p value, Holm-adjusted over every point of every device, is below
5 % and the difference exceeds its floor.  A point where both kernels
completed the same I/Os in every repeat is one observation: its repeats
are copies of one run (in icount mode they differ only by fio's clock
and rounding), so it has no interval, no test and no resolution and is
never called significant; nor is a point whose repeats all give the same
difference (a spread within 1e-9 of the ratio it is taken from is float
rounding), which has no spread to test.  A point whose difference and
interval both lie under its floor is "not resolved": the rig cannot tell
the kernels apart there.  Repeats differ by
the seed, by the order of the points (what ran before a point changes the
physical layout of fio's buffers and the slab state) and, on the QEMU
disks, by host time.  In the deterministic mode (icount) guest time counts
instructions (1 instruction = 1 ns): a difference there is one of
instruction path length, not of hardware speed (the guest clock charges
no cache miss; where the run draws on attribution runs, misses under a
stated cache model have a section of their own).
"""
import csv
import math
import os
import re
import statistics
import sys

from bench import attrib_counts
from bench import attrib_evidence
from bench import fiojson
from bench import mdtable
from bench import model
from bench import readers
from bench import stats
from bench import tracefs

try:
    import scipy  # noqa: F401
except ImportError:  # pragma: no cover - make deps installs python3-scipy
    sys.exit('report.py: python3-scipy is missing: run make deps')

# The long tables go to a file of their own beside REPORT.md.
APPENDIX = 'REPORT-appendix.md'
APPENDIX_HEADING = '## The functions behind the instruction differences'
APPENDIX_ANCHOR = mdtable.slug(APPENDIX_HEADING)

METRICS = [  # key, label, better
    ('ns_per_io', 'guest ns per I/O', 'lower'),
    ('iops', 'IOPS', 'higher'),
    ('bw_mib', 'MiB/s (completed I/Os)', 'higher'),
    ('ios', 'I/Os completed in the window', 'higher'),
    ('lat_mean_us', 'latency mean us', 'lower'),
    ('lat_p50_us', 'latency p50 us', 'lower'),
    ('lat_p99_us', 'latency p99 us', 'lower'),
    ('lat_p999_us', 'latency p99.9 us', 'lower'),
    ('req_kib', 'KiB per request at the disk', 'higher'),
]
# perf symbol groups: where the scatter/gather code spends its time
GROUPS = [
    ('idle', re.compile(r'^idle loop')),
    ('allocate', re.compile(r'sg_alloc|sg_pool_alloc|sg_ring_alloc|alloc_ring|scsi_alloc_sgtables|mempool_alloc|sg_init_table|sg_ring_init')),
    ('free', re.compile(r'sg_free|sg_pool_free|free_ring|scsi_free_sgtables|mempool_free')),
    ('map', re.compile(r'blk_rq_map|blk_bvec_map_sg|blk_next_sg|dma_map_sg|dma_unmap_sg|dma_direct_map_sg|dma_direct_unmap_sg')),
    ('iterate-copy', re.compile(r'sg_copy|sg_pcopy|sg_miter|sg_ring_miter|sg_ring_copy|sg_ring_pcopy|sg_next|sg_nents|sg_ring_num|sg_zero_buffer|sg_ring_zero|sg_page_iter|sg_ring_xfer')),
    ('data copy (memcpy)', re.compile(r'^(memcpy|memcpy_orig|__memcpy|memmove|copy_user|rep_movs)')),
]


# ------------------------------------------------------------ number format
# One format everywhere: percentages with two decimals, other figures with
# three significant digits below 1000 and as integers above.

def num(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return 'n/a'
    return f'{x:.3g}' if abs(x) < 1000 else f'{x:.0f}'


def pct(x, sign=True):
    """A percentage as every table prints it: two decimals, signed for a
    difference; an unsigned one (an interval, a resolution) that is not
    zero but rounds to it is '< 0.01 %', so a tiny interval (real 4M: the
    repeats agree to 0.003 %) never reads as the '± 0' of no spread."""
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return 'n/a'
    if not sign and 0 < abs(x) < 0.005:
        return '< 0.01 %'
    return f'{x:+.2f} %' if sign else f'{x:.2f} %'


# The columns of the IOMMU work table: (label, function of
# attrib_counts.IOMMU_CALLS counted by its entries).
IOMMU_COLUMNS = (('commands', 'scsi_queue_rq'), ('IOVA allocations', 'alloc_iova_fast'),
                 ('page-table writes', 'intel_iommu_map_pages'), ('page-table unmaps', 'intel_iommu_unmap_pages'),
                 ('invalidations waited for', 'qi_submit_sync'))


def sfmt(x):
    """An instruction or miss count difference: signed, as attrib.py prints counts."""
    return ('+' if x > 0 else '') + attrib_counts.fmt(x)


def plus_minus(c):
    """A difference with its 95 % interval, floored (stats.Comparison.pm:
    never narrower than the floor).  One observation (stats.Comparison.
    single: one repeat, or the same I/O counts in every repeat on both
    kernels) has no interval and says so; where every repeat gave the same
    difference there is no test (such a point is never called
    significant), and the cell says so too."""
    if c.single:
        return f'{pct(c.mean)}, one observation'
    if c.half == 0:
        return f'{pct(c.mean)} ± {pct(c.pm, False)}, the same in all {c.n} repeats'
    return f'{pct(c.mean)} ± {pct(c.pm, False)}'


def cell(c):
    """One comparison in a table cell: difference ± interval, its
    resolution, and the verdict where it is not 'no difference shown'."""
    if c is None:
        return 'n/a'
    if c.verdict() == 'one observation':
        return f'{plus_minus(c)} (floor {pct(c.floor, False)})'
    if not c.resolved:
        return f'not resolved (floor {pct(c.floor, False)})'
    txt = f'{plus_minus(c)} (res. {pct(c.resolution, False)})'
    return f'**{txt}**' if c.significant else txt


# ------------------------------------------------------------ other readers

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
    return readers.read_fio(path, readers.bs_bytes(readers.split_point(point)[1]))['bw_mib']


def ci_mean(xs):
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float('nan')
    return m, stats.t_quantile(0.975, len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))


class Report:
    def __init__(self, run):
        self.run = run.rstrip('/')
        self.m = model.Run(self.run)
        if not self.m.rows:
            sys.exit(f'report.py: {run} has no completed boot (no raw/<device>/<variant>/r*/RESULT = pass)')
        self.lines = []
        self.appendix = []   # REPORT-appendix.md: the long tables
        self.fam = {o: self.m.family(o) for o in self.m.others}
        self.cls = {o: self.m.classes(o) for o in self.m.others}
        self.ev = (attrib_evidence.Evidence(self.run, self.m.points, self.m.control)
                   if os.path.exists(os.path.join(self.run, attrib_evidence.LINKS)) else None)

    # -- the first screen
    def headline(self):
        m, L = self.m, self.lines
        qemu = [d for d in m.devices if d in model.QEMU_DEVICES]
        on = 'scsi_debug and QEMU disks' if qemu else 'scsi_debug'
        L += [f"# sgbench report: {', '.join(m.others)} against {m.control} on {on}", '']
        L.append(f"Run `{m.meta['run_id'][0]}`, mode **{m.mode}**: guest time "
                 + ('counts instructions (1 instruction = 1 ns)' if m.mode == 'icount' else 'is wall-clock time')
                 + f"; {m.meta['runtime'][0]} per point or longer, {m.repeats} repeat{'s' if m.repeats != 1 else ''}.")
        L += ['', 'Status: ' + ('complete.' if m.complete() else
                                '**INCOMPLETE**: some boots are missing; the figures cover completed '
                                'boots only.'), '']
        L += mdtable.headline(mdtable.devices_of(m, self.ev))
        for o in m.others:
            L += [f'## Answer: {o} against {m.control}, guest time per I/O', '',
                  f'Per device and block size: the mean over the size\'s points (rw x queue depth) of the '
                  f'paired per-repeat differences in guest ns per completed I/O, {o} minus {m.control} in % '
                  f'of {m.control} (negative: {o} is faster), with its 95 % interval (at least the '
                  'quantisation floor) and the resolution (larger of the floor and the minimum detectable '
                  'effect); one observation: the same I/O counts in every repeat on both kernels at each '
                  'of the size\'s points, or one repeat (no interval, no test); **bold**: '
                  'significant (Holm over these rows). Method and per-point figures below.', '',
                  '| device | size | difference per I/O | ns per I/O | resolution | points significant (of) | verdict |',
                  '|---|---|---|---|---|---|---|']
            for (d, s), (c, pts) in self.cls[o].items():
                sig = [p for p, pc in pts if pc.significant]
                signs = sorted({'+' if pc.mean > 0 else '-' for _, pc in pts if pc.significant})
                diff = (plus_minus(c) if c.resolved or c.verdict() == 'one observation' else
                        f'not resolved ({pct(c.mean)})')
                res = f'floor {pct(c.floor, False)}' if c.single else pct(c.resolution, False)
                L.append(f'| {d} | {s} | {"**" + diff + "**" if c.significant else diff} | '
                         f'{c.mean_abs:+.0f} of {num(statistics.fmean(c.base))} | {res} | '
                         f'{len(sig)} of {len(pts)}' + (f' ({"/".join(signs)})' if signs else '')
                         + f' | {c.verdict()} |')
            L.append('')
            fam = self.fam[o].values()
            k = stats.resolving(fam)
            L += [f'{k["resolve"]} of {len(fam)} points resolve a difference of 0.5 % or less (their '
                  f'resolution is at most 0.5 %); of the others, {k["floor"]} cannot because their window '
                  f'holds too few I/Os (quantisation floor), {k["one"]} because they are one observation '
                  '(the same I/O counts in every repeat on both kernels, or one repeat: no interval) and '
                  f'{k["spread"]} because their repeats spread (minimum detectable effect).', '']
        if os.path.isdir(os.path.join(self.run, 'raw', 'decision')):
            L += ['The decision criteria beside speed (churn, complexity, API surface, conversion cost, '
                  'memory per command) and the verdict on each: [DECISION.md](DECISION.md).', '']

    def header(self):
        m, L = self.m, self.lines
        meta = m.meta
        L += ['## The run', '']
        L.append(f"Engine {meta['engine'][0]}, {meta['runtime'][0]} guest time per point at least"
                 + (f" (longer where needed for a {meta['floor_target'][0]} % floor)" if 'floor_target' in meta else '')
                 + f" after "
                 f"{meta['ramp'][0]} ramp, {m.repeats} repeats, base {meta['base'][0]}, {meta['qemu'][0]}, "
                 f"host CPU {meta['host_cpu'][0]}"
                 + (f", project commit {meta['project_commit'][0]}" if 'project_commit' in meta else '')
                 + '.')
        L.append('')
        for d in m.devices:
            L.append(f"- device `{d}`: {meta['device_' + d][0]}")
        L.append('')
        qemu = [d for d in m.devices if d in model.QEMU_DEVICES]
        if qemu and m.mode == 'icount':
            L += [f"The QEMU disks ({', '.join(qemu)}) complete in host time, not guest "
                  'instructions: on them icount mode is not deterministic (the guest runs with '
                  'idle=poll so that it does not sleep through a completion), and the two kernels '
                  'boot side by side so that host load hits both alike; their resolution is '
                  'correspondingly coarser.', '']
        wall = os.path.join(self.run, 'wall.txt')
        if os.path.exists(wall):
            for line in open(wall):
                w = line.split()
                w = dict(zip(w[::2], w[1::2]))
                L.append(f"Wall time: {w['boots']} boots, {w['par']} at once on {w['host_cpus']} host CPUs: "
                         f"fio part {w['fio_s']} s, total {w['total_s']} s"
                         + (' (with the decision evidence).' if w.get('decision') == '1' else '.'))
            L.append('')
        L += ['## Method', '', __doc__.split('\n\n', 1)[1].strip(), '']

    def points_table(self):
        m, L = self.m, self.lines
        for o in m.others:
            L += [f'## Per point: {o} against {m.control}, guest ns per I/O', '',
                  f'Paired difference in % of {m.control} ± 95 % interval, at least the floor (res.: '
                  'resolution); one observation: the same I/O counts in every repeat on both kernels, or '
                  'one repeat (no interval, no test); '
                  '**bold** where significant (Holm over all cells). Every metric of every point: '
                  '[points.csv](points.csv).', '',
                  '| point | ' + ' | '.join(m.devices) + ' |', '|---|' + '---|' * len(m.devices)]
            for p in m.points:
                L.append(f'| {p} | ' + ' | '.join(cell(self.fam[o].get((d, p))) for d in m.devices) + ' |')
            L += ['', f'![difference per I/O](plots/diff-{o}.png)', '']
        for d in m.devices:
            pts = self.cdf_points(d)
            if pts:
                L += [f'Latency CDF, device `{d}`, {", ".join(pts)} (fio json+ histogram bins of the '
                      'total latency, first repeat; with `delay=0` an I/O can complete inside the '
                      'submitting system call, so the completion latency alone would leave the driver '
                      'out):', '', f'![latency CDF {d}](plots/lat-cdf-{d}.png)', '']

    def csv(self):
        """points.csv: every metric of every point, per kernel, and the
        paired comparison against the control (Holm within each metric)."""
        m = self.m
        path = os.path.join(self.run, 'points.csv')
        with open(path, 'w', newline='') as f:
            w = csv.writer(f, lineterminator='\n')
            w.writerow(['device', 'point', 'metric', 'kernel', 'n', 'median', 'mean', 'ci95',
                        'vs_control_pct', 'vs_control_ci95_pct', 'floor_pct', 'mde_pct', 'p', 'p_holm',
                        'significant', 'resolved'])
            g = lambda x: '' if x is None or (isinstance(x, float) and math.isnan(x)) else f'{x:.6g}'  # noqa: E731
            # Holm within each metric over every point of every device
            fams = {(o, key): (self.fam[o] if key == 'ns_per_io' else m.family(o, key))
                    for o in m.others for key, _, _ in METRICS}
            for d in m.devices:
                for p in m.points:
                    for key, _, _ in METRICS:
                        for v in m.variants:
                            xs = m.values(d, v, p, key)
                            if not xs:
                                continue
                            mean, half = ci_mean(xs)
                            row = [d, p, key, v, len(xs), g(statistics.median(xs)), g(mean), g(half)]
                            c = fams[(v, key)].get((d, p)) if v != m.control else None
                            if c:
                                row += [g(c.mean), g(c.half), g(c.floor), g(c.mde), g(c.p), g(c.p_holm),
                                        int(c.significant), int(c.resolved)]
                            else:
                                row += [''] * 8
                            w.writerow(row)

    # -- perf
    def profiles(self):
        m, L = self.m, self.lines
        specs = []
        for spec in m.meta.get('perf', []):
            d, _, p = spec.partition(':')
            got = {}
            for v in m.variants:
                out = m.out(d, v) if d in m.devices else None
                if out and os.path.exists(os.path.join(out, p + '.perf.txt')):
                    idle = readers.idle_aliases(readers.read_kallsyms(os.path.join(out, 'kallsyms')))
                    got[v] = readers.read_perf(os.path.join(out, p + '.perf.txt'), idle)
            if got:
                specs.append((d, p, got))
        if not specs:
            return
        L += ['## Where the time goes (perf in the guest)', '',
              '`perf record -a -g -e cpu-clock` during one extra run of the point, first completed '
              'repeat; share of all samples per symbol group (the groups are regular expressions in '
              'bench/report.py). '
              + (f"Sampling starts {m.meta['perf_delay_ms'][0]} ms (guest time) after fio, past its "
                 'start-up and ramp, and runs to fio\'s exit (its teardown included). '
                 if 'perf_delay_ms' in m.meta else
                 'The profile covers the whole fio command, start-up included (dynamic linking, '
                 'clearing the buffers\' pages: clear_page_*, get_user_pages), not the measured window '
                 'alone. ')
              + 'The idle loop is named so: perf shows it under whichever name '
              'kallsyms gives its address (6.1: `__sched_text_end` = `__cpuidle_text_start` = '
              '`native_safe_halt`). perf.data and the guest\'s kallsyms are kept beside the fio files: '
              '`perf report -i <point>.perf.data --kallsyms <kallsyms>` re-opens them. The two kernels '
              'are different builds, so their profiles are compared by symbol name, each resolved with '
              'its own kallsyms. In icount mode the sampling clock counts instructions, so a strictly '
              'periodic I/O loop can alias with the sampling period: read shares of a few % as '
              'indications, and the fio and microbenchmark figures as the measurement.', '']
        for d, p, got in specs:
            groups = {}
            for v, top in got.items():
                g = groups.setdefault(v, {name: 0.0 for name, _ in GROUPS})
                for share, sym in top:
                    for name, rx in GROUPS:
                        if rx.search(sym):
                            g[name] += share
                            break
            L += [f'### {d} {p}', '', '| group | ' + ' | '.join(m.variants) + ' |',
                  '|---|' + '---|' * len(m.variants)]
            for name, _ in GROUPS:
                L.append(f'| {name} | ' + ' | '.join(
                    f'{groups[v][name]:.1f} %' if v in groups else 'not profiled' for v in m.variants) + ' |')
            L.append('')
            for v in m.variants:
                if v in got:
                    L += [f'{v} top symbols: ' + ', '.join(f'{s} {pc:.1f} %' for pc, s in got[v][:8]), '']
            for o in m.others:
                if o in got and m.control in got:
                    L += self.perf_compare(got[m.control], got[o], o)

    def perf_compare(self, a, b, other, n=12):
        """The symbols whose share differs most between two profiles."""
        pa, pb = dict((sym, pc) for pc, sym in a), dict((sym, pc) for pc, sym in b)
        syms = sorted(set(pa) | set(pb), key=lambda x: (-abs(pb.get(x, 0) - pa.get(x, 0)), x))[:n]
        L = [f'Largest differences, {other} against {self.m.control} (share of samples; '
             'symbols under the 0.3 % cut count as 0):', '',
             f'| symbol | {self.m.control} | {other} | difference |', '|---|---|---|---|']
        for x in syms:
            L.append(f'| {x} | {pa.get(x, 0):.2f} % | {pb.get(x, 0):.2f} % | {pb.get(x, 0) - pa.get(x, 0):+.2f} % |')
        L.append('')
        return L

    # -- ceilings
    def ceilings(self):
        """null_blk and memory copy ceilings from the fake boots."""
        m, L = self.m, self.lines
        ceils = m.meta.get('ceil', [])
        if not ceils or 'fake' not in m.devices:
            return
        med = lambda xs: statistics.median(xs) if xs else None  # noqa: E731
        got = {}
        for v in m.variants:
            for rdir in m.boots.get(('fake', v), {}).values():
                out = os.path.join(rdir, 'share', 'out')
                for c in ceils:
                    path = os.path.join(out, f'ceil-null-{c}.json')
                    if os.path.exists(path):
                        got.setdefault((v, 'null-' + c), []).append(ceil_bw(path, c))
                path = os.path.join(out, 'ceil-memcpy.txt')
                if os.path.exists(path):
                    got.setdefault((v, 'memcpy'), {}).update(perf_bench_memcpy(path))
        if not got:
            return
        L += ['## Ceilings: the stack without SCSI, and without the copy', '',
              'MiB/s from completed I/Os (I/Os x block size over the window), median of the fake '
              'boots. null_blk (`queue_mode=2 irqmode=0`, requests up to 4 MiB) is the block layer '
              'with no SCSI and no scatterlist at all, so the two kernels should match there; `fake` '
              'is scsi_debug with `fake_rw=1` (SCSI and the sg code, no data copy); `real` also copies '
              'the data. memcpy is `perf bench mem memcpy -s 1MB -f all` in the guest (MiB/s per '
              'implementation; the kernel\'s own memcpy() is the one its CPU flags select): the rate '
              'scsi_debug\'s data copy cannot beat. In icount mode each iteration of a `rep movs` '
              'counts as one instruction, so the copy is far costlier against the rest of the path '
              'than on hardware. First repeat only.', '']
        L += ['| point | kernel | null_blk | fake (share of null_blk) | real (share of null_blk) |',
              '|---|---|---|---|---|']
        for c in ceils:
            for v in m.variants:
                nb = med(got.get((v, 'null-' + c), []))
                cells = [num(nb)]
                for d in ('fake', 'real'):
                    x = med(m.values(d, v, c, 'bw_mib')) if d in m.devices and c in m.points else None
                    cells.append(f'{num(x)} ({100 * x / nb:.0f} %)' if x and nb else
                                 ('not in the matrix' if x is None else num(x)))
                L.append(f'| {c} | {v} | ' + ' | '.join(cells) + ' |')
        L.append('')
        for v in m.variants:
            fns = got.get((v, 'memcpy'), {})
            out = m.out('fake', v)
            kfn = kernel_memcpy(out) if out else None
            mc = fns.get(kfn) if kfn else None
            if not mc:
                continue
            line = f'- {v}: memcpy ' + ', '.join(f'{fn} {num(x)}' for fn, x in sorted(fns.items())) + ' MiB/s'
            if 'real' in m.devices:
                best = max((med(m.values('real', v, p, 'bw_mib')) or 0, p) for p in m.points)
                line += (f'; best `real` point {best[1]} {num(best[0])} MiB/s = {100 * best[0] / mc:.0f} % '
                         f'of the kernel\'s memcpy ({kfn}, from the guest\'s CPU flags)')
                if best[0] > mc:
                    line += ' **above the copy ceiling: a measurement error, check the raw files**'
            L.append(line)
        L.append('')

    def requests(self):
        """Whether the large I/Os reached the disk whole."""
        m, L = self.m, self.lines
        rows = []
        for d in m.devices:
            for p in m.points:
                want = readers.bs_bytes(readers.size_class(p)) / 1024.0
                for v in m.variants:
                    xs = m.values(d, v, p, 'req_kib')
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
            L += [f'| {d} | {p} | {v} | {num(x)} |' for d, p, v, _, x in split]
            L.append('')

    def memory(self):
        """The sg pool slabs while 4M requests run, one row per device and
        kernel where every 4M point gave the same."""
        m, L = self.m, self.lines
        rows = []
        for d in m.devices:
            for v in m.variants:
                out = m.out(d, v)
                if not out:
                    continue
                seen = {}
                for p in m.points:
                    path = os.path.join(out, p + '.slabinfo')
                    if os.path.exists(path):
                        s = readers.read_slabinfo(path)
                        txt = ', '.join(f"{k} {x['slabs']} x {x['per_slab']} x {x['objsize']} B"
                                        for k, x in sorted(s.items(), key=lambda kv: kv[1]['objsize']))
                        seen.setdefault(txt, []).append(p)
                for txt, pts in seen.items():
                    rows.append(f"| {d} | {v} | {', '.join(pts)} | {txt} |")
        if not rows:
            return
        L += ['## sg pool slabs while 4M requests run', '',
              '`/proc/slabinfo` polled during an extra, unmeasured run of each 4M point, the snapshot '
              'with the most sg pool objects: per cache, slabs x objects per slab x object size. SLUB '
              'reports whole slabs (active objects = total objects), so this is the memory the pools '
              'hold, mostly their mempool reserves, not the objects the commands in flight use: with '
              '`delay=0` a command completes inside its submission, so queue depth 32 holds what '
              'queue depth 1 holds. The memory a command holds is computed in DECISION.md and measured '
              'with commands in flight below.', '',
              '| device | kernel | points | slabs x objects per slab x object size |', '|---|---|---|---|']
        L += rows
        L.append('')
        self.inflight()

    def inflight(self):
        """The sg pool memory with commands really in flight (INFLIGHT),
        counted exactly from the trace (bench/model.py read_inflight)."""
        m, L = self.m, self.lines
        rows, old = [], []
        for d in m.devices:
            for v in m.variants:
                out = m.out(d, v)
                for p in m.meta.get('inflight', []):
                    x = tracefs.read_inflight(out, p) if out else None
                    if x is None:
                        if out and tracefs.inflight_slab_only(out, p):
                            old.append(f'{d} {p} {v}')
                        continue
                    held = ', '.join(f'{k} {n} x {sz} B' for k, (n, sz) in sorted(x['caches'].items())) or 'none'
                    lo, hi = x['per_command_range'] or (None, None)
                    per = 'n/a' if lo is None else num(lo) if lo == hi else f'{num(lo)} to {num(hi)}'
                    taken = ', '.join(f'{n} x {num(b)} B' for b, n in sorted(x['taken'].items()))
                    segs = ', '.join(f'{n} x {s}' for s, n in sorted(x['segments'].items()))
                    rows.append(f"| {d} | {p} | {v} | {x['commands']} ({segs}) | {x['inflight']} ({x['peak']}) | "
                                f"{x['moments']} | {held} | {per} | {taken} | "
                                f"{'; '.join(x['problems']) or 'none'} |")
        if not rows and not old:
            return
        ns = m.meta.get('inflight_ndelay_ns', ['?'])[0]
        L += ['## sg pool memory with commands in flight', '']
        if old:
            L += ['This run\'s `INFLIGHT` step is of the runs before the trace (' + ', '.join(old) + '): '
                  'slabinfo snapshots only, whose growth counts whole slabs and the free objects of the CPU '
                  'slabs, not the objects in use; they are not read.', '']
        if not rows:
            return
        L += [f'An extra, unmeasured run of each `INFLIGHT` point with scsi_debug completing every command '
              f'{ns} ns after it arrived (`ndelay`), so the queue depth is really in flight, traced in the '
              'guest\'s ring buffer: `kmem:kmem_cache_alloc` of the sg caches\' object sizes, '
              '`kmem:kmem_cache_free` of the sg caches, `scsi:scsi_dispatch_cmd_start`, `_done`, `_error` '
              'and `_timeout` (raw: `<point>.inflight/`, a copy of the tracefs files, read by '
              '`bench/model.py`). At every event the sg objects in use and the commands in flight are '
              'known exactly; an object is "in transit" when it was taken for a command not yet '
              'dispatched or is still held by a command that is done. Steady state: the moments with '
              'nothing in transit and, among them, the most commands in flight. Columns: the commands '
              'dispatched (by segments, `data_sglen`), the commands in flight at the steady state (the '
              'most at any moment), the steady moments, the sg objects in use at the first of them, '
              'their bytes over the commands in flight (per command: every steady moment, as a range if '
              'they differ), the pool bytes each command took at its dispatch, and what would make the '
              'count inexact (lost events, failed allocations, frees of objects the trace did not see '
              'allocated, dispatch errors). DECISION.md sets the bytes per command against the computed '
              'memory per command.', '',
              '| device | point | kernel | commands | in flight | steady moments | sg objects in use '
              '| bytes per command | taken per command | problems |',
              '|---|---|---|---|---|---|---|---|---|---|'] + rows + ['']

    def microbench(self):
        m, L = self.m, self.lines
        res = {}
        for v in m.variants:
            for d in m.devices:
                out = m.out(d, v)
                path = os.path.join(out, 'microbench.json') if out else None
                if path and os.path.exists(path):
                    res[v] = readers.read_json(path)
                    break
        if not res:
            return
        L += ['## The API alone: in-kernel microbenchmark (sg_api_bench)', '',
              'Median guest ns per operation (instructions in icount mode), first boot of each '
              'kernel; p10-p90 in brackets.', '']
        keys = []
        for v in res:
            for pt in res[v].get('points', []):
                if (pt['op'], pt['nents']) not in keys:
                    keys.append((pt['op'], pt['nents']))
        L += ['| op | segments | ' + ' | '.join(res) + ' |', '|---|---|' + '---|' * len(res)]
        for op, n in keys:
            cells = []
            for v in res:
                pt = [x for x in res[v].get('points', []) if x['op'] == op and x['nents'] == n]
                cells.append(f"{pt[0]['median_ns']} [{pt[0]['p10_ns']}-{pt[0]['p90_ns']}]" if pt else 'n/a')
            L.append(f'| {op} | {n} | ' + ' | '.join(cells) + ' |')
        L.append('')

    def page_cross_sentence(self, pairs):
        """How the attribution runs counted an instruction that crosses a
        4 KiB page at the end of a translated block (QEMU 7.2 reports it to
        the plugin twice): once, where the fold had the kernel's vmlinux,
        with what it took off at the largest point; or twice."""
        ev = self.ev
        got = {(d, p, v): x for (d, p) in pairs for v, x in ev.page_cross.get(('insns', d, p), {}).items()}
        if not got or any(x is None for x in got.values()):
            return ('An instruction that crosses a 4 KiB page boundary is counted twice where it is not the '
                    'first of its translated block (QEMU 7.2 reports it to the plugin and then leaves it to '
                    'the next block; `bench/attrib.py page-cross` finds such instructions): these runs were '
                    'folded without the kernels\' vmlinux, which would count it once.')
        top = max(got.items(), key=lambda kv: kv[1][0])
        return ('An instruction that crosses a 4 KiB page boundary as the last of its translated block, which '
                'QEMU 7.2 reports to the plugin in that block and again in the next, is counted once: the fold '
                'finds these instructions in each kernel\'s vmlinux (at most %s per I/O taken off, %s %s %s; '
                'blocks outside the kernel\'s text, which it cannot check, ran at most %s times per I/O).'
                % (attrib_counts.fmt(top[1][0]), top[0][0], top[0][1], top[0][2],
                   attrib_counts.fmt(max(x[1] for x in got.values()))))

    def contiguous_table(self, pairs, a, b, rules):
        """The points attrib.txt's contiguous runs counted again with fio's
        buffers in runs of contiguous pages (multi-page bvecs), beside the
        one-page-per-bvec difference of the same point."""
        ev, m, L = self.ev, self.m, self.lines
        cpairs = ev.pairs(ev.contiguous, m.devices)
        if not cpairs or ev.other(ev.contiguous) != b:
            return
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'contiguous')
        L += ['', f'With contiguous buffers, from {src}: the same points with fio\'s buffer file written in '
              'random blocks of several pages (`bench/attrib.sh` `FILL_BS`, that run\'s meta.txt), so an I/O '
              'is built from runs of contiguous pages (multi-page bvecs), as the bench\'s `malloc()`\'d '
              'buffers are, where the table above has a bvec per page. Both are exact counts of their layout; '
              'how contiguous the bench\'s own buffers were is not recorded.', '',
              f'| device | point | {a} | {b} | difference | % | % at a bvec per page | map the request, {a} / {b} '
              f'(difference) | bvecs per I/O, {a} / {b} |',
              '|---|---|---|---|---|---|---|---|---|']
        for d, p in cpairs:
            x, y = (sum(ev.contiguous[(d, p)][v].values()) for v in (a, b))
            mx, my = (attrib_evidence.phase_sums(rules, ev.contiguous[(d, p)][v])['map'] for v in (a, b))
            if (d, p) in pairs:
                ox, oy = (sum(ev.insns[(d, p)][v].values()) for v in (a, b))
                at_one = pct(100.0 * (oy - ox) / ox)
            else:
                at_one = '-'
            bv = ev.bvecs.get(('contiguous', d, p), {})
            cell = '-'
            if a in bv and b in bv:
                cell = ' / '.join(attrib_counts.fmt2(bv[v][1]) for v in (a, b))
                verdict = attrib_counts.layout_verdict({v: bv[v] for v in (a, b)})
                if verdict == 'moved':
                    cell += ' (changed between the runs)'
                elif verdict == 'kernels':
                    cell += ' (the kernels\' layouts differ)'
            L.append(f'| {d} | {p} | {attrib_counts.fmt(x)} | {attrib_counts.fmt(y)} | {sfmt(y - x)} | '
                     f'{pct(100.0 * (y - x) / x)} | {at_one} | {attrib_counts.fmt(mx)} / {attrib_counts.fmt(my)} '
                     f'({sfmt(my - mx)}) | {cell} |')

    # -- exact counts by function (the attribution runs attrib.txt names)
    def attribution(self):
        ev, m, L = self.ev, self.m, self.lines
        if ev is None or not ev.pairs(ev.insns, m.devices):
            return
        a, b = ev.control, ev.other(ev.insns)
        pairs = ev.pairs(ev.insns, m.devices)
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'insns')
        L += ['## Instructions per I/O, exact (TCG plugin, icount)', '',
              'Counted, not sampled: the insncount TCG plugin (`qemu/plugin/insncount.c`) counts every '
              'translated block the guest executes, `bench/attrib.py` folds the blocks onto functions with '
              'each kernel\'s own System.map, and per I/O is the difference of a run of 2N I/Os and a run '
              'of N in one boot, over N (fio, io_uring, direct, the point\'s queue depth; scsi_debug `delay=0`; TCG, '
              f'icount, 1 vCPU). From the attribution run{"s" if src.count("`") > 2 else ""} {src}, '
              f'named in this folder\'s `{attrib_evidence.LINKS}` (each renders its own ATTRIBUTION.md with '
              '`bench/attrib.py report`). An instruction is as icount counts it: each iteration of a '
              '`rep movs`/`rep stos` is one. ' + self.page_cross_sentence(pairs)
              + self.resolution_sentence(), '',
              f'| device | point | {a} | {b} | difference | % | bvecs per I/O, {a} / {b} |',
              '|---|---|---|---|---|---|---|']
        moved = False
        for d, p in pairs:
            x, y = (sum(ev.insns[(d, p)][v].values()) for v in (a, b))
            bv = ev.bvecs.get(('insns', d, p), {})
            cell = '-'
            if a in bv and b in bv:
                cell = ' / '.join(attrib_counts.fmt2(bv[v][1]) for v in (a, b))
                if attrib_counts.layout_verdict({v: bv[v] for v in (a, b)}) == 'moved':
                    cell += ' (changed between the runs)'
                    moved = True
            L.append(f'| {d} | {p} | {attrib_counts.fmt(x)} | {attrib_counts.fmt(y)} | {sfmt(y - x)} | '
                     f'{pct(100.0 * (y - x) / x)} | {cell} |')
        L += ['', 'Bvecs per I/O: the physically contiguous runs of fio\'s buffer an I/O was built from '
              f'(entries of `{attrib_counts.BVEC_FUNCTION}` per I/O, in the run of 2N I/Os). Where the two kernels\' '
              'counts differ, part of the difference is the buffer\'s layout, not the design\'s. The bench\'s '
              'own fio runs above use `malloc()`\'d buffers, whose layout is not recorded and may differ from '
              'the attribution\'s (the attribution run\'s meta.txt says how its buffers were made).'
              + (' Where a count changed between the runs of N and 2N I/Os, the per-I/O figure mixes two '
                 'layouts and is not the cost of one I/O of either.' if moved else '')]
        self.contiguous_table(pairs, a, b, rules)
        L += ['', f'By phase (`bench/attrib-phases.txt`), instructions per I/O, {a} / {b} (difference); the '
              'functions behind each difference: '
              f'[appendix]({APPENDIX}#{APPENDIX_ANCHOR}).', '']
        for d in [d for d in m.devices if any(k[0] == d for k in pairs)]:
            pts = [p for dd, p in pairs if dd == d]
            sums = {p: {v: attrib_evidence.phase_sums(rules, ev.insns[(d, p)][v]) for v in (a, b)} for p in pts}
            L += [f'| {d}: phase | ' + ' | '.join(pts) + ' |', '|---|' + '---|' * len(pts)]
            for ph in attrib_counts.PHASE_ORDER:
                L.append(f'| {attrib_counts.PHASE_NAMES[ph]} | ' + ' | '.join(
                    f'{attrib_counts.fmt(sums[p][a][ph])} / {attrib_counts.fmt(sums[p][b][ph])} '
                    f'({sfmt(sums[p][b][ph] - sums[p][a][ph])})' for p in pts) + ' |')
            L.append('')
        self.residue_tables(pairs, a, b)

    def resolution_sentence(self):
        r = self.ev.resolution
        if not r:
            return ''
        return (f' Resolution: the counts are exact, but the N and 2N runs of a boot do not start from the '
                f'same state (page allocator, slab, the phase of periodic work), so a per-I/O figure is good '
                f'to about {r[0]:g} % at 4k ({r[1]}); page-allocator functions with negative counts per I/O '
                'are that residue.')

    def residue_tables(self, pairs, a, b):
        ev, L = self.ev, self.lines
        items = attrib_evidence.read_residue_classes(attrib_evidence.RESIDUE)
        pts = [(d, p) for d, p in pairs if p in attrib_evidence.read_residue_points(attrib_evidence.RESIDUE)]
        if not pts:
            return
        L += ['### The 4k difference, every instruction of it', '',
              f'Each function behind {b} minus {a} at {", ".join(sorted({p for _, p in pts}))}, grouped into items, each marked inherent to the '
              'design (what an explicit ring of counted arrays costs by its nature), incidental to the '
              'port (what this port costs on top, and what would remove it), or measurement (no cost of '
              'either kernel: an artefact of the counting, said why). The classification is '
              '`bench/attrib-residue.txt`; the figures are the attribution run\'s. What no item claims is '
              'the remainder: functions that do not run a fixed number of instructions per I/O (the page '
              'allocator, slab refills, the timer and scheduler, fio\'s own loop), i.e. the N/2N residue.'
              + (' "Repeat": the same item in a second insncount measurement of the same kernels ('
                 + ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'repeat')
                 + ', other guest images): the items come back, the remainder does not.' if ev.repeat else ''),
              '']
        for d, p in pts:
            res = attrib_evidence.residue(ev.insns[(d, p)][a], ev.insns[(d, p)][b], items)
            rep = ev.repeat.get((d, p), {})
            rres = attrib_evidence.residue(rep[a], rep[b], items) if a in rep and b in rep else None
            rnet = {it[1]: it[4] for it in rres['items']} if rres else {}
            L += [f'{d} {p}: {sfmt(res["total"])} instructions per I/O ({a} '
                  f'{attrib_counts.fmt(sum(ev.insns[(d, p)][a].values()))}).', '',
                  '| item | class | functions, ' + f'{a} / {b} per I/O | difference |'
                  + (' repeat |' if rres else '') + ' why |',
                  '|---|---|---|---|' + ('---|' if rres else '') + '---|']
            for cls, label, reason, rows, net in res['items']:
                fns = ', '.join(f'`{fn}` {attrib_counts.fmt(x)} / {attrib_counts.fmt(y)}' for fn, x, y, _ in rows)
                L.append(mdtable.row(label, cls, fns, sfmt(net))
                         + (f' {sfmt(rnet[label]) if label in rnet else "-"} |' if rres else '')
                         + f' {mdtable.cell(reason)} |')
            big = ', '.join(f'`{n}` {sfmt(x)}' for x, n in res['remainder'][:6])
            L.append(f'| remainder | N/2N residue | {len(res["remainder"])} other functions; the largest: '
                     f'{big} | {sfmt(res["rest"])} |' + (f' {sfmt(rres["rest"])} |' if rres else '')
                     + ' not a fixed cost per I/O |')
            L += ['', attrib_evidence.residue_summary(res, sum(ev.insns[(d, p)][a].values()), ev.resolution)
                  + (f' In the repeat run: total {sfmt(rres["total"])}, the items {sfmt(rres["classified"])}, '
                     f'remainder {sfmt(rres["rest"])}.' if rres else ''), '']

    # -- cache misses under the stated model
    def cache_misses(self):
        ev, m, L = self.ev, self.m, self.lines
        if ev is None or not ev.pairs(ev.cache, m.devices):
            return
        a, b = ev.control, ev.other(ev.cache)
        pairs = ev.pairs(ev.cache, m.devices)
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'cache')
        L += ['## Cache misses per I/O (a stated model)', '',
              f'Model: {ev.model} (`qemu/plugin/cachesim.c`: write-allocate, no prefetcher; instruction '
              'fetches by guest virtual address, data by guest physical address), in boots of their own '
              'with the cachesim plugin, per I/O by the same difference of two runs (N/4 and N/2 I/Os), '
              f'from {src}. A model, not any CPU: it shows where the two kernels\' footprints differ, not '
              'what a processor would do (no miss latency is charged anywhere). Small figures are the '
              'difference of two runs: a negative one is that noise, and a difference of a few tens of '
              'misses per I/O is not resolved. The functions that miss most: '
              f'[appendix]({APPENDIX}#{APPENDIX_ANCHOR}).', '',
              '| device | point | ' + ' | '.join(f'{lab} misses, {a} / {b} (difference)'
                                              for _, lab in attrib_evidence.CACHE_MISSES) + ' |',
              '|---|---|' + '---|' * len(attrib_evidence.CACHE_MISSES)]
        for d, p in pairs:
            cells = []
            for f, _ in attrib_evidence.CACHE_MISSES:
                x, y = (sum(v[f] for v in ev.cache[(d, p)][k].values()) for k in (a, b))
                cells.append(f'{attrib_counts.fmt(x)} / {attrib_counts.fmt(y)} ({sfmt(y - x)})')
            L.append(f'| {d} | {p} | ' + ' | '.join(cells) + ' |')
        waits = [d for d in dict.fromkeys(d for d, _ in pairs) if d in ev.devices]
        if waits:
            L += ['', f'The rows of {", ".join(waits)} (the IOMMU class, below) come from boots whose guest waits '
                  'for QEMU\'s I/O in host time, spinning (idle=poll): the timer and interrupt work that lands in '
                  'a run, and so its misses, change from boot to boot, as the class\'s instruction totals do '
                  'between its two runs (the DMA phase repeats, the totals do not). With one cachesim boot per '
                  'kernel these rows are not resolved at any size; they show the order of magnitude only.']
        L.append('')

    # -- the IOMMU class: the same counts behind QEMU's intel-iommu
    def iommu_class(self):
        ev, L = self.ev, self.lines
        if ev is None or not ev.pairs(ev.iommu, list(ev.devices)):
            return
        a, b = ev.control, ev.other(ev.iommu)
        pairs = ev.pairs(ev.iommu, list(ev.devices))
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'iommu')
        rsrc = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'iommu-repeat')
        L += ['## Behind an IOMMU: instructions and IOMMU work per I/O (QEMU intel-iommu)', '',
              'The points above run on scsi_debug, which maps nothing for DMA. Here a host adapter that '
              'DMA-maps every command sits behind QEMU\'s intel-iommu, so each mapping is an IOVA '
              'allocation, page-table writes and, at unmap, an IOTLB invalidation (waited for in strict '
              'mode, batched by a flush queue and a timer in lazy mode). Counted as above (insncount, per '
              f'I/O by the difference of N and 2N I/Os in one boot, TCG, icount, 1 vCPU), from {src}'
              + (f', repeated in {rsrc}' if rsrc else '') + f', named in `{attrib_evidence.LINKS}`. The devices:', '']
        L += [f'- {d}: {ev.devices[d]}' for d in ev.devices if any(k[0] == d for k in pairs)]
        L += ['', 'Instructions per I/O: the DMA map/unmap phase and the total without the idle spin (the '
              'CPU waiting for QEMU, which depends on the host), ' + f'{a} / {b} (difference, %)'
              + ('; "repeat": the difference in the second run' if rsrc else '') + '.', '',
              '| device | point | DMA map/unmap | ' + ('repeat | ' if rsrc else '') + 'total without idle | '
              + ('repeat |' if rsrc else ''),
              '|---|---|---|---|' + ('---|---|' if rsrc else '')]

        def cells(table, d, p):
            if a not in table.get((d, p), {}) or b not in table.get((d, p), {}):
                return None
            (da, ta), (db, tb) = (attrib_evidence.dma_and_busy(rules, table[(d, p)][v]) for v in (a, b))
            return [da, db], [ta, tb]

        def one(x, y):
            return f'{attrib_counts.fmt(x)} / {attrib_counts.fmt(y)} ({sfmt(y - x)}, {pct(100.0 * (y - x) / x) if x else "-"})'

        def diff(x, y):
            return f'{sfmt(y - x)} ({pct(100.0 * (y - x) / x) if x else "-"})'

        for d, p in pairs:
            dma, tot = cells(ev.iommu, d, p)
            rep = cells(ev.iommu_repeat, d, p) if rsrc else None
            row = f'| {d} | {p} | {one(*dma)} |'
            if rsrc:
                row += f' {diff(*rep[0]) if rep else "-"} |'
            row += f' {one(*tot)} |'
            if rsrc:
                row += f' {diff(*rep[1]) if rep else "-"} |'
            L.append(row)
        L += ['', 'Where a difference and its repeat disagree, it is not resolved: the disk completes in host '
              'time, so the rest of the path (interrupts, timers, wake-ups) and, in lazy mode, the flush '
              'queue\'s timer vary from boot to boot; the strict DMA phase is the figure that repeats.'
              if rsrc else '']
        L += ['', 'The IOMMU work per I/O, as entries of the functions that do it (`bench/attrib.py` '
              'IOMMU_CALLS), ' + f'{a} / {b}:', '',
              '| device | point | ' + ' | '.join(lab for lab, _ in IOMMU_COLUMNS) + ' |',
              '|---|---|' + '---|' * len(IOMMU_COLUMNS)]
        for d, p in pairs:
            c = ev.calls[('iommu', d, p)]
            L.append(f'| {d} | {p} | ' + ' | '.join(
                f'{attrib_counts.fmt2(c[a].get(fn, 0.0))} / {attrib_counts.fmt2(c[b].get(fn, 0.0))}' for _, fn in IOMMU_COLUMNS)
                + ' |')
        L += ['', 'Each attribution run\'s ATTRIBUTION.md has every point by phase, every call of '
              'IOMMU_CALLS and the functions behind each difference.', '']

    def attribution_appendix(self):
        """The long tables, in REPORT-appendix.md (self.appendix), and a
        pointer to them in REPORT.md."""
        ev, m, L = self.ev, self.m, self.appendix
        if ev is None or not (ev.pairs(ev.insns, m.devices) or ev.pairs(ev.cache, m.devices)):
            return
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        t = mdtable.template('report.md')
        L += [t['appendix-title'], '', mdtable.fill(t, 'appendix-intro', run=m.meta['run_id'][0]), '',
              APPENDIX_HEADING, '']
        self.lines += [t['appendix-link'], '']
        if ev.pairs(ev.insns, m.devices):
            a, b = ev.control, ev.other(ev.insns)
            L += [f'Per attributed point, the functions whose instructions per I/O differ most ({b} minus '
                  f'{a}, largest first; a function only one kernel has counts 0 in the other).', '']
            for d, p in ev.pairs(ev.insns, m.devices):
                pa, pb = ev.insns[(d, p)][a], ev.insns[(d, p)][b]
                diffs = [t for t in attrib_counts.differences(pa, pb) if abs(t[0]) >= 0.5][:12]
                L += [f'{d} {p} (N = {ev.n[("insns", d, p, a)]} and {ev.n[("insns", d, p, b)]}):', '',
                      f'| function | phase | {a} | {b} | difference |', '|---|---|---|---|---|']
                L += [f'| `{n}` | {attrib_counts.phase_of(rules, n)} | {attrib_counts.fmt(pa.get(n, 0.0))} | '
                      f'{attrib_counts.fmt(pb.get(n, 0.0))} | {sfmt(x)} |' for x, n in diffs]
                L.append('')
        if ev.pairs(ev.cache, m.devices):
            a, b = ev.control, ev.other(ev.cache)
            L += ['Cache model: per point the functions with the most L1 misses (instruction plus data) per '
                  'I/O in either kernel.', '']
            for d, p in ev.pairs(ev.cache, m.devices):
                fa, fb = ev.cache[(d, p)][a], ev.cache[(d, p)][b]
                l1 = lambda t, n: t.get(n, {}).get('l1i_miss', 0.0) + t.get(n, {}).get('l1d_miss', 0.0)  # noqa: E731
                top = sorted(set(fa) | set(fb), key=lambda n: (-max(l1(fa, n), l1(fb, n)), n))[:8]
                L += [f'{d} {p}:', '', f'| function | phase | {a} | {b} | difference |', '|---|---|---|---|---|']
                L += [f'| `{n}` | {attrib_counts.phase_of(rules, n)} | {attrib_counts.fmt(l1(fa, n))} | {attrib_counts.fmt(l1(fb, n))} | '
                      f'{sfmt(l1(fb, n) - l1(fa, n))} |' for n in top]
                L.append('')
        ks = ev.kernels(m.meta)
        if ks:
            L += ['The kernels the attribution boots ran, against this run\'s (series_sha256 of the patch '
                  'series, sha256 of the System.map the counts were folded with; from each boot\'s '
                  '`boot-<plugin>.info`):', '',
                  '| kernel | series_sha256 | System.map sha256 | boots | against this run |', '|---|---|---|---|---|']
            L += [f'| {v} | {se[:12]} | {sm[:12]} | {"; ".join(where)} | {verdict} |'
                  for v, se, sm, where, verdict in ks]
            L.append('')

    # -- plots
    def plots(self):
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        m = self.m
        os.makedirs(os.path.join(self.run, 'plots'), exist_ok=True)
        sizes = []
        for p in m.points:
            if readers.size_class(p) not in sizes:
                sizes.append(readers.size_class(p))
        for o in m.others:
            # one panel per size class, side by side; the axis is fitted to
            # the resolved effects (an interval wider than the axis is
            # clipped and marked), unresolved points are hollow
            fam = self.fam[o]
            lim = [abs(c.mean) + c.pm for c in fam.values() if c.significant] or \
                [abs(c.mean) + c.pm for c in fam.values() if c.resolved and c.pm < 1]
            lim = max([0.5] + lim) * 1.3
            rows = [(d, p) for d in m.devices for p in m.points]
            fig, axes = plt.subplots(1, len(sizes), figsize=(2.6 * len(sizes) + 1.5, 0.16 * len(rows) / len(sizes) + 1.2),
                                     sharey=False, squeeze=False)
            for ax, s in zip(axes[0], sizes):
                sel = [(d, p) for d, p in rows if readers.size_class(p) == s]
                for y, (d, p) in enumerate(sel):
                    c = fam.get((d, p))
                    if c is None:
                        continue
                    col = ('tab:red' if c.mean > 0 else 'tab:green') if c.significant else 'tab:gray'
                    half = 0 if math.isnan(c.pm) else min(c.pm, lim)
                    x = max(-lim, min(lim, c.mean))
                    ax.errorbar([x], [y], xerr=[[half], [half]], fmt='o', color=col, ms=3.5, capsize=1.5,
                                mfc=col if c.resolved else 'white', lw=0.8)
                    if c.pm > lim:
                        ax.annotate(f'±{c.pm:.0f}', (lim, y), fontsize=5, ha='right', va='center')
                ax.set_yticks(range(len(sel)))
                ax.set_yticklabels([f'{d} {p.split("-")[0]}-qd{readers.split_point(p)[2]}' for d, p in sel],
                                   fontsize=5.5)
                ax.invert_yaxis()
                ax.set_xlim(-lim, lim)
                ax.axvline(0, color='black', lw=0.6)
                ax.set_title(s, fontsize=8)
                ax.tick_params(axis='x', labelsize=6)
                ax.grid(axis='x', lw=0.3)
            fig.supxlabel(f'guest ns per I/O, {o} vs {m.control}, % (95 % interval, at least the floor; '
                          'red/green: significant, hollow: not resolved or one observation)', fontsize=7)
            fig.tight_layout()
            fig.savefig(os.path.join(self.run, 'plots', f'diff-{o}.png'), dpi=100, metadata={'Software': None})
            plt.close(fig)
        for d in m.devices:
            pts = self.cdf_points(d)
            if not pts:
                continue
            fig, axes = plt.subplots(1, len(pts), figsize=(3.4 * len(pts), 3), squeeze=False)
            for ax, p in zip(axes[0], pts):
                span = []
                for v in m.variants:
                    kind, bins = lat_bins(os.path.join(m.out(d, v), p + '.json'))
                    total = sum(c for _, c in bins)
                    if not bins or not total:
                        continue
                    xs, ys, acc = [bins[0][0] / 1000.0], [0.0], 0
                    for ns, c in bins:
                        acc += c
                        xs.append(ns / 1000.0)
                        ys.append(acc / total)
                    ax.step(xs, ys, where='post', label=v)
                    span.extend([xs[0], xs[-1]])
                # log scale only where the latencies span more than a decade;
                # plain labels on the major ticks only, so they cannot overlap
                if span and max(span) > 10 * min(span):
                    ax.set_xscale('log')
                    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f'{x:g}'))
                    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
                else:
                    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(5))
                ax.set_title(p, fontsize=8)
                ax.set_xlabel('latency, us' if kind == 'lat' else 'completion latency (clat), us', fontsize=7)
                ax.tick_params(labelsize=7)
            axes[0][0].set_ylabel('fraction of I/Os', fontsize=7)
            if axes[0][-1].get_legend_handles_labels()[0]:
                axes[0][-1].legend(fontsize=7)
            fig.tight_layout()
            fig.savefig(os.path.join(self.run, 'plots', f'lat-cdf-{d}.png'), dpi=90, metadata={'Software': None})
            plt.close(fig)

    def cdf_points(self, d):
        """The points of a device whose latency CDF is plotted: queue depth 1
        of the first random direction, every block size, where every variant
        has a first repeat."""
        if any((d, v) not in self.m.boots for v in self.m.variants):
            return []
        qd1 = [p for p in self.m.points if p.endswith('-qd1')]
        rws = [p.split('-')[0] for p in qd1]
        rw = next((r for r in ('randread', 'read', 'randwrite', 'write') if r in rws), None)
        return [p for p in qd1 if p.split('-')[0] == rw]

    def write(self, plots=True):
        self.headline()
        self.attribution()
        self.cache_misses()
        self.iommu_class()
        self.header()
        self.points_table()
        self.profiles()
        self.microbench()
        self.ceilings()
        self.requests()
        self.memory()
        self.attribution_appendix()
        self.lines.append('Raw data: `raw/<device>/<variant>/r<N>/share/out/<point>.json` (fio json+), '
                          '`.blockstat0/.blockstat` (disk stat before/after), `ceil-*.json` (ceilings), '
                          'guest logs (`console.log`, `share/out/dmesg.txt`), metadata (`run.info`, '
                          '`meta.txt`); every metric of every point: [points.csv](points.csv).')
        self.csv()
        if plots:
            self.plots()
        stale = os.path.join(self.run, 'summary.json')
        if os.path.exists(stale):   # written by earlier versions; nothing reads it
            os.remove(stale)
        with open(os.path.join(self.run, 'REPORT.md'), 'w') as f:
            f.write('\n'.join(self.lines) + '\n')
        appendix = os.path.join(self.run, APPENDIX)
        if self.appendix:
            with open(appendix, 'w') as f:
                f.write('\n'.join(self.appendix).rstrip('\n') + '\n')
        elif os.path.exists(appendix):   # of an earlier rendering with attribution runs
            os.remove(appendix)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    Report(sys.argv[1]).write()


if __name__ == "__main__":
    main()
