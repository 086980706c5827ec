"""DECISION.md's rows on what the machine pays: the memory of a command's
list by segment count and with commands in flight, and the speed of the
run's points."""
import glob
import json
import os
import statistics

from bench import mdtable
from bench import model
from bench import rerun
from bench import readers
from bench import stats
from bench import tracefs
from bench.decision_lib import pct
from bench.decision_memory import POOL_PREFIX, memory_rows, pool_sizes
from bench.decision_parse import parse_sizes
from bench.decision_rules import SHORT


class DecisionCost:
    """Decision's memory and speed rows."""

    # -- memory
    def memory(self):
        slab = {}
        for path in sorted(glob.glob(os.path.join(self.run, 'raw', '*', '*', 'r*', 'share', 'out', '*.slabinfo'))):
            v = path.split(os.sep)[-5]
            slab.setdefault(v, {}).update(readers.read_slabinfo(path))
        L = [f'## Memory per command: {self.cand} against {self.control}', '',
             mdtable.prose('decision.md', 'memory-intro'), '']
        rows, fixed, basis = {}, {}, {}
        pair = (self.control, self.cand)
        for v in pair:
            kind = self.memory_kind(v)
            prefix = POOL_PREFIX[kind]
            sizes = parse_sizes(self.f(f'sizes-{v}.txt'))
            pools = pool_sizes(slab.get(v, {}), prefix) if prefix else {}
            src = 'slabinfo'
            if prefix and not pools:  # no run data: the object size SLAB_HWCACHE_ALIGN gives
                src = 'computed'
                a = sizes['L1_CACHE_BYTES']
                hdr = sizes.get('offsetof_sg_ring_sg', 0)
                ents = [7, 15, 31, 63, 127] if kind == 'ring' else [8, 16, 32, 64, 128]
                pools = {k: -(-(hdr + k * sizes['sizeof_scatterlist']) // a) * a for k in ents}
            rows[v], fixed[v] = memory_rows(sizes, pools, kind=kind)
            basis[v] = (sizes, pools, kind)
            L.append(f'- {v}: struct scsi_cmnd {sizes["sizeof_scsi_cmnd"]} B, inline array {fixed[v]} B '
                     f'({sizes["SCSI_INLINE_SG_CNT"]} entries of {sizes["sizeof_scatterlist"]} B'
                     + (f' after a {sizes["offsetof_sg_ring_sg"]} B header' if kind == 'ring' else '') + ')'
                     + (f', pools ({src}): ' + ', '.join(f'{prefix}-{k} {sz} B' for k, sz in sorted(pools.items()))
                        if prefix else ', no pool memory: a converted host\'s data buffer has no scatterlist '
                        '(the pdu keeps the inline array for the hosts that are not converted)'))
        c, o = self.control, self.cand
        L += ['', f'| segments | {c} bytes | chunks | {o} bytes | chunks | {o} vs {c} |',
              '|---|---|---|---|---|---|']
        worse = []
        for a, b in zip(rows[c], rows[o]):
            d = pct(b[3], a[3])
            worse.append(d)
            chunks = lambda pl, pre: ' + '.join(f'{pl.count(k)}x{pre}-{k}' for k in sorted(set(pl), reverse=True)) or 'inline'  # noqa: E731
            L.append(f'| {a[0]} | {a[3]} | {chunks(a[4], POOL_PREFIX[basis[c][2]])} | {b[3]} | '
                     f'{chunks(b[4], POOL_PREFIX[basis[o][2]])} | {d:+.1f} % |')
        L.append('')
        # cross-check against the pools in use while 4M requests ran whole
        L += [mdtable.prose('decision.md', 'memory-crosscheck'), '']
        verdicts = []
        for v in pair:
            prefix = POOL_PREFIX[basis[v][2]]
            if not prefix:
                continue
            r = [x for x in rows[v] if x[0] == 1024]
            pred = sorted(set(r[0][4])) if r else []
            grew = set()
            for path in sorted(glob.glob(os.path.join(self.run, 'raw', '*', v, 'r*', 'share', 'out', '*4M*.slabinfo'))):
                parts = path.split(os.sep)
                if model.is_qemu_device(parts[-6]):
                    continue
                point = os.path.basename(path)[:-len('.slabinfo')]
                kib = readers.request_kib(os.path.dirname(path), point)
                if kib is not None and kib < 4096:
                    continue
                for k, x in readers.read_slabinfo(path).items():
                    if k.startswith(prefix + '-') and x['slabs'] > 1:
                        grew.add(int(k.split('-')[1]))
            if not grew:
                L.append(f'- {v}: no 4M slabinfo of scsi_debug in this run.')
                continue
            ok = grew <= set(pred)
            verdicts.append(f'{v} {"consistent" if ok else "NOT consistent"}')
            L.append(f'- {v}: predicted {", ".join(f"{prefix}-{k}" for k in pred)}; grown beyond one slab in the run: '
                     f'{", ".join(f"{prefix}-{k}" for k in sorted(grew))} ({"consistent" if ok else "NOT consistent"}).')
        L.append('')
        measured = self.memory_in_flight(basis, L)
        self.L += L
        lo, hi = min(worse), max(worse)
        ahead = c if statistics.fmean(worse) > 0 else o if statistics.fmean(worse) < 0 else 'even'
        figures = (f'{o} {lo:+.1f} % to {hi:+.1f} % against {c} '
                   f'({rows[o][0][3]} vs {rows[c][0][3]} B at 1 segment, '
                   f'{rows[o][-1][3]} vs {rows[c][-1][3]} B at {rows[o][-1][0]}); computed')
        agree, disagree = (sum(x.count(w) for x in measured) for w in (', agrees)', ', DISAGREES)'))
        self.add('Memory per command (1..2048 segments)', ahead,
                 figures + '; cross-check of the pools used against the run: '
                 + (', '.join(verdicts) if verdicts else 'no slab data')
                 + ('; measured with commands in flight: ' + '; '.join(measured) if measured else
                    '; not measured with commands in flight in this run'), L[0],
                 figures + '; pools used in the run: ' + (', '.join(verdicts) if verdicts else 'no slab data')
                 + (f'; with commands in flight, {agree} of {agree + disagree} measurements (kernel, point) '
                    'agree with the computed bytes' if agree + disagree else
                    '; ' + measured[0] if measured else '; not measured with commands in flight'))

    def memory_in_flight(self, basis, L):
        """The pool bytes per command measured with commands in flight (the
        run's INFLIGHT points, traced: bench/tracefs.py read_inflight) against
        the pool bytes computed for the segments the traced commands had:
        lines appended to L, and the summary's phrases."""
        got, old = [], set()
        for v in (self.control, self.cand):
            sizes, pools, kind = basis[v]
            seen = set()
            for path in sorted(glob.glob(os.path.join(self.run, 'raw', '*', v, 'r*', 'share', 'out', '*.inflight*'))):
                out = os.path.dirname(path)
                p = os.path.basename(path).split('.inflight')[0]
                if p in seen:   # the first boot that has it
                    continue
                seen.add(p)
                x = tracefs.read_inflight(out, p)
                if x is None:
                    if tracefs.inflight_slab_only(out, p):
                        old.add(p)
                    continue
                data = sorted(n for n in x['segments'] if n > 0)
                seg = data[0] if len(data) == 1 else None
                comp = memory_rows(sizes, pools, [seg], kind)[0][0][2] if seg else None
                if not data and x['commands']:
                    seg, comp = 0, 0
                got.append((v, p, seg, x, comp))
        got.sort(key=lambda g: (readers.bs_bytes(readers.split_point(g[1])[1]), g[0] != self.control))
        if not got:
            if old:
                L += ['Measured with commands in flight: this run\'s `INFLIGHT` step is of the runs before the '
                      'trace (slabinfo snapshots only: SLUB\'s active objects include the free objects of the '
                      'CPU slabs, so their growth is not the objects in use); not reconciled.', '']
                return ['the INFLIGHT step predates the trace (slab growth, not objects in use): not reconciled']
            return []
        reserve = {v: 2 * sum(basis[v][1].values()) for v in basis}
        L += [mdtable.prose('decision.md', 'inflight-rule', control=self.control, cand=self.cand,
                            control_reserve=reserve[self.control], ring_reserve=reserve[self.cand]), '',
              '| kernel | point | segments | commands in flight (most at any moment) | steady moments '
              '| measured pool bytes per command | computed | agree |',
              '|---|---|---|---|---|---|---|---|']
        phrases = {}
        for v, p, seg, x, comp in got:
            lo, hi = x['per_command_range'] or (None, None)
            if x['problems']:
                meas, ok = 'not measured: ' + '; '.join(x['problems']), False
            elif lo is None:
                meas, ok = 'not measured: no command in flight', False
            else:
                meas = f'{lo:.0f}' if lo == hi else f'{lo:.0f} to {hi:.0f}'
                ok = comp is not None and lo == hi == comp
            L.append(f"| {v} | {p} | {seg if seg is not None else 'mixed'} | {x['inflight']} ({x['peak']}) | "
                     f"{x['moments']} | {meas} | {comp if comp is not None else 'n/a'} | {'yes' if ok else 'NO'} |")
            phrases.setdefault(p, []).append(f"{v} {meas} B (computed {comp}, {'agrees' if ok else 'DISAGREES'})")
        L.append('')
        return [f'{p} per command: ' + ', '.join(ph) for p, ph in phrases.items()]

    # -- speed, from the run's raw files (bench/model.py), significant results only
    def speed(self):
        if not os.path.exists(os.path.join(self.run, 'meta.txt')):
            return
        run = model.Run(self.run)
        ctl, o = self.control, self.cand
        if o not in run.others or not run.rows:
            return
        fam = run.family(o)
        groups = {}  # device class -> [(device, point, Comparison)]
        for (d, p), c in fam.items():
            cls = 'QEMU disks' if model.is_qemu_device(d) else 'scsi_debug'
            groups.setdefault(cls, []).append((d, p, c))
        kernels = [(fl, r) for fl, r in rerun.other_kernels(self.run) if o in r.others]
        for cls, rows in sorted(groups.items(), key=lambda kv: kv[0] != 'scsi_debug'):
            devs = ', '.join(sorted({d for d, _, _ in rows}))
            # the verdicts of the same matrix on other kernels, where they differ
            kern = kern_short = ''
            for fl, other in kernels:
                ks = [(d, s, b, k) for oo, d, s, _, b, k in rerun.compare(run, other)
                      if oo == o and d in {d for d, _, _ in rows}]
                if not ks:
                    continue
                diff = [(d, s, b, k) for d, s, b, k in ks if k != 'holds']
                kern += (f'; on the {fl} kernels ({other.meta["run_id"][0]}): '
                         + ('the same verdict in every size class' if not diff else
                            f'{len(ks) - len(diff)} of {len(ks)} size classes the same, '
                            + ', '.join(f'{d} {s}: {k}, {rerun.label(b)}, {b.mean:+.2f} %'
                                        for d, s, b, k in diff)))
                kern_short += f'; {fl} kernels: {len(ks) - len(diff)} of {len(ks)} classes the same'

            sig = [c.mean for _, _, c in rows if c.significant]
            fine = stats.resolving([c for _, _, c in rows])['resolve']
            one = sum(1 for _, _, c in rows if c.verdict() == 'one observation')
            unres = sum(1 for _, _, c in rows if c.verdict() == 'not resolved')
            if not sig:
                ahead, how = 'neither shown', 'no point significant'
                how_short = how
            else:
                ahead = (ctl if min(sig) > 0 else o if max(sig) < 0 else 'mixed')
                how = (f'{o} {min(sig):+.2f} % to {max(sig):+.2f} % guest ns per I/O at the '
                       f'{len(sig)} significant points')
                how_short = f'{o} {min(sig):+.2f} % to {max(sig):+.2f} % at {len(sig)} significant points'
            self.add(f'Guest time per I/O (fio over {cls}: {devs})', ahead,
                     f'{how} of {len(rows)} (paired, Holm); {unres} not resolved by the rig; '
                     + (f'{one} one observation (beyond the floor, but the same I/O counts in '
                        'every repeat on both kernels: no interval, no test); ' if one else '')
                     + f'{fine} of {len(rows)} resolve a 0.5 % difference (resolution at most '
                     '0.5 %)' + kern + '; per size class with resolution in REPORT.md',
                     f'REPORT.md#{mdtable.slug(f"Answer: {o} against {ctl}, guest time per I/O")}',
                     f'{how_short} of {len(rows)} (paired, Holm)' + kern_short + f'; {unres} not resolved'
                     + (f', {one} one observation' if one else '')
                     + f'; {fine} of {len(rows)} resolve a 0.5 % difference')
        mb = {}
        for v in (ctl, o):
            got = sorted(glob.glob(os.path.join(self.run, 'raw', '*', v, 'r*', 'share', 'out', 'microbench.json')))
            if got:
                with open(got[0]) as f:
                    mb[v] = {(x['op'], x['nents']): x['median_ns'] for x in json.load(f).get('points', [])}
        if len(mb) == 2:
            parts = []
            for key in sorted(set(mb[ctl]) & set(mb[o])):
                if key[1] in (1, 2048):
                    parts.append(f'{key[0]} {key[1]}: {pct(mb[o][key], mb[ctl][key]):+.0f} %')
            # within 1 % is even: a design that keeps the control's API
            # (dma_iter) runs the same code here
            d = [pct(mb[o][k], mb[ctl][k]) for k in set(mb[ctl]) & set(mb[o])]
            signs = {x > 0 for x in d if abs(x) >= 1.0}
            who = 'even' if not signs else 'mixed' if len(signs) > 1 else (ctl if signs == {True} else o)
            self.add('API alone (sg_api_bench, guest ns per op)', who,
                     f'{o} vs {ctl}: ' + ', '.join(parts),
                     'REPORT.md#the-api-alone-in-kernel-microbenchmark-sg_api_bench',
                     f'{o} vs {ctl}: ' + mdtable.clip(parts, SHORT - 40, ', '))
