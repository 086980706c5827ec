#!/usr/bin/python3
"""report.py RUN - REPORT.md of a reliability run (tests/reliability/run.sh
--full) from its raw files alone: per boot RUN/<boot>/{results.tsv,
figures.tsv, int-*.json, kmemleak.txt, dma-api.txt, soak.tsv, console.log.gz,
run.info, RESULT, complete}, and RUN/PARTS (the parts run.sh ran)."""
import collections
import glob
import gzip
import json
import os
import re
import sys

# what qemu/judge.sh counts as a kernel report
REPORT_RE = re.compile(r'Kernel panic|Oops:|BUG:|WARNING:|KASAN:|UBSAN:|general protection fault|'
                       r'list_(add|del) corruption|possible circular locking|inconsistent lock state|'
                       r'unreferenced object|INFO: task .* blocked|rcu_sched self-detected stall|RCU Stall|'
                       r'DMA-API: (?!preallocated [0-9]+ debug entries|debugging enabled by kernel config|'
                       r'dma_debug_entry pool grown to)')


TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def regenerate_path(run):
    """The run directory as the regenerate line names it: relative to the
    checkout, and under its final name (run.sh writes the report while the
    directory is still RUN.partial and renames it when complete)."""
    path = os.path.relpath(os.path.abspath(run), TOP)
    if path.endswith('.partial'):
        path = path[:-len('.partial')]
    return path


def read_tsv(path, n):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip('\n').split('\t')
                rows.append((parts + [''] * n)[:n])
    return rows


def fio_bytes(path):
    """(written, read-for-verify) bytes of one fio JSON file."""
    with open(path) as f:
        text = f.read()
    text = text[text.index('{'):]  # fio may print notes before the JSON
    w = r = 0
    for job in json.loads(text)['jobs']:
        w += job['write']['io_kbytes'] * 1024
        r += job['read']['io_kbytes'] * 1024
    return w, r


def info(path):
    d = {}
    if os.path.exists(path):
        for line in open(path):
            k, _, v = line.rstrip('\n').partition(' ')
            d[k] = v
    return d


def variant(run, v):
    d = os.path.join(run, v)
    res = read_tsv(os.path.join(d, 'results.tsv'), 3)
    figs = read_tsv(os.path.join(d, 'figures.tsv'), 3)
    w = r = 0
    bad_json = []
    for j in sorted(glob.glob(os.path.join(d, 'int-*.json'))):
        try:
            a, b = fio_bytes(j)
            w, r = w + a, r + b
        except (ValueError, KeyError) as e:
            bad_json.append(f'{os.path.basename(j)} ({e.__class__.__name__})')
    reports = []
    cl = os.path.join(d, 'console.log.gz')
    if os.path.exists(cl):
        with gzip.open(cl, 'rt', errors='replace') as f:
            reports = [ln.strip() for ln in f if REPORT_RE.search(ln)]
    leaks = 0
    km = os.path.join(d, 'kmemleak.txt')
    if os.path.exists(km):
        leaks = open(km).read().count('unreferenced object')
    groups = collections.OrderedDict()
    for name, st, why in res:
        g = '/'.join(name.split('/')[:2]) if name.split('/')[0] in ('errors', 'alloc', 'pi') else name.split('/')[0]
        groups.setdefault(g, []).append((name, st, why))
    fig = collections.defaultdict(dict)
    for scen, key, val in figs:
        fig[scen][key] = val
    return dict(res=res, groups=groups, fig=fig, w=w, r=r, bad_json=bad_json, reports=reports,
                leaks=leaks, info=info(os.path.join(d, 'run.info')),
                dma=info(os.path.join(d, 'dma-api.txt')),
                level=open(os.path.join(d, 'complete')).read().strip() if os.path.exists(os.path.join(d, 'complete')) else '',
                result=open(os.path.join(d, 'RESULT')).read().strip() if os.path.exists(os.path.join(d, 'RESULT')) else 'none',
                complete=os.path.exists(os.path.join(d, 'complete')))


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit('usage: report.py RUN-DIRECTORY (a results/reliability-<date> directory)')
    run = sys.argv[1]
    shown = regenerate_path(run)
    vs = sorted(x for x in os.listdir(run) if os.path.isfile(os.path.join(run, x, 'run.info')))
    if not vs:
        sys.exit(f'{run}: no variant directories with run.info: not a reliability run')
    pf = os.path.join(run, 'PARTS')
    parts = open(pf).read().split() if os.path.exists(pf) else ['suite', 'qemu-disks']
    out = ['# Reliability suite', '',
           'Debug kernels: common/guest.config + common/debug.config (KASAN generic inline, kmemleak, '
           'PROVE_LOCKING, DEBUG_SG, DEBUG_LIST, DMA_API_DEBUG(_SG), failslab, fail_page_alloc, '
           'fail_make_request; INTEL_IOMMU for the IOMMU run). '
           'Parts run: ' + ', '.join(parts) + ' (tests/reliability/run.sh: suite = plan.sh, qemu-disks = '
           'tests/guest/qemu-disks.sh, hba = tests/guest/qemu-hba.sh, all on the debug kernels; iommu = '
           'tests/reliability/iommu.sh on the debug kernels under intel-iommu; soak = '
           'tests/reliability/soak.sh on the normal kernels). Any kernel report or DMA-API debug report '
           'in the console log, any DMA-API error counted, any kmemleak object, any fio error or mismatch '
           'fails. Regenerate with `/usr/bin/python3 tests/reliability/report.py ' + shown + '`.', '']
    summary = ['| boot | kernel | complete | verdict | checks passed | GiB written | GiB verified | errors injected | '
               'kmemleak objects | DMA-API errors | debug reports | guest wall s |',
               '|---|---|---|---|---|---|---|---|---|---|---|---|']
    body = []
    for v in vs:
        s = variant(run, v)
        flavour = 'debug' if s['info'].get('flavour') == 'debug' else 'normal'
        dma_err = s['dma'].get('error_count', '-')
        npass = sum(1 for _, st, _ in s['res'] if st == 'passed')
        inj = sum(int(f.get('injected', 0) or 0) for f in s['fig'].values())
        verdict = 'pass' if (s['result'] == 'pass' and s['complete'] and npass == len(s['res'])
                             and not s['reports'] and not s['leaks'] and dma_err in ('0', '-')) else 'FAIL'
        summary.append(f"| {v} | {flavour} | {s['level'] or '?'} | {verdict} | {npass}/{len(s['res'])} | "
                       f"{s['w'] / 2**30:.2f} | {s['r'] / 2**30:.2f} | {inj} | {s['leaks']} | {dma_err} | "
                       f"{len(s['reports'])} | "
                       f"{s['info'].get('wall_seconds', '?').split('.')[0]} |")
        body += [f'## {v}', '',
                 f"Kernel: {s['info'].get('kernel_release', '?')}, series {s['info'].get('series_sha256', '?')[:12]}, "
                 f"config {s['info'].get('config_sha256', '?')[:12]}; mode {s['info'].get('mode', '?')}, "
                 f"{s['info'].get('cpus', '?')} vCPUs, {s['info'].get('memory_mb', '?')} MB; "
                 f"guest run verdict: `{s['result']}`; plan {'complete' if s['complete'] else 'INCOMPLETE'}.", '',
                 '| scenario | checks passed | injected | handled | sg slab objects before / after | in flight after |',
                 '|---|---|---|---|---|---|']
        for g, rows in s['groups'].items():
            f = s['fig'].get(g, {})
            p = sum(1 for _, st, _ in rows if st == 'passed')
            sl = f"{f['slab_before']} / {f['slab_after']}" if 'slab_before' in f else ''
            body.append(f"| {g} | {p}/{len(rows)} | {f.get('injected', '')} | {f.get('handled', '')} | {sl} | "
                        f"{f.get('inflight_after', '')} |")
        if 'soak' in s['fig']:
            f = s['fig']['soak']
            mib, secs = int(f.get('mib_written', 0)), float(f.get('seconds', 0) or 0)
            body += ['', f"Soak: {mib / 1024:.2f} GiB written and verified in {f.get('rounds', '?')} rounds "
                     f"over {f.get('disks', '?')} disks in {secs:.0f} s of guest uptime "
                     f"({mib / secs if secs else 0:.1f} MiB/s written, each byte also read back; "
                     f"rounds in soak.tsv)."]
        iom = [(k, f) for k, f in s['fig'].items() if 'iommu_maps' in f]
        if iom:
            body += ['', '| IOMMU: adapter/scenario | commands | most segments per command | IOMMU maps | '
                     'maps per command | bytes mapped | '
                     'bytes unmapped | page-table entries after (baseline) | DMA-API entries after (baseline) |',
                     '|---|---|---|---|---|---|---|---|---|']
            for k, f in iom:
                base = s['fig'].get(k.split('/')[0], {})
                cmds = int(f.get('commands', 0) or 0)
                per = f"{int(f['iommu_maps']) / cmds:.2f}" if cmds else ''
                body.append(f"| {k} | {f.get('commands', '')} | {f.get('max_segments', '')} | {f['iommu_maps']} | "
                            f"{per} | "
                            f"{f.get('iommu_bytes_mapped', '')} | {f.get('iommu_bytes_unmapped', '')} | "
                            f"{f.get('pte_after', '')} ({base.get('pte_baseline', '')}) | "
                            f"{f.get('dma_api_after', '')} ({base.get('dma_api_baseline', '')}) |")
        d = s['fig'].get('iommu', {})
        if 'dmar_faults' in d:
            st, why = next(((st, w) for n, st, w in s['res'] if n == 'iommu/no-dma-at-a-mapped-iova'),
                           ('missing', 'no check iommu/no-dma-at-a-mapped-iova'))
            body += ['', f"DMAR faults (`iommu/no-dma-at-a-mapped-iova` {st}): {why}."]
        fails = [(n, w) for n, st, w in s['res'] if st != 'passed']
        if fails:
            body += ['', 'Failed checks:', ''] + [f'- `{n}`: {w}' for n, w in fails]
        if s['reports']:
            body += ['', 'Kernel reports in the console log (first 10):', ''] + [f'    {x}' for x in s['reports'][:10]]
        if s['bad_json']:
            body += ['', 'Unreadable fio JSON: ' + ', '.join(s['bad_json'])]
        body.append('')
    out += summary + [''] + body
    out += ['"GiB written" and "GiB verified" sum the fio write and verify-read bytes of the data '
            'integrity runs (int-*.json: block sizes, queue depths, hosts and LUNs, bssplit, PI, '
            'failslab). "injected" is what the kernel or the driver counted (fault-injection `times`, '
            'scsi_debug aborts and resets, dispatches beyond completed requests, sense reports in dmesg); '
            '"handled" is the number of those that fio either never saw (data verified) or saw as the '
            'expected error.', '']
    print('\n'.join(out))


if __name__ == "__main__":
    main()
