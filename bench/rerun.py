"""rerun.py - does a verdict survive a rerun: the size classes of REPORT.md's
answer tables (bench/model.py Run.classes) of a bench run and of a rerun of
the same matrix on another boot set (bench/run.sh SEED=2), row by row.

  python3 -m bench.rerun RUN RERUN   write RERUN/COMPARE.md and print it

A row holds when both runs give it the same verdict: significant with the
same sign in both, or a one observation of the same sign in both, or
neither resolved.  It is at the edge when one run resolves it and the other
does not (the verdict is not stated from either alone), and it flips when
the two runs are significant with opposite signs.  The runs must be of the
same devices, points and kernels, on different boot sets.
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


def agreement(a, b):
    """holds, at the edge or FLIPS: two comparisons of one size class."""
    la, lb = label(a), label(b)
    if la == lb:
        return 'holds'
    if a.significant and b.significant:
        return 'FLIPS'
    return 'at the edge'


def compare(run, rerun):
    """[(candidate, device, size, reference Comparison, rerun Comparison,
    agreement)] of every size class both runs have."""
    out = []
    for o in run.others:
        if o not in rerun.others:
            continue
        a, b = run.classes(o), rerun.classes(o)
        for key in a:
            if key in b:
                out.append((o, key[0], key[1], a[key][0], b[key][0], agreement(a[key][0], b[key][0])))
    return out


def render(run, rerun, rows):
    def cell(c):
        return f'{label(c)}, {c.mean:+.2f} %'
    ids = [r.meta['run_id'][0] for r in (run, rerun)]
    sets = [r.meta.get('boot_set', ['1'])[0] for r in (run, rerun)]
    n = {k: sum(1 for r in rows if r[5] == k) for k in ('holds', 'at the edge', 'FLIPS')}
    L = [f'# Does each verdict survive a rerun: `{ids[1]}` against `{ids[0]}`', '',
         f'The size classes of REPORT.md\'s answer tables of `{ids[0]}` (boot set {sets[0]}) and of its '
         f'rerun `{ids[1]}` (boot set {sets[1]}: other QEMU and fio seeds and another order of the '
         'points), `python3 -m bench.rerun`. A row holds when both runs give the same verdict (the same '
         'sign where significant), is at the edge when one run resolves it and the other does not, and '
         'flips when both are significant with opposite signs.', '',
         f'{n["holds"]} of {len(rows)} rows hold, {n["at the edge"]} at the edge, {n["FLIPS"]} flip.', '',
         f'| candidate | device | size | {ids[0]} | {ids[1]} | |', '|---|---|---|---|---|---|']
    L += [f'| {o} | {d} | {s} | {cell(a)} | {cell(b)} | {k} |' for o, d, s, a, b, k in rows]
    return '\n'.join(L) + '\n'


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    run, rerun = (model.Run(p.rstrip('/')) for p in sys.argv[1:])
    for what in ('devices', 'points', 'variants'):
        if getattr(run, what) != getattr(rerun, what):
            sys.exit(f'rerun.py: the runs differ in their {what} ({getattr(run, what)} against '
                     f'{getattr(rerun, what)}): compare a rerun of the same matrix')
    if run.meta.get('boot_set', ['1']) == rerun.meta.get('boot_set', ['1']):
        sys.exit('rerun.py: both runs are of boot set %s: under icount that is the same run again; '
                 'rerun with another SEED (make bench SEED=2)' % run.meta.get('boot_set', ['1'])[0])
    text = render(run, rerun, compare(run, rerun))
    write_atomic(os.path.join(rerun.path, 'COMPARE.md'), text)
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
