"""report.py RUNDIR - write RUNDIR/REPORT.md, its long tables in
RUNDIR/REPORT-appendix.md (where the run draws on attribution runs),
RUNDIR/points.csv and the difference plots in RUNDIR/plots/ from the raw files of a
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
import statistics
import sys

from bench import attrib_evidence
from bench import mdtable
from bench import model
from bench import rerun
from bench import stats
from bench.report_attrib import ReportAttrib
from bench.report_glance import ReportGlance
from bench.report_latency import ReportLatency
from bench.report_lib import APPENDIX, METRICS, cell, ci_mean, num, pct, plus_minus
from bench.report_perf import ReportPerf
from bench.report_plots import ReportPlots

try:
    import scipy  # noqa: F401
except ImportError:  # pragma: no cover - make deps installs python3-scipy
    sys.exit('report.py: python3-scipy is missing: run make deps')


class Report(ReportPerf, ReportAttrib, ReportPlots, ReportLatency, ReportGlance):
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
        qemu = [d for d in m.devices if model.is_qemu_device(d)]
        on = 'scsi_debug and QEMU disks' if qemu else 'scsi_debug'
        L += [f"# sgbench report: {', '.join(m.others)} against {m.control} on {on}", '']
        L.append(f"Run `{m.meta['run_id'][0]}`, mode **{m.mode}**: guest time "
                 + ('counts instructions (1 instruction = 1 ns)' if m.mode == 'icount' else 'is wall-clock time')
                 + f"; {m.meta['runtime'][0]} per point or longer, {m.repeats} repeat{'s' if m.repeats != 1 else ''}.")
        L += ['', 'Status: ' + ('complete.' if m.complete() else
                                '**INCOMPLETE**: some boots are missing; the figures cover completed '
                                'boots only.'), '']
        L += mdtable.headline(mdtable.devices_of(m, self.ev))
        L += self.glance()
        kernels = rerun.other_kernels(self.run)
        for o in m.others:
            shown = [(fl, r) for fl, r in kernels if o in r.others]
            extra = ''.join(f' on the {fl} kernels ([{r.meta["run_id"][0]}]'
                            f'({os.path.relpath(r.path, self.run)}/COMPARE.md)) |' for fl, r in shown)
            L += [f'## Answer: {o} against {m.control}, guest time per I/O', '',
                  mdtable.prose('report.md', 'answer-intro', other=o, control=m.control), '']
            if shown:
                L += [mdtable.prose('report.md', 'answer-kernels', flavours=', '.join(fl for fl, _ in shown)), '']
            L += ['| device | size | difference per I/O | ns per I/O | resolution | points significant (of) | verdict |'
                  + extra, '|---|---|---|---|---|---|---|' + '---|' * len(shown)]
            diff_k = rerun.beside(m, shown, o)
            for (d, s), (c, pts) in self.cls[o].items():
                sig = [p for p, pc in pts if pc.significant]
                signs = sorted({'+' if pc.mean > 0 else '-' for _, pc in pts if pc.significant})
                diff = (plus_minus(c) if c.resolved or c.verdict() == 'one observation' else
                        f'not resolved ({pct(c.mean)})')
                res = f'floor {pct(c.floor, False)}' if c.single else pct(c.resolution, False)
                L.append(f'| {d} | {s} | {"**" + diff + "**" if c.significant else diff} | '
                         f'{c.mean_abs:+.0f} of {num(statistics.fmean(c.base))} | {res} | '
                         f'{len(sig)} of {len(pts)}' + (f' ({"/".join(signs)})' if signs else '')
                         + f' | {c.verdict()} |'
                         + ''.join(' ' + next((f'**{k}: {rerun.label(b)}, {b.mean:+.2f} %**'
                                               for f2, _, b, k in diff_k.get((d, s), []) if f2 == fl),
                                              'the same verdict') + ' |' for fl, _ in shown))
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
        qemu = [d for d in m.devices if model.is_qemu_device(d)]
        if qemu and m.mode == 'icount':
            L += [mdtable.prose('report.md', 'qemu-disks', disks=', '.join(qemu)), '']
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
                  mdtable.prose('report.md', 'points-intro', control=m.control), '',
                  '| point | ' + ' | '.join(m.devices) + ' |', '|---|' + '---|' * len(m.devices)]
            for p in m.points:
                L.append(f'| {p} | ' + ' | '.join(cell(self.fam[o].get((d, p))) for d in m.devices) + ' |')
            L += ['', f'![difference per I/O](plots/diff-{o}.png)', '']
        for d in m.devices:
            L += self.latency(d)

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

    def write(self, plots=True):
        self.headline()
        self.attribution()
        self.cache_misses()
        self.iommu_class()
        self.dma_class()
        self.header()
        self.points_table()
        self.profiles()
        self.microbench()
        self.ceilings()
        self.requests()
        self.memory()
        self.attribution_appendix()
        self.lines.append(mdtable.prose('report.md', 'raw-data'))
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
