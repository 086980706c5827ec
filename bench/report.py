#!/usr/bin/python3
"""report.py RUNDIR - write RUNDIR/REPORT.md (and summary.json) from the raw
fio JSON of a bench run alone.  Same raw files, same bytes out.

Method: per variant and point, the median of the repeats and a 95 %
Student-t confidence interval of the mean; the difference of the second
variant against the first (the control, sg_table) in % of the control's
mean, with a 95 % Welch interval.  A difference is called significant only
where that interval excludes zero and each variant has at least 3 repeats.
"""
import glob
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fiojson  # noqa: E402

try:
    from scipy import stats
except ImportError:  # pragma: no cover - make deps installs python3-scipy
    sys.exit('report.py: python3-scipy is missing: run make deps')

CONTROL = 'sg_table'
METRICS = [  # key, label, unit divisor, better
    ('iops', 'IOPS', 1, 'higher'),
    ('bw_mib', 'MiB/s', 1, 'higher'),
    ('clat_mean_us', 'clat mean us', 1, 'lower'),
    ('clat_p50_us', 'clat p50 us', 1, 'lower'),
    ('clat_p99_us', 'clat p99 us', 1, 'lower'),
    ('clat_p999_us', 'clat p99.9 us', 1, 'lower'),
]


def read_meta(run):
    meta = {}
    with open(os.path.join(run, 'meta.txt')) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition(' ')
            meta.setdefault(k, []).append(v)
    return meta


def sample(job):
    d = job['read'] if job['read']['io_bytes'] >= job['write']['io_bytes'] else job['write']
    us = lambda ns: (ns or 0) / 1000.0  # noqa: E731
    return {'iops': d['iops'], 'bw_mib': d['bw_bytes'] / 1048576.0,
            'clat_mean_us': us(d['clat_mean_ns']), 'clat_p50_us': us(d['clat_p50_ns']),
            'clat_p99_us': us(d['clat_p99_ns']), 'clat_p999_us': us(d['clat_p999_ns'])}


def load(run, variants, points):
    data = {}
    for v in variants:
        for rdir in sorted(glob.glob(os.path.join(run, 'raw', v, 'r*'))):
            try:
                with open(os.path.join(rdir, 'RESULT')) as f:
                    if f.read().strip() != 'pass':
                        continue
            except OSError:
                continue
            for p in points:
                path = os.path.join(rdir, 'share', 'out', p + '.json')
                if not os.path.exists(path):
                    sys.exit(f'report.py: {path} is missing: the repeat is marked complete '
                             'but has no data for this point')
                jobs = fiojson.jobs(fiojson.load(path))
                data.setdefault((v, p), []).append(sample(jobs[0]))
    return data


def ci_mean(xs):
    n = len(xs)
    m = statistics.fmean(xs)
    if n < 2:
        return m, float('nan')
    half = stats.t.ppf(0.975, n - 1) * statistics.stdev(xs) / math.sqrt(n)
    return m, half


def welch(a, b):
    """95 % interval of mean(b) - mean(a)."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return statistics.fmean(b) - statistics.fmean(a), float('nan')
    va, vb = statistics.variance(a) / na, statistics.variance(b) / nb
    diff = statistics.fmean(b) - statistics.fmean(a)
    if va + vb == 0:
        return diff, 0.0
    dof = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    return diff, stats.t.ppf(0.975, dof) * math.sqrt(va + vb)


def fmt(x):
    if isinstance(x, float) and math.isnan(x):
        return 'n/a'
    return f'{x:.4g}' if abs(x) < 1000 else f'{x:.0f}'


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    run = sys.argv[1].rstrip('/')
    if not os.path.exists(os.path.join(run, 'meta.txt')):
        sys.exit(f'report.py: {run} is not a bench run (no meta.txt); '
                 'give a results/<run-id> directory made by make bench')
    meta = read_meta(run)
    variants = meta['variants'][0].split()
    points = meta.get('point', [])
    data = load(run, variants, points)
    if not data:
        sys.exit(f'report.py: {run} has no completed repeat (no raw/<variant>/r*/RESULT = pass)')
    control = CONTROL if CONTROL in variants else variants[0]
    others = [v for v in variants if v != control]
    lines = ['# sgbench A/B report', '']
    lines.append(f"Run `{meta['run_id'][0]}`: mode **{meta['mode'][0]}**, "
                 f"engine {meta['engine'][0]}, {meta['device'][0]}, "
                 f"{meta['runtime_s'][0]} s guest time per point, base {meta['base'][0]}.")
    complete = all(len(data.get((v, p), [])) == int(meta['repeats'][0]) for v in variants for p in points)
    lines.append('')
    lines.append('Status: ' + ('complete' if complete else
                               '**INCOMPLETE**: some repeats are missing; figures cover completed repeats only'))
    lines += ['', __doc__.split('\n\n', 1)[1].strip(), '']
    summary = {}
    for p in points:
        lines += [f'## {p}', '']
        hdr = '| metric | ' + ' | '.join(f'{v} median (mean ± 95 % CI, n)' for v in variants)
        hdr += ''.join(f' | {o} vs {control}' for o in others) + ' |'
        lines += [hdr, '|' + '---|' * (1 + len(variants) + len(others))]
        for key, label, _, better in METRICS:
            row = [label]
            for v in variants:
                xs = [s[key] for s in data.get((v, p), [])]
                if not xs:
                    row.append('no data')
                    continue
                m, half = ci_mean(xs)
                row.append(f'{fmt(statistics.median(xs))} ({fmt(m)} ± {fmt(half)}, {len(xs)})')
                summary.setdefault(p, {}).setdefault(v, {})[key] = {
                    'median': statistics.median(xs), 'mean': m, 'ci95': half, 'n': len(xs)}
            for o in others:
                a = [s[key] for s in data.get((control, p), [])]
                b = [s[key] for s in data.get((o, p), [])]
                if not a or not b:
                    row.append('n/a')
                    continue
                diff, half = welch(a, b)
                base = statistics.fmean(a)
                pct, hpct = 100 * diff / base, 100 * half / base
                sig = (not math.isnan(half) and abs(diff) > half and len(a) >= 3 and len(b) >= 3)
                word = ''
                if sig:
                    good = (diff > 0) == (better == 'higher')
                    word = ' **significant** (' + ('better' if good else 'worse') + ')'
                row.append(f'{pct:+.2f} % ± {fmt(hpct)} %{word}')
            lines.append('| ' + ' | '.join(row) + ' |')
        lines.append('')
    lines.append('Raw data: `raw/<variant>/r<N>/share/out/<point>.json` (fio json+), guest '
                 'logs beside them (`console.log`, `share/out/dmesg.txt`), run metadata in '
                 '`raw/<variant>/r<N>/run.info` and `meta.txt`.')
    with open(os.path.join(run, 'REPORT.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    with open(os.path.join(run, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write('\n')


main()
