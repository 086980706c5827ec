"""REPORT.md's table at a glance: one row per device class and size, one
column per candidate against the control, every row saying what measured
it.  The fio classes (guest time per I/O, the size's points, paired
repeats), the DMA-mapping class of the attribution runs (the
scatter/gather layer's exact instructions per I/O, boot set by boot set)
and the IOMMU class (the same layer behind QEMU's intel-iommu, per run)
share it, so that a reader sees on the first screen that scsi_debug maps
no DMA and where a class that does stands."""
from bench import attrib_counts
from bench import attrib_evidence
from bench import mdtable
from bench.report_lib import pct, plus_minus


def fio_cell(c):
    """A size class's comparison in a few words: the difference and its
    verdict, with its resolution."""
    if c.significant:
        return f'**{plus_minus(c)}**'
    if c.verdict() == 'one observation':
        return f'{pct(c.mean)}, one observation (floor {pct(c.floor, False)})'
    if c.resolved:
        return f'{plus_minus(c)}, no difference shown'
    return f'not resolved ({pct(c.mean)}; resolution {pct(c.resolution, False)})'


def dma_cell(per):
    """A point of the DMA-mapping class: the mean layer difference in %,
    and whether every boot set agrees beyond their spread."""
    _, base, mean, spread, resolved, _, _ = attrib_evidence.dma_summary(per)
    text = f'{pct(100.0 * mean / base)} ({len(per)} boot sets, spread {pct(100.0 * spread / base, False)})'
    return f'**{text}**' if resolved else f'{text}, not resolved'


def iommu_cell(ev, phases, d, p, cand):
    """A point of the IOMMU class: the scatter/gather layer's difference in
    %, of it the DMA map/unmap phase's, in each run of the point (the run
    and its repeat, where attrib.txt names one); resolved (bold) only where
    two runs agree in sign."""
    runs = [t[(d, p)] for t in (ev.iommu, ev.iommu_repeat)
            if (d, p) in t and ev.control in t[(d, p)] and cand in t[(d, p)]]
    if not runs:
        return '-'
    parts, signs = [], set()
    for t in runs:
        (la, da), (lb, db) = (attrib_evidence.sg_layer(phases, t[v]) for v in (ev.control, cand))
        parts.append(f'{pct(100.0 * (lb - la) / la)} (DMA map/unmap {pct(100.0 * (db - da) / da) if da else "-"})')
        signs.add(lb > la)
    text = ' and '.join(parts)
    if len(runs) < 2:
        return f'{text}, one run'
    return f'**{text}**' if len(signs) == 1 else f'{text}, the runs disagree in sign'


class ReportGlance:
    """Report's table at a glance."""

    def glance(self):
        m = self.m
        head = ['device', 'size', 'class'] + [f'{o} against {m.control}' for o in m.others] + ['measured by']
        rows, said = [], []
        rules = mdtable.read_device_classes()
        kind = {}
        for d, desc, _, _ in mdtable.devices_of(m, self.ev):
            cells = mdtable.classify(desc, rules)
            kind[d] = cells[0] if cells else d
        for d in m.devices:
            sizes = dict.fromkeys(s for (dd, s) in self.cls[m.others[0]] if dd == d) if m.others else {}
            for s in sizes:
                cells = [fio_cell(self.cls[o][(d, s)][0]) if (d, s) in self.cls[o] else '-' for o in m.others]
                rows.append([d, s, kind.get(d, d)] + cells +
                            [f'fio: guest time per I/O, {m.repeats} repeats, the size\'s points'])
        ev = self.ev
        if ev is not None and ev.dma:
            phases = attrib_counts.read_phases(attrib_evidence.PHASES)
            per_cand = {o: {(d, p): per for d, p, per in attrib_evidence.dma_rows(ev, phases, o)}
                        for o in ev.dma_candidates() if o in m.others}
            keys = list(dict.fromkeys(k for t in per_cand.values() for k in t))
            said += ['glance-dma'] if keys else []
            for d, p in keys:
                cells = [dma_cell(per_cand[o][(d, p)]) if (d, p) in per_cand.get(o, {}) else '-'
                         for o in m.others]
                rows.append([d, p, kind.get(d, d)] + cells +
                             ['exact counts of the scatter/gather layer only (no speed figure: the disk '
                              'completes in host time)'])
        if ev is not None and ev.iommu:
            phases = attrib_counts.read_phases(attrib_evidence.PHASES)
            keys = list(dict.fromkeys(k for o in m.others for k in ev.pairs(ev.iommu, list(ev.devices), o)))
            said += ['glance-iommu'] if keys else []
            for d, p in keys:
                cells = [iommu_cell(ev, phases, d, p, o) for o in m.others]
                rows.append([d, p, kind.get(d, d)] + cells +
                            ['exact counts of the scatter/gather layer (of it the DMA map/unmap phase) '
                             'behind the IOMMU (no speed figure: the disk completes in host time)'])
        if not rows:
            return []
        intro = ' '.join([mdtable.prose('report.md', 'glance-intro', control=m.control)] +
                         [mdtable.prose('report.md', b) for b in said])
        return [intro, '',
                '| ' + ' | '.join(head) + ' |', '|---' * len(head) + '|'] + \
            [mdtable.row(*r) for r in rows] + ['']
