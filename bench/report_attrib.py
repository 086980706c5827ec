"""REPORT.md's sections from the attribution runs the bench run draws on
(attrib.txt): exact instructions by phase, the residue, cache misses,
the IOMMU class, and the appendix of functions."""

from bench import attrib_counts
from bench import attrib_evidence
from bench import decision_rules
from bench import mdtable
from bench.report_lib import (APPENDIX, APPENDIX_ANCHOR, APPENDIX_HEADING, IOMMU_COLUMNS, pct,
    sfmt)


class ReportAttrib:
    """Report's sections from the attribution evidence (self.ev)."""

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
        cpairs = ev.pairs(ev.contiguous, m.devices, b)
        if not cpairs:
            return
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'contiguous')
        L += ['', mdtable.prose('report.md', 'contiguous-intro', src=src), '',
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
        if self.ev is not None:
            for b in self.ev.candidates(self.ev.insns):
                self.attribution_of(b)

    def attribution_of(self, b):
        ev, m, L = self.ev, self.m, self.lines
        if not ev.pairs(ev.insns, m.devices, b):
            return
        a = ev.control
        pairs = ev.pairs(ev.insns, m.devices, b)
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'insns')
        L += [ev.heading('## Instructions per I/O, exact (TCG plugin, icount)', ev.insns, b), '',
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
        if not decision_rules.design(b)['residue']:
            return      # the classification is of the design whose decision.tsv names it
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
        if self.ev is not None:
            for b in self.ev.candidates(self.ev.cache):
                self.cache_misses_of(b)

    def cache_misses_of(self, b):
        ev, m, L = self.ev, self.m, self.lines
        if not ev.pairs(ev.cache, m.devices, b):
            return
        a = ev.control
        pairs = ev.pairs(ev.cache, m.devices, b)
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'cache')
        L += [ev.heading('## Cache misses per I/O (a stated model)', ev.cache, b), '',
              mdtable.prose('report.md', 'cache-intro',
                            model=ev.model, src=src, appendix=APPENDIX, anchor=APPENDIX_ANCHOR), '',
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
            L += ['', mdtable.prose('report.md', 'iommu-waits', devices=', '.join(waits))]
        L.append('')

    # -- the IOMMU class: the same counts behind QEMU's intel-iommu
    def iommu_class(self):
        if self.ev is not None:
            for b in self.ev.candidates(self.ev.iommu):
                self.iommu_class_of(b)

    def iommu_class_of(self, b):
        ev, L = self.ev, self.lines
        if not ev.pairs(ev.iommu, list(ev.devices), b):
            return
        a = ev.control
        pairs = ev.pairs(ev.iommu, list(ev.devices), b)
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'iommu')
        rsrc = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'iommu-repeat')
        L += [ev.heading('## Behind an IOMMU: instructions and IOMMU work per I/O (QEMU intel-iommu)', ev.iommu, b), '',
              'The points above run on scsi_debug, which maps nothing for DMA. Here a host adapter that '
              'DMA-maps every command sits behind QEMU\'s intel-iommu, so each mapping is an IOVA '
              'allocation, page-table writes and, at unmap, an IOTLB invalidation (waited for in strict '
              'mode, batched by a flush queue and a timer in lazy mode). Counted as above (insncount, per '
              f'I/O by the difference of N and 2N I/Os in one boot, TCG, icount, 1 vCPU), from {src}'
              + (f', repeated in {rsrc}' if rsrc else '') + f', named in `{attrib_evidence.LINKS}`. The devices:', '']
        L += [f'- {d}: {ev.devices[d]}' for d in ev.devices if any(k[0] == d for k in pairs)]
        layer = ', '.join(attrib_counts.PHASE_NAMES[k] for k in attrib_evidence.SG_LAYER)
        L += ['', 'Instructions per I/O: the scatter/gather layer (' + layer + '; the figure DECISION.md '
              'compares, since a design may move mapping work out of the DMA phase into the request '
              'mapping), of it the DMA map/unmap phase, and the total without the idle spin (the CPU '
              'waiting for QEMU, which depends on the host), ' + f'{a} / {b} (difference, %)'
              + ('; "repeat": the difference in the second run' if rsrc else '') + '.', '']
        heads = ('scatter/gather layer', 'of it DMA map/unmap', 'total without idle')
        L += ['| device | point | ' + ' | '.join(c for h in heads for c in ((h, 'repeat') if rsrc else (h,))) + ' |',
              '|---|---|' + '---|' * (len(heads) * (2 if rsrc else 1))]

        def cells(table, d, p):
            if a not in table.get((d, p), {}) or b not in table.get((d, p), {}):
                return None
            # the layer, of it the DMA phase, and the total without idle
            # of each kernel, from one sum by phase
            per = [attrib_evidence.phase_sums(rules, table[(d, p)][v]) for v in (a, b)]
            return ([sum(ph[k] for k in attrib_evidence.SG_LAYER) for ph in per], [ph['dma'] for ph in per],
                    [sum(x for k, x in ph.items() if k != 'idle') for ph in per])

        def one(x, y):
            return f'{attrib_counts.fmt(x)} / {attrib_counts.fmt(y)} ({sfmt(y - x)}, {pct(100.0 * (y - x) / x) if x else "-"})'

        def diff(x, y):
            return f'{sfmt(y - x)} ({pct(100.0 * (y - x) / x) if x else "-"})'

        for d, p in pairs:
            now = cells(ev.iommu, d, p)
            rep = cells(ev.iommu_repeat, d, p) if rsrc else None
            row = f'| {d} | {p} |'
            for k in range(len(heads)):
                row += f' {one(*now[k])} |'
                if rsrc:
                    row += f' {diff(*rep[k]) if rep else "-"} |'
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

    # -- a DMA-mapping class without an IOMMU, boot set by boot set
    def dma_class(self):
        if self.ev is not None:
            for b in self.ev.dma_candidates():
                self.dma_class_of(b)

    def dma_class_of(self, b):
        ev, L = self.ev, self.lines
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        rows = attrib_evidence.dma_rows(ev, rules, b)
        if not rows:
            return
        a = ev.control
        src = ', '.join(f'`{rel}`' for kind, rel in ev.links if kind == 'dma')
        L += [attrib_evidence.dma_heading(ev, b), '',
              mdtable.prose('report.md', 'dma-intro', src=src, sets=len(ev.dma), links=attrib_evidence.LINKS,
                            phases=', '.join(attrib_counts.PHASE_NAMES[k] for k in attrib_evidence.SG_LAYER)), '']
        L += [f'- {d}: {ev.devices.get(d, d)}' for d in dict.fromkeys(d for d, _, _ in rows)]
        L += ['', f'| device | point | {a}, per boot set | {b}, per boot set | difference, per boot set | '
              'mean (%) | spread | of it DMA map/unmap, mean difference (%) |', '|---|---|---|---|---|---|---|---|']
        for d, p, per in rows:
            diffs, ma, mean, _, _, dd, mda = attrib_evidence.dma_summary(per)
            L.append(f'| {d} | {p} | ' + ', '.join(attrib_counts.fmt(la) for la, _, _, _ in per) + ' | '
                     + ', '.join(attrib_counts.fmt(lb) for _, lb, _, _ in per) + ' | '
                     + ', '.join(sfmt(x) for x in diffs) + f' | {sfmt(mean)} ({pct(100.0 * mean / ma)}) | '
                     f'{attrib_counts.fmt(max(diffs) - min(diffs))} | {sfmt(dd)} ({pct(100.0 * dd / mda) if mda else "-"}) |')
        L += ['', mdtable.prose('report.md', 'dma-spread'), '']

    def attribution_appendix(self):
        """The long tables, in REPORT-appendix.md (self.appendix), and a
        pointer to them in REPORT.md."""
        ev, m, L = self.ev, self.m, self.appendix
        if ev is None or not (ev.candidates(ev.insns) or ev.candidates(ev.cache)):
            return
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        t = mdtable.template('report.md')
        L += [t['appendix-title'], '', mdtable.fill(t, 'appendix-intro', run=m.meta['run_id'][0]), '',
              APPENDIX_HEADING, '']
        self.lines += [t['appendix-link'], '']
        a = ev.control
        for b in ev.candidates(ev.insns):
            L += [f'Per attributed point, the functions whose instructions per I/O differ most ({b} minus '
                  f'{a}, largest first; a function only one kernel has counts 0 in the other).', '']
            for d, p in ev.pairs(ev.insns, m.devices, b):
                pa, pb = ev.insns[(d, p)][a], ev.insns[(d, p)][b]
                diffs = [t for t in attrib_counts.differences(pa, pb) if abs(t[0]) >= 0.5][:12]
                L += [f'{d} {p} (N = {ev.n[("insns", d, p, a)]} and {ev.n[("insns", d, p, b)]}):', '',
                      f'| function | phase | {a} | {b} | difference |', '|---|---|---|---|---|']
                L += [f'| `{n}` | {attrib_counts.phase_of(rules, n)} | {attrib_counts.fmt(pa.get(n, 0.0))} | '
                      f'{attrib_counts.fmt(pb.get(n, 0.0))} | {sfmt(x)} |' for x, n in diffs]
                L.append('')
        for b in ev.candidates(ev.cache):
            L += [f'Cache model ({b} against {a}): per point the functions with the most L1 misses '
                  '(instruction plus data) per I/O in either kernel.', '']
            for d, p in ev.pairs(ev.cache, m.devices, b):
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
