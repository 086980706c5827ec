"""decision.py - the decision report: what each API costs the people who
write and review the code.

  decision.py collect RUN   read the trees (the series applied to the base in
                            a private repository borrowing build/git's
                            objects) and the built kernel's own compiler
                            flags; write the raw evidence to RUN/raw/decision/
  decision.py render RUN    write RUN/DECISION.md (the summary, on about two
                            screens) and RUN/DECISION-appendix.md (each row in
                            full, the tables behind it) from RUN/raw/decision/
                            and the run's raw files alone (same files, same
                            bytes)

Collecting needs git, pmccabe, universal-ctags, gcc and a configured
build/<variant>/obj (for its generated headers and the kernel's own flags);
rendering needs only Python.  Every figure in both files is computed from
the files under raw/decision/ and the run's raw/ tree; the rules (what is
counted, how) are stated next to each table and are the constants below.
"""
import os
import re
import sys

from bench import attrib_counts
from bench import mdtable
from bench.decision_collect import series_hash
from bench import model
from bench import readers
from bench import variants
from bench.decision_code import DecisionCode
from bench.decision_collect import collect
from bench.decision_cost import DecisionCost
from bench.decision_exact import DecisionExact
from bench.decision_lib import counted_at, die, read, write_atomic
from bench.decision_memory import ring_arrays
from bench import decision_rules
from bench.decision_rules import APPENDIX, MAP_PER_ARRAY, SHORT


class Decision(DecisionCode, DecisionCost, DecisionExact):
    def __init__(self, run):
        self.run = run
        self.raw = os.path.join(run, 'raw', 'decision')
        if not os.path.isdir(self.raw):
            sys.exit(f'decision.py: {self.raw} is missing: run make decision RUN={run} first')
        self.L = []
        # (criterion, ahead, by how much, link, short verdict, key, candidate):
        # the summary rows, in full in DECISION-appendix.md, short in DECISION.md
        self.summary = []
        self._evidence = False
        self._designs = {}
        self._table = None      # the variant table, read once (memory_kind)
        names = self.run_variants()
        self.control = variants.control(names)
        self.candidates = [v for v in names if v != self.control]
        self.cand = self.candidates[0]

    def run_variants(self):
        """The run's variants: meta.txt's, else those the evidence has a
        numstat of (a run folder of the evidence alone)."""
        meta = os.path.join(self.run, 'meta.txt')
        if os.path.exists(meta):
            kv = readers.read_kv(meta)
            if 'variants' in kv:
                return kv['variants'][0].split()
        got = sorted(n[len('numstat-'):-len('.txt')] for n in os.listdir(self.raw) if n.startswith('numstat-'))
        if len(got) < 2:
            sys.exit(f'decision.py: {self.raw} has numstat files of {len(got)} variants: rerun make decision RUN={self.run}')
        return variants.ordered(got)

    def design(self, v):
        """variants/<v>/decision.tsv (bench/decision_rules.py design), read once."""
        if v not in self._designs:
            self._designs[v] = decision_rules.design(v)
        return self._designs[v]

    def drivers(self, v=None):
        """The drivers V's series converts, or those of every design of the
        run: of its decision.tsv, those its diffstat in this run's evidence
        has (a run collected before a series converted more drivers is
        rendered as it was collected)."""
        vs = [v] if v else [self.control] + self.candidates
        out = set()
        for x in vs:
            stat = os.path.join(self.raw, f'numstat-{x}.txt')
            have = None
            if os.path.exists(stat):
                with open(stat) as f:
                    have = {ln.rstrip('\n').split('\t')[-1] for ln in f}
            out |= {d for d in self.design(x)['drivers'] if have is None or d in have}
        return tuple(sorted(out))

    def raw_name(self, stem, v, ext, old=None):
        """raw/decision/STEM-V.EXT, or OLD (else STEM.EXT) where the evidence
        predates the per-design names."""
        name = f'{stem}-{v}{ext}'
        if os.path.exists(os.path.join(self.raw, name)):
            return name
        return old or f'{stem}{ext}'

    def add(self, criterion, ahead, full, link, short=None, key=None):
        """A summary row of the current candidate (self.cand): FULL (by how
        much, in full) and LINK (its detail: a path, an anchor, or the
        detail's own heading) in the appendix; SHORT (FULL where it is
        short enough) in DECISION.md's table, under KEY (the criterion
        unless given)."""
        if link.startswith('#'):
            link = '#' + mdtable.slug(link.lstrip('#'))
        if short is None:
            short = full if len(full) <= SHORT else mdtable.clip(full.split('; '), SHORT - 40) + \
                ' (in full in the appendix)'
        self.summary.append((criterion, ahead, full, link, short, key or criterion, self.cand))

    def f(self, name):
        path = os.path.join(self.raw, name)
        if not os.path.exists(path):
            sys.exit(f'decision.py: {path} is missing: rerun make decision RUN={self.run}')
        return read(path)

    def series_changed(self, v):
        """True if V's series is no longer the one this run's evidence was
        collected from (raw/decision/trees.txt's series_sha256 against
        variants/V's series now)."""
        for line in self.f('trees.txt').splitlines():
            w = line.split()
            if w and w[0] == v and 'series_sha256' in w:
                return w[w.index('series_sha256') + 1] != series_hash(v)
        return False

    def pairs_any(self, ev, table, devices):
        """[(device, point)] of TABLE where the control and any candidate were
        attributed (bench/attrib_evidence.py Evidence.pairs per candidate)."""
        out = []
        for o in self.candidates:
            out += [k for k in ev.pairs(table, devices, o) if k not in out]
        return out

    def cannot_short(self):
        """What this rig cannot show, in a summary cell: what the figures
        are, whether caches and an IOMMU were measured."""
        t = mdtable.template('decision.md')
        got = self.evidence()
        ev, run = got if got else (None, None)
        cache = bool(ev and self.pairs_any(ev, ev.cache, run.devices))
        ipairs = self.pairs_any(ev, ev.iommu, list(ev.devices)) if ev else []
        adapters = ', '.join(sorted({ev.devices[d].split()[0] for d, _ in ipairs}))
        iommu = mdtable.fill(t, 'cannot-iommu', adapters=adapters) if ipairs else t['cannot-no-iommu']
        return mdtable.fill(t, 'cannot-short', caches=t['cannot-caches' if cache else 'cannot-no-caches'], iommu=iommu)

    def cannot_show(self):
        """The first item of "What this rig cannot show": what the speed
        figures are, and, with attribution evidence, what it covers."""
        got = self.evidence()
        ev, run = got if got else (None, None)
        cache = ev and self.pairs_any(ev, ev.cache, run.devices)
        insns = ev and self.pairs_any(ev, ev.insns, run.devices)
        if not (cache or insns):
            return ('- Speed figures come from QEMU TCG, not hardware; in the deterministic mode (icount) guest '
                    'time counts instructions and no caches are modelled, so a difference is one of '
                    'instruction path length. The extra cache lines a ring header or a chain entry costs, '
                    'and IOMMU or real-HBA behaviour, are not measured.')
        done = sorted({p for _, p in (insns or []) + (cache or [])}, key=attrib_counts.point_key)
        left = [p for p in run.points if p not in done]
        groups = {}  # (rw, queue depth) -> the sizes not attributed
        for p in sorted(left, key=attrib_counts.point_key):
            rw, bs, qd = readers.split_point(p)
            groups.setdefault((rw, qd), []).append(bs)
        every = {}
        for p in run.points:
            rw, bs, qd = readers.split_point(p)
            every.setdefault((rw, qd), []).append(bs)
        gaps = [f'{rw} qd{qd}' + ('' if len(bs) == len(every[(rw, qd)]) else f' ({", ".join(bs)})')
                for (rw, qd), bs in sorted(groups.items())]
        txt = ('- Speed figures come from QEMU TCG, not hardware; in the deterministic mode (icount) guest '
               'time counts instructions, so a difference is one of instruction path length.')
        if cache:
            txt += (f' Caches: this cache model ({ev.model}, write-allocate, no prefetcher), these misses '
                    '(REPORT.md); a model, not any CPU: no miss costs guest time.')
        else:
            txt += ' No caches are modelled.'
        ipts = sorted({p for _, p in insns or []}, key=attrib_counts.point_key)
        cpts = sorted({p for _, p in cache or []}, key=attrib_counts.point_key)
        if ipts == cpts:
            txt += ' Instructions and cache misses per I/O are counted by function ' + counted_at(run.points, ipts)
        else:
            txt += (' Instructions per I/O are counted by function ' + counted_at(run.points, ipts)
                    + (', cache misses ' + counted_at(run.points, cpts) if cpts else ''))
        txt += (f' ({len(left)} of the run\'s {len(run.points)} points have neither: ' + '; '.join(gaps) + ')'
                if left else '') + '.'
        ipairs = self.pairs_any(ev, ev.iommu, list(ev.devices))
        if ipairs:
            txt += (' IOMMU behaviour is measured only on QEMU\'s intel-iommu with an emulated host adapter ('
                    + ', '.join(sorted({ev.devices[d].split()[0] for d, _ in ipairs})) + '; '
                    + ', '.join(d for d in ev.devices if any(k[0] == d for k in ipairs)) + '; '
                    + ', '.join(sorted({p for _, p in ipairs}, key=attrib_counts.point_key))
                    + '); a real IOMMU\'s invalidation costs and real HBAs are not measured.')
            for o in self.candidates:
                arrays = ring_arrays(ev, ipairs, o) if self.memory_kind(o) == 'ring' else None
                if arrays is not None:
                    txt += (f' The rings mapped there have at most {attrib_counts.fmt(arrays)} arrays a command ({o}\'s '
                            f'`{MAP_PER_ARRAY}()` calls per command): a ring of more arrays behind an IOMMU, the '
                            'case where mapping array by array would cost most, is not measured.')
        else:
            txt += ' IOMMU behaviour (an IOMMU device class) and real HBAs are not measured.'
        return txt

    def memory_kind(self, v):
        """How V's converted hosts take pool memory (its variant file's memory
        key); a variant the table no longer has is read as chained."""
        if self._table is None:
            self._table = variants.load()
        return self._table.get(v, {}).get('memory', 'chained')

    def criteria(self):
        """Every criterion's rows for the current candidate."""
        self.churn()
        self.complexity()
        self.surface()
        self.conversion()
        self.memory()
        self.speed()
        self.exact()
        self.iommu()
        self.dma_class()

    def table(self, t):
        """DECISION.md's summary: one row per criterion, one column per
        candidate against the control (who is ahead, the short verdict and
        a link to it in full); a criterion a candidate has no evidence for
        says so."""
        keys = []
        for x in self.summary:
            if x[5] not in keys:
                keys.append(x[5])
        # a cell's verdict: SHORT for one candidate, shorter for more, so
        # that the summary stays on about two screens
        limit = min(SHORT, max(160, 360 // len(self.candidates)))
        cells = {(x[5], x[6]): x for x in self.summary}
        head = '| criterion | ' + ' | '.join(f'{o} against {self.control}' for o in self.candidates) + ' |'
        rows = [head, '|---' * (len(self.candidates) + 1) + '|']
        for key in keys:
            out = []
            for o in self.candidates:
                x = cells.get((key, o))
                if not x:
                    out.append('no evidence for this design in this run')
                    continue
                short = x[4] if len(x[4]) <= limit else mdtable.clip(x[4].split('; '), limit - 40)
                out.append(f'**{x[1]}**: {short} ([in full]({APPENDIX}#{mdtable.slug(self.full_heading(x))}))')
            rows.append(mdtable.row(key, *out))
        cannot = t['cannot-heading']
        rows.append(mdtable.row(cannot.lstrip('# '), *([self.cannot_short() + f' ([in full]({APPENDIX}#{mdtable.slug(cannot)}))']
                                                      + ['as on the left'] * (len(self.candidates) - 1))))
        return rows

    @staticmethod
    def full_heading(x):
        """The appendix heading of summary row X: its key and candidate."""
        return f'{x[5]}: {x[6]}'

    def write(self):
        for o in self.candidates:
            self.cand = o
            self.criteria()
        t = mdtable.template('decision.md')
        trees = self.f('trees.txt').strip().splitlines()
        meta = os.path.join(self.run, 'meta.txt')
        rid = f"Run `{readers.read_kv(meta)['run_id'][0]}`. " if os.path.exists(meta) else ''
        devices = []
        if os.path.exists(meta):
            got = self.evidence()
            devices = mdtable.devices_of(got[1] if got else model.Run(self.run), got[0] if got else None)
        cannot = t['cannot-heading']
        dec = [t['title'], '', mdtable.fill(t, 'intro', run=rid, control=self.control,
                                            candidates=', '.join(self.candidates)), '']
        dec += (mdtable.headline(devices) if devices else [])
        dec += ['## Summary', ''] + self.table(t)
        app = [t['appendix-title'], '', mdtable.fill(t, 'appendix-intro', run=rid), '']
        # no machine's paths in a report: a build directory as the
        # project's relative path (evidence collected before said it whole)
        trees = [re.sub(r'(?<=\s)/\S*?/(build/)', r'\1', x) for x in trees]
        app += [f'- {x}' for x in trees] + ['', t['rows-heading'], '']
        for x in self.summary:
            c, a, full, link, _, key, o = x
            app += [f'### {self.full_heading(x)}', ''] + ([f'**{c}**', ''] if c != key else [])
            app += [f'Ahead: **{a}**. {full}.', '',
                    f'Detail: [{link.split("#")[-1] if "#" in link else link}]({link})', '']
        app += [cannot, '',
                self.cannot_show(),
                '- Complexity is measured on this project\'s ports of the candidates against 6.1\'s '
                'matured code; lines and McCabe numbers say how much code there is to read, not how hard a '
                'bug in it is to find.',
                '- The conversion count is a text match: it cannot tell a driver that only ever sees '
                'single-array commands (and so would work unconverted) from one that needs real work; '
                'sg_tablesize values set at run time are listed as unresolved.',
                '- Memory counts the slab object sizes of this config (SLUB, 64-byte cache lines); '
                'mempool reserves and slab slack are not charged per command.', '']
        write_atomic(os.path.join(self.run, APPENDIX), '\n'.join(app + self.L).rstrip('\n') + '\n')
        write_atomic(os.path.join(self.run, 'DECISION.md'), '\n'.join(dec) + '\n')


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('collect', 'render'):
        sys.exit(__doc__)
    rundir = sys.argv[2].rstrip('/')
    if not os.path.isdir(rundir):
        die(f'{rundir} is not a directory: give a results/<run-id> directory')
    if sys.argv[1] == 'collect':
        collect(rundir)
    else:
        Decision(rundir).write()


if __name__ == '__main__':
    main()
