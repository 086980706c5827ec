"""REPORT.md's sections on what the time goes to and what memory is held:
the perf profiles, the ceilings of each disk, the requests the disk
saw, slab memory, the memory with commands in flight, the memcpy
microbenchmark."""
import os
import statistics

from bench import mdtable
from bench import readers
from bench import tracefs
from bench.readers import ceil_bw, kernel_memcpy, perf_bench_memcpy
from bench.report_lib import num


class ReportPerf:
    """Report's sections from the run's perf, ceiling, block stat, slab and
    trace files."""

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
              'repeat: the symbols with the largest shares of all samples, per kernel, and those whose '
              'shares differ most between the kernels. '
              + (f"Sampling starts {m.meta['perf_delay_ms'][0]} ms (guest time) after fio, past its "
                 'start-up and ramp, and runs to fio\'s exit (its teardown included). '
                 if 'perf_delay_ms' in m.meta else
                 'The profile covers the whole fio command, start-up included (dynamic linking, '
                 'clearing the buffers\' pages: clear_page_*, get_user_pages), not the measured window '
                 'alone. ')
              + 'perf perturbs what it samples: the profiled run is an extra run with the sampling '
              'interrupt and perf\'s own work in it, and a share of samples is not a share of '
              'instructions. No symbol groups are summed here: the phases of an I/O are counted '
              'exactly, per function, by the attribution (the sections on instructions per I/O above, '
              '`bench/attrib-phases.txt`), which is the figure to read. '
              'The idle loop is named so: perf shows it under whichever name '
              'kallsyms gives its address (6.1: `__sched_text_end` = `__cpuidle_text_start` = '
              '`native_safe_halt`; on the AMD CPU QEMU models, `amd_e400_idle`). perf.data and the '
              'guest\'s kallsyms are kept beside the fio files: '
              '`perf report -i <point>.perf.data --kallsyms <kallsyms>` re-opens them. The kernels '
              'are different builds, so their profiles are compared by symbol name, each resolved with '
              'its own kallsyms. In icount mode the sampling clock counts instructions, so a strictly '
              'periodic I/O loop can alias with the sampling period: read shares of a few % as '
              'indications.', '']
        for d, p, got in specs:
            L += [f'### {d} {p}', '']
            for v in m.variants:
                if v in got:
                    L += [f'{v} top symbols: ' + ', '.join(f'{s} {pc:.1f} %' for pc, s in sorted(got[v], key=lambda t: -t[0])[:8]), '']
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
              mdtable.prose('report.md', 'ceilings-intro'), '']
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
              mdtable.prose('report.md', 'slabinfo-intro'), '',
              '| device | kernel | points | slabs x objects per slab x object size |', '|---|---|---|---|']
        L += rows
        L.append('')
        self.inflight()

    def inflight(self):
        """The sg pool memory with commands really in flight (INFLIGHT),
        counted exactly from the trace (bench/tracefs.py read_inflight)."""
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
        L += [mdtable.prose('report.md', 'inflight-intro', ns=ns), '',
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
