"""rerun.py - does a verdict survive a rerun, or hold on other kernels: the
size classes of REPORT.md's answer tables (bench/model.py Run.classes) of a
bench run and of a second run of the same matrix, row by row.

  python3 -m bench.rerun RUN RERUN   write RERUN/COMPARE.md and print it

A rerun is the same kernels on another boot set (bench/run.sh SEED=2).  A
row holds when both runs give it the same verdict: significant with the
same sign in both, or a one observation of the same sign in both, or
neither resolved.  It is at the edge when one run resolves it and the other
does not (the verdict is not stated from either alone), and it flips when
the two runs are significant with opposite signs.  The runs must be of the
same devices, points and kernels, on different boot sets.

A second run on another kernel flavour (meta.txt kernel_flavour: make bench
KERNEL=os, the -Os kernels) is compared the same way for the variants both
runs have, on any boot set; a row that one run resolves and the other does
not then differs on those kernels, and the table gives both figures.
"""
import os
import sys

from bench import model
from bench.decision_lib import write_atomic


def label(c):
    """A size class's verdict with its sign: '+' (the candidate slower),
    '-' or '' where it has none."""
    v = c.verdict()
    if v in ('significant', 'one observation'):
        return f'{v} ({"+" if c.mean > 0 else "-"})'
    return v


def agreement(a, b, kernels=False):
    """holds, at the edge (differs, on other kernels) or FLIPS: two
    comparisons of one size class."""
    la, lb = label(a), label(b)
    if la == lb:
        return 'holds'
    if a.significant and b.significant:
        return 'FLIPS'
    return 'differs' if kernels else 'at the edge'


def flavour(run):
    """The kernels a run booted: normal or os (meta.txt kernel_flavour)."""
    return run.meta.get('kernel_flavour', ['normal'])[0]


def compare(run, rerun):
    """[(candidate, device, size, reference Comparison, rerun Comparison,
    agreement)] of every size class both runs have."""
    kernels = flavour(run) != flavour(rerun)
    out = []
    for o in run.others:
        if o not in rerun.others:
            continue
        a, b = run.classes(o), rerun.classes(o)
        for key in a:
            if key in b:
                out.append((o, key[0], key[1], a[key][0], b[key][0],
                            agreement(a[key][0], b[key][0], kernels)))
    return out


def render(run, rerun, rows):
    def cell(c):
        return f'{label(c)}, {c.mean:+.2f} %'
    ids = [r.meta['run_id'][0] for r in (run, rerun)]
    sets = [r.meta.get('boot_set', ['1'])[0] for r in (run, rerun)]
    fl = [flavour(r) for r in (run, rerun)]
    if fl[0] == fl[1]:
        kinds = ('holds', 'at the edge', 'FLIPS')
        L = [f'# Does each verdict survive a rerun: `{ids[1]}` against `{ids[0]}`', '',
             f'The size classes of REPORT.md\'s answer tables of `{ids[0]}` (boot set {sets[0]}) and of its '
             f'rerun `{ids[1]}` (boot set {sets[1]}: other QEMU and fio seeds and another order of the '
             'points), `python3 -m bench.rerun`. A row holds when both runs give the same verdict (the same '
             'sign where significant), is at the edge when one run resolves it and the other does not, and '
             'flips when both are significant with opposite signs.', '']
    else:
        kinds = ('holds', 'differs', 'FLIPS')
        L = [f'# Does each verdict hold on the {fl[1]} kernels: `{ids[1]}` against `{ids[0]}`', '',
             f'The size classes of REPORT.md\'s answer tables of `{ids[0]}` ({fl[0]} kernels, boot set '
             f'{sets[0]}) and of `{ids[1]}` (the same matrix on the {fl[1]} kernels, boot set {sets[1]}), '
             '`python3 -m bench.rerun`, for the candidates both runs have. A row holds when both runs give '
             'the same verdict (the same sign where significant), differs when one run resolves it and the '
             'other does not, and flips when both are significant with opposite signs.', '']
    n = {k: sum(1 for r in rows if r[5] == k) for k in kinds}
    verb = 'differ' if kinds[1] == 'differs' else 'at the edge'
    L += [f'{n["holds"]} of {len(rows)} rows hold, {n[kinds[1]]} {verb}, {n["FLIPS"]} flip.', '',
          f'| candidate | device | size | {ids[0]} | {ids[1]} | |', '|---|---|---|---|---|---|']
    L += [f'| {o} | {d} | {s} | {cell(a)} | {cell(b)} | {k} |' for o, d, s, a, b, k in rows]
    return '\n'.join(L) + '\n'


# A bench run on the normal kernels names its runs on other kernels (make
# bench KERNEL=os) in one small committed file of its folder, by paths
# relative to it: "os ../os-icount-1".  REPORT.md's answer tables and
# DECISION.md's speed rows then give, beside each verdict, the other
# kernels' where it differs.
KERNELS = 'kernels.txt'


def other_kernels(path):
    """[(flavour, Run)] of the runs RUN/kernels.txt names; SystemExit naming
    the file and line where a run is missing or is of other kernels than
    the line says."""
    f = os.path.join(path, KERNELS)
    if not os.path.exists(f):
        return []
    out = []
    with open(f) as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            fl, _, rel = line.partition(' ')
            other = os.path.normpath(os.path.join(path, rel.strip()))
            if not os.path.exists(os.path.join(other, 'meta.txt')):
                sys.exit(f'{f}:{n}: {rel.strip()} is not a bench run (no meta.txt)')
            run = model.Run(other)
            if flavour(run) != fl:
                sys.exit(f'{f}:{n}: {rel.strip()} is of the {flavour(run)} kernels, not {fl}')
            out.append((fl, run))
    return out


def beside(run, others, cand):
    """{(device, size): [(flavour, run id, the other run's Comparison,
    agreement)]} for the size classes of CAND where a run on other
    kernels does not give the verdict RUN gives."""
    out = {}
    for fl, other in others:
        for o, d, s, _, b, k in compare(run, other):
            if o == cand and k != 'holds':
                out.setdefault((d, s), []).append((fl, other.meta['run_id'][0], b, k))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    run, rerun = (model.Run(p.rstrip('/')) for p in sys.argv[1:])
    kernels = flavour(run) != flavour(rerun)
    for what in ('devices', 'points') if kernels else ('devices', 'points', 'variants'):
        if getattr(run, what) != getattr(rerun, what):
            sys.exit(f'rerun.py: the runs differ in their {what} ({getattr(run, what)} against '
                     f'{getattr(rerun, what)}): compare a rerun of the same matrix')
    if kernels:
        if run.control != rerun.control or not set(run.others) & set(rerun.others):
            sys.exit(f'rerun.py: the runs on {flavour(run)} and {flavour(rerun)} kernels share no '
                     'candidate against the same control: nothing to compare')
    elif run.meta.get('boot_set', ['1']) == rerun.meta.get('boot_set', ['1']):
        sys.exit('rerun.py: both runs are of boot set %s: under icount that is the same run again; '
                 'rerun with another SEED (make bench SEED=2)' % run.meta.get('boot_set', ['1'])[0])
    text = render(run, rerun, compare(run, rerun))
    write_atomic(os.path.join(rerun.path, 'COMPARE.md'), text)
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
