"""DECISION.md's rows from the attribution runs the bench run draws on:
exact instructions per I/O, with contiguous buffers, and the IOMMU class."""
import os

from bench import attrib_counts
from bench import attrib_evidence
from bench import mdtable
from bench import model
from bench import readers
from bench.decision_lib import ahead_by_size, pct, same_layout, span, span_by_device
from bench.decision_rules import SHORT


class DecisionExact:
    """Decision's rows from the attribution evidence."""

    # -- exact counts and the cache model, from the attribution runs attrib.txt names
    def evidence(self):
        """The attribution evidence (bench/attrib_evidence.py Evidence) and the run
        (bench/model.py Run), or None; read once."""
        if self._evidence is False:
            self._evidence = None
            if os.path.exists(os.path.join(self.run, attrib_evidence.LINKS)) and \
                    os.path.exists(os.path.join(self.run, 'meta.txt')):
                run = model.Run(self.run)
                self._evidence = attrib_evidence.Evidence(self.run, run.points, run.control), run
        return self._evidence

    def report_link(self, ev, table, title):
        """REPORT.md's section TITLE of the current candidate's figures of TABLE."""
        return 'REPORT.md#' + mdtable.slug(ev.heading(title, table, self.cand))

    def exact(self):
        got = self.evidence()
        if not got:
            return
        ev, run = got
        pairs = ev.pairs(ev.insns, run.devices, self.cand)
        if pairs:
            parts, signs, by_dev = [], {}, {}
            for d, p in pairs:
                x, y = (sum(ev.insns[(d, p)][v].values()) for v in (self.control, self.cand))
                parts.append(f'{d} {p} {attrib_evidence.sfmt(y - x)} ({pct(y, x):+.2f} %)')
                signs.setdefault(readers.size_class(p), set()).add(y > x)
                by_dev.setdefault(d, []).append(pct(y, x))
            who = ahead_by_size(signs, self.control, self.cand)
            pts = {p for _, p in pairs}
            where = ('every point of the run' if set(run.points) <= pts else
                     ', '.join(sorted({p.split('-')[0] + ' qd' + str(readers.split_point(p)[2]) for p in pts})))
            self.add('Instructions per I/O, exact (insncount TCG plugin, icount; ' + where + ')', who,
                     f'{self.cand} - {self.control} per I/O: ' + ', '.join(parts)
                     + '; counted, not sampled, by function and phase in REPORT.md'
                     + same_layout(ev, pairs, self.cand),
                     self.report_link(ev, ev.insns, '## Instructions per I/O, exact (TCG plugin, icount)'),
                     f'{self.cand} - {self.control} per I/O at {len(pairs)} (device, point) pairs: '
                     + span_by_device(by_dev) + same_layout(ev, pairs, self.cand))
            self.contiguous(ev, run)
            # the classification (attrib_evidence.RESIDUE, the file the
            # design's residue record names) is of that design's difference only
            residue = self.design(self.cand)['residue']
            items = attrib_evidence.read_residue_classes(attrib_evidence.RESIDUE) if residue else []
            res, brief = [], []
            at = attrib_evidence.read_residue_points(attrib_evidence.RESIDUE) if residue else []
            for d, p in [k for k in pairs if k[1] in at]:
                a, b = ev.insns[(d, p)][self.control], ev.insns[(d, p)][self.cand]
                r = attrib_evidence.residue(a, b, items)
                by = {c: sum(it[4] for it in r['items'] if it[0] == c) for c in attrib_evidence.CLASSES}
                bound = (f', resolution {attrib_counts.fmt(sum(a.values()) * ev.resolution[0] / 100)}'
                         if ev.resolution else '')
                brief.append(f'{d} {p} {attrib_evidence.sfmt(r["total"])} = inherent {attrib_evidence.sfmt(by["inherent"])} + '
                             f'incidental {attrib_evidence.sfmt(by["incidental"])} + measurement '
                             f'{attrib_evidence.sfmt(by["measurement"])} + remainder {attrib_evidence.sfmt(r["rest"])}')
                res.append(f'{brief[-1]} (the N/2N residue{bound})')
            if res:
                self.add('The 4k deficit, every instruction of it (issue 16)', self.control,
                         '; '.join(res) + '; item by item, with what would remove the incidental '
                         'part, in REPORT.md',
                         'REPORT.md#the-4k-difference-every-instruction-of-it',
                         mdtable.clip(brief, SHORT - 60) + '; the remainder is the N/2N residue')
        cpairs = ev.pairs(ev.cache, run.devices, self.cand)
        if cpairs:
            parts, per_size, each = [], {}, {k: [] for k, _ in attrib_evidence.CACHE_MISSES}
            for d, p in cpairs:
                per_size.setdefault((d, readers.size_class(p)), []).append(p)
            for d, p in cpairs:
                f = {k: sum(sum(x[k] for x in ev.cache[(d, p)][v].values()) for v in (self.cand,))
                     - sum(sum(x[k] for x in ev.cache[(d, p)][v].values()) for v in (self.control,))
                     for k, _ in attrib_evidence.CACHE_MISSES}
                for k in f:
                    each[k].append(f[k])
                # the size alone names the point only if it is the size's one point
                name = p if len(per_size[(d, readers.size_class(p))]) > 1 else readers.size_class(p)
                parts.append(f'{d} {name} ' + '/'.join(attrib_evidence.sfmt(f[k]) for k, _ in attrib_evidence.CACHE_MISSES))
            low = min(sum(x[k] for x in ev.cache[key][v].values())
                      for key in cpairs for v in (self.control, self.cand) for k, _ in attrib_evidence.CACHE_MISSES)
            noise = f', and totals as low as {attrib_counts.fmt(low)} show its noise' if low < 0 else ''
            self.add(f'Cache misses per I/O under a stated model ({ev.model})', 'not resolved',
                     f'{self.cand} - {self.control}, L1I/L1D/L2 misses per I/O: ' + ', '.join(parts)
                     + '; one cachesim boot per kernel, so the resolution is not measured: each '
                     'figure is the difference of two runs' + noise,
                     self.report_link(ev, ev.cache, '## Cache misses per I/O (a stated model)'),
                     f'{self.cand} - {self.control} misses per I/O at {len(cpairs)} (device, point) pairs: '
                     + ', '.join(f'{lab} ' + span(attrib_evidence.sfmt(min(each[k])), attrib_evidence.sfmt(max(each[k])))
                                 for k, lab in attrib_evidence.CACHE_MISSES)
                     + '; one cachesim boot per kernel, so the resolution is not measured' + noise,
                     'Cache misses per I/O under a stated model')

    def contiguous(self, ev, run):
        """attrib.txt's contiguous runs (multi-page bvecs) in one summary row."""
        pairs = ev.pairs(ev.contiguous, run.devices, self.cand)
        if not pairs:
            return
        parts, signs, by_dev, bvecs = [], {}, {}, []
        for d, p in pairs:
            x, y = (sum(ev.contiguous[(d, p)][v].values()) for v in (self.control, self.cand))
            bv = ev.bvecs.get(('contiguous', d, p), {}).get(self.cand)
            parts.append(f'{d} {p} {attrib_evidence.sfmt(y - x)} ({pct(y, x):+.2f} %'
                         + (f', {attrib_counts.fmt(bv[1])} bvecs' if bv else '') + ')')
            signs.setdefault(readers.size_class(p), set()).add(y > x)
            by_dev.setdefault(d, []).append(pct(y, x))
            if bv:
                bvecs.append(bv[1])
        who = ahead_by_size(signs, self.control, self.cand)
        self.add('Instructions per I/O, exact, with contiguous buffers (multi-page bvecs, as the '
                 'bench\'s buffers have)', who,
                 f'{self.cand} - {self.control} per I/O (bvecs per I/O): ' + ', '.join(parts)
                 + '; beside the bvec-per-page counts in REPORT.md'
                 + same_layout(ev, pairs, self.cand, 'contiguous'),
                 self.report_link(ev, ev.insns, '## Instructions per I/O, exact (TCG plugin, icount)'),
                 f'{self.cand} - {self.control} per I/O at {len(pairs)} (device, point) pairs'
                 + (f' ({attrib_counts.fmt(min(bvecs))} to {attrib_counts.fmt(max(bvecs))} bvecs per I/O)' if bvecs else '')
                 + ': ' + span_by_device(by_dev) + same_layout(ev, pairs, self.cand, 'contiguous'),
                 'Instructions per I/O, exact, with contiguous buffers')

    def iommu(self):
        """The IOMMU class (attrib.txt's iommu runs) in one summary row."""
        got = self.evidence()
        if not got:
            return
        ev = got[0]
        order = list(ev.devices)
        pairs = ev.pairs(ev.iommu, order, self.cand)
        if not pairs:
            return
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        parts, signs, brief, again = [], set(), [], []
        for d in order:
            cells, short = [], []
            for dd, p in pairs:
                if dd != d:
                    continue
                # the whole layer: a design may move work between its
                # phases (dma_iter maps in "map the request" what
                # dma_map_sg() does in the DMA phase)
                (x, dx), (y, dy) = (attrib_evidence.sg_layer(rules, ev.iommu[(d, p)][v])
                                    for v in (self.control, self.cand))
                rep = ev.iommu_repeat.get((d, p), {})
                cell = (f'{readers.size_class(p)} {attrib_evidence.sfmt(y - x)} ({pct(y, x):+.1f} %; '
                        f'DMA map/unmap phase {attrib_evidence.sfmt(dy - dx)})')
                short.append(f'{readers.size_class(p)} {pct(y, x):+.1f} %')
                if self.control in rep and self.cand in rep:
                    rx, ry = (attrib_evidence.sg_layer(rules, rep[v])[0] for v in (self.control, self.cand))
                    cell += f', repeat {attrib_evidence.sfmt(ry - rx)}'
                    signs.add(ry > rx)
                    again.append((ry > rx) == (y > x))
                signs.add(y > x)
                c = ev.calls[('iommu', d, p)]
                cell += (f', IOVA allocations {attrib_counts.fmt2(c[self.control].get("alloc_iova_fast", 0.0))}/'
                         f'{attrib_counts.fmt2(c[self.cand].get("alloc_iova_fast", 0.0))}')
                cells.append(cell)
            if cells:
                parts.append(f'{d}: ' + '; '.join(cells))
                brief.append(f'{d}: ' + ', '.join(short))
        who = self.control if signs == {True} else self.cand if signs == {False} else 'mixed'
        self.add('Behind an IOMMU (QEMU intel-iommu; exact instructions per I/O in the scatter/gather '
                 'layer, ' + ', '.join(sorted({p for _, p in pairs}, key=attrib_counts.point_key)) + ')', who,
                 f'{self.cand} - {self.control}, ' + ' | '.join(parts) + f' ({self.control}/{self.cand} per I/O)',
                 self.report_link(ev, ev.iommu, '## Behind an IOMMU: instructions and IOMMU work per I/O (QEMU intel-iommu)'),
                 f'{self.cand} - {self.control} per I/O in the scatter/gather layer, '
                 + mdtable.clip(brief, SHORT - 120, ' | ')
                 + (f'; the repeat run gives the same sign at {sum(again)} of {len(again)} (device, point) pairs'
                    if again else '; not repeated'),
                 'Behind an IOMMU (QEMU intel-iommu; the scatter/gather layer, exact)')

    def dma_class(self):
        """The DMA-mapping class (attrib.txt's dma boot sets) in one summary
        row: the scatter/gather layer per I/O, the difference per boot set,
        resolved where its sign is the same in every set and its mean
        exceeds the sets' spread."""
        got = self.evidence()
        if not got:
            return
        ev = got[0]
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        rows = attrib_evidence.dma_rows(ev, rules, self.cand)
        if not rows:
            return
        parts, brief, by_size = [], [], {}
        for d, p, per in rows:
            diffs, base, mean, spread, resolved, ddma, _ = attrib_evidence.dma_summary(per)
            size = readers.size_class(p)
            parts.append(f'{d} {size} {attrib_evidence.sfmt(mean)} ({100.0 * mean / base:+.1f} %; '
                         f'per boot set ' + ', '.join(attrib_evidence.sfmt(x) for x in diffs)
                         + f'; spread {attrib_counts.fmt(spread)}'
                         + ('' if resolved else '; not resolved') + f'; DMA map/unmap {attrib_evidence.sfmt(ddma)})')
            brief.append(f'{d} {size} {100.0 * mean / base:+.1f} %'
                         + ('' if resolved else ' (not resolved)'))
            by_size.setdefault(size, set()).add((mean > 0) if resolved else None)
        ahead = {sz: (self.control if v == {True} else self.cand if v == {False} else 'not resolved')
                 for sz, v in by_size.items()}
        who = '; '.join(f'{w} at {", ".join(sz for sz in ahead if ahead[sz] == w)}'
                        for w in (self.control, self.cand, 'not resolved') if w in ahead.values())
        devs = ', '.join(dict.fromkeys(d for d, _, _ in rows))
        link = 'REPORT.md#' + mdtable.slug(attrib_evidence.dma_heading(ev, self.cand))
        self.add(f'A DMA-mapping class ({devs}, dma-direct; the scatter/gather layer, exact, '
                 f'{len(ev.dma)} boot sets)', who,
                 f'{self.cand} - {self.control} per I/O in the scatter/gather layer: ' + '; '.join(parts),
                 link,
                 f'{self.cand} - {self.control} per I/O in the scatter/gather layer, mean of {len(ev.dma)} boot '
                 'sets: ' + ', '.join(brief),
                 'A DMA-mapping class: the scatter/gather layer (exact, boot by boot)')
