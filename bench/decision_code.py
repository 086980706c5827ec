"""DECISION.md's rows on the code people write and review: the churn of the
series, the complexity of the functions that do each job, the API surface,
and the conversion of the drivers (measured by the semantic patch)."""
import os
import sys

from bench import decision_rules
from bench import mdtable
from bench.decision_lib import pct, split_functions
from bench.decision_parse import (api_calls, churn, churn_class, ctags_json, ctags_xformat,
    parse_cocci, parse_ctags, parse_defines, parse_grep, parse_groups, parse_numstat, parse_sizes,
    parse_tablesize, resolve, subsystem)
from bench.decision_rules import (ACCESSORS, ACCESSOR_DEF, CLASSES, CONTROL, DRIVERS, NOT_API,
    RING, ROLES_BEFORE_COMMON, SURFACE_HEADERS, TABLESIZE_RX)


class DecisionCode:
    """Decision's rows from the trees (raw/decision/)."""

    # -- churn
    def churn(self):
        rows = {v: churn(parse_numstat(self.f(f'numstat-{v}.txt'))) for v in (RING, CONTROL)}
        L = ['## Churn', '',
             'Diffstat of each variant against the base (`git diff --numstat`, raw: '
             '[numstat-sg_ring.txt](raw/decision/numstat-sg_ring.txt), '
             '[numstat-sg_table.txt](raw/decision/numstat-sg_table.txt)): files, lines added, '
             'lines removed.  API = include/linux, lib, block, kernel/dma; SCSI core = drivers/scsi '
             'and include/scsi except the converted drivers; drivers = ' + ', '.join(os.path.basename(d) for d in DRIVERS) + '; '
             'tests = KUnit suite, microbenchmark, Kconfig.debug (both variants carry the same ones).', '',
             '| part | ' + ' | '.join(f'{v} files | +lines | -lines' for v in (RING, CONTROL)) + ' |',
             '|---|' + '---|---|---|' * 2]
        for c in CLASSES + ['total']:
            if all(rows[v][c][0] == 0 for v in rows):
                continue
            L.append(f'| {c} | ' + ' | '.join(f'{rows[v][c][0]} | +{rows[v][c][1]} | -{rows[v][c][2]}'
                                             for v in (RING, CONTROL)) + ' |')
        L.append('')
        self.L += L
        ch = {v: sum(rows[v][c][1] + rows[v][c][2] for c in CLASSES if c != 'tests') for v in rows}
        api = {v: rows[v]['API'][1] + rows[v]['API'][2] for v in rows}
        users = {v: sum(rows[v][c][1] + rows[v][c][2] for c in ('SCSI core', 'drivers')) for v in rows}
        ahead = CONTROL if ch[CONTROL] < ch[RING] else RING
        self.add('Churn (lines changed outside the tests)', ahead,
                 f'{ch[RING]} lines for {RING} ({api[RING]} API, {users[RING]} SCSI core and drivers) '
                 f'against {ch[CONTROL]} for {CONTROL} (the incumbent: it is the base)', '#churn')

    # -- complexity
    def complexity(self):
        pm = {v: {(r[5], r[6]): tuple(int(x) for x in r[:5]) for r in
                  (ln.split('\t') for ln in self.f(f'pmccabe-{v}.tsv').splitlines())}
              for v in ('base', RING)}
        bodies = {v: split_functions(self.f(f'functions-{v}.c')) for v in ('base', RING)}
        L = ['## Complexity of the code each design needs', '',
             'The functions doing each job, the sg_table code from the base and the sg_ring code from '
             'the patched tree: length (lines of the function, pmccabe), cyclomatic complexity '
             '(pmccabe\'s traditional McCabe, summed over the functions of the job) and the distinct '
             'functions and macros they call (an identifier followed by `(`, without C keywords and '
             'generic helpers: ' + ', '.join(sorted(NOT_API)) + '). Raw: '
             '[pmccabe-base.tsv](raw/decision/pmccabe-base.tsv), '
             '[pmccabe-sg_ring.tsv](raw/decision/pmccabe-sg_ring.tsv), the function text in '
             '[functions-base.c](raw/decision/functions-base.c) and '
             '[functions-sg_ring.c](raw/decision/functions-sg_ring.c).', '',
             '| job | who writes it | sg_table functions | lines | McCabe | calls | sg_ring functions | lines | McCabe | calls |',
             '|---|---|---|---|---|---|---|---|---|---|']
        tot = {'base': {}, RING: {}}
        detail = []
        for role, who, tab, ring in decision_rules.ROLES:
            cells = []
            for v, fns in (('base', tab), (RING, ring)):
                missing = [f'{x[0]}:{x[1]}' for x in fns if x not in pm[v] or x not in bodies[v]]
                old = ROLES_BEFORE_COMMON.get(role, ())
                if v == 'base' and missing and old and all(x in pm[v] and x in bodies[v] for x in old):
                    fns, missing = old, []
                if missing:
                    sys.exit(f'decision: {self.run}/raw/decision has no {v} evidence for {", ".join(missing)} '
                             f'(collected before that function was compared): rerun make decision RUN={self.run}')
                lines = sum(pm[v][x][4] for x in fns)
                mcc = sum(pm[v][x][1] for x in fns)
                calls = sorted(set().union(*(api_calls(bodies[v][x], x[1]) for x in fns)) -
                               {fn for _, fn in fns})
                cells.append((', '.join(f'`{fn}`' for _, fn in fns), lines, mcc, calls))
                t = tot[v].setdefault(who, [0, 0, set()])
                t[0] += lines
                t[1] += mcc
                t[2] |= set(calls)
            L.append(f'| {role} | {who} | ' + ' | '.join(f'{c[0]} | {c[1]} | {c[2]} | {len(c[3])}'
                                                      for c in cells) + ' |')
            detail.append(f'- {role}: sg_table calls ' + (', '.join(cells[0][3]) or 'nothing') +
                          '; sg_ring calls ' + (', '.join(cells[1][3]) or 'nothing') + '.')
        L.append('')
        L += ['Per author (sums over the jobs above; calls = distinct names over the jobs):', '',
              '| who | sg_table lines | McCabe | calls | sg_ring lines | McCabe | calls |', '|---|---|---|---|---|---|---|']
        # the 6.1 functions the sg_ring code calls once per array, per author
        base_at = {fn: x for r in decision_rules.ROLES for x in r[2] for fn in [x[1]]}
        ring_fns = {fn for r in decision_rules.ROLES for _, fn in r[3]}
        reused = {}
        for r in decision_rules.ROLES:
            for x in r[3]:
                for c in api_calls(bodies[RING][x], x[1]):
                    if c in base_at and c not in ring_fns:
                        reused.setdefault(r[1], set()).add(c)
        for who in ('API', 'SCSI core', 'driver'):
            a, b = tot['base'].get(who, [0, 0, set()]), tot[RING].get(who, [0, 0, set()])
            if not a[0] and not b[0]:
                continue
            L.append(f'| {who} | {a[0]} | {a[1]} | {len(a[2])} | {b[0]} | {b[1]} | {len(b[2])} |')
            ru = sorted(reused.get(who, ()))
            rl = sum(pm['base'][base_at[fn]][4] for fn in ru)
            rm = sum(pm['base'][base_at[fn]][1] for fn in ru)
            ahead = 'even' if a[1] == b[1] else (CONTROL if a[1] < b[1] else RING)
            txt = (f'McCabe {b[1]} vs {a[1]} ({pct(b[1], a[1]):+.0f} % for sg_ring), '
                   f'lines {b[0]} vs {a[0]} ({pct(b[0], a[0]):+.0f} %)')
            if ru:
                whole = 'even' if a[1] == b[1] + rm else (CONTROL if a[1] < b[1] + rm else RING)
                if whole != ahead:
                    ahead = f'{ahead} (own code); {whole} (with the 6.1 functions it calls)'
                txt += (f'; counting the {len(ru)} per-array 6.1 functions sg_ring calls, McCabe '
                        f'{b[1] + rm} ({pct(b[1] + rm, a[1]):+.0f} %), lines {b[0] + rl} ({pct(b[0] + rl, a[0]):+.0f} %)')
            self.add(f'Complexity, {who} code (McCabe, lines)', ahead, txt,
                     '#complexity-of-the-code-each-design-needs')
        allre = sorted(set().union(*reused.values())) if reused else []
        if allre:
            L += ['', 'The sg_ring code reuses these functions of the sg_table column, once per array: ' +
                  ', '.join(f'`{n}`' for n in allre) + '; its lines and McCabe numbers above are what the '
                  'ring adds on top of them (the summary gives both).']
        L += ['', 'The calls, job by job:', ''] + detail + ['']
        self.L += L

    # -- surface
    def surface(self):
        tags, raw = {}, {}
        for v in ('base', RING):
            # runs before ctags' JSON kept ctags -x text
            if os.path.exists(os.path.join(self.raw, f'ctags-{v}.json')):
                raw[v] = f'ctags-{v}.json'
                recs = ctags_json(self.f(raw[v]))
            else:
                raw[v] = f'ctags-{v}.txt'
                recs = ctags_xformat(self.f(raw[v]))
            per = {}
            for r in recs:
                per.setdefault(r['path'], []).append(r)
            tags[v] = {h: parse_ctags(x) for h, x in per.items()}
        sgt = tags['base'].get('include/linux/scatterlist.h', [])
        ring_own = tags[RING].get('include/linux/sg_ring.h', [])
        added, removed = [], []
        for h in SURFACE_HEADERS:
            if h in ('include/linux/scatterlist.h', 'include/linux/sg_ring.h'):
                continue
            a, b = set(tags['base'].get(h, [])), set(tags[RING].get(h, []))
            added += [(h, k, n) for k, n in sorted(b - a)]
            removed += [(h, k, n) for k, n in sorted(a - b)]

        def count(items, kind):
            return sum(1 for it in items if it[-2] == kind)
        kinds = ['function', 'macro', 'struct field']
        ring_all = [(k, n) for k, n in ring_own] + [(k, n) for _, k, n in added]
        L = ['## API surface', '',
             mdtable.prose('decision.md', 'surface-intro', base=raw['base'], ring=raw[RING]), '',
             '| | functions | macros | struct fields | total |', '|---|---|---|---|---|']
        for label, items in (('sg_table: scatterlist.h', sgt), ('sg_ring: sg_ring.h', ring_own),
                             ('sg_ring: added to other headers', [(k, n) for _, k, n in added]),
                             ('sg_ring: removed from other headers', [(k, n) for _, k, n in removed]),
                             ('sg_ring: new names in all', ring_all)):
            c = [count(items, k) for k in kinds]
            L.append(f'| {label} | ' + ' | '.join(map(str, c)) + f' | {sum(c)} |')
        L += ['', 'sg_ring names: ' + ', '.join(f'`{n}`' for _, n in ring_all) + '.', '']
        if removed:
            L += ['Removed from other headers by the series: ' + ', '.join(f'`{n}` ({h})' for h, _, n in removed) + '.', '']
        self.L += L
        gone = removed
        self.add('API surface (names a user may meet)', CONTROL if ring_all else 'even',
                 f'sg_ring adds {len(ring_all)} names ({count(ring_all, "function")} functions, '
                 f'{count(ring_all, "macro")} macros, {count(ring_all, "struct field")} fields) and '
                 f'removes {len(gone)}; scatterlist.h\'s {len(sgt)} stay for the rest of the kernel '
                 f'(sg_ring\'s own {len(ring_all)} are '
                 + ('fewer than' if len(ring_all) < len(sgt) else 'not fewer than') +
                 f' those {len(sgt)}, if the chained API could ever go)', '#api-surface')

    # -- conversion
    def measured_conversion(self, base_sites):
        """The conversion itself: the series' hand conversions and what the
        semantic patch does over the rest of the tree."""
        L = ['### The conversion, measured', '']
        hand = [(a, r, p) for a, r, p in parse_numstat(self.f(f'numstat-{RING}.txt'))
                if churn_class(p) in ('drivers', 'SCSI core')]
        L += ['By hand, in the series (`git diff --numstat` base..sg_ring, raw: '
              '[numstat-sg_ring.txt](raw/decision/numstat-sg_ring.txt)): the SCSI core (which carries '
              'the transition) and the drivers converted to the ring calls:', '',
              '| file | part | lines added | lines removed |', '|---|---|---|---|']
        for a, r, p in sorted(hand, key=lambda x: (churn_class(x[2]), x[2])):
            L.append(f'| `{p}` | {churn_class(p)} | {a} | {r} |')
        for c in ('SCSI core', 'drivers'):
            rows = [x for x in hand if churn_class(x[2]) == c]
            L.append(f'| total, {len(rows)} file{"s" if len(rows) != 1 else ""} | {c} | '
                     f'{sum(x[0] for x in rows)} | {sum(x[1] for x in rows)} |')
        L.append('')
        if not os.path.exists(os.path.join(self.raw, f'cocci-{RING}.diff')):
            return L + ['The semantic patch was not run in this run\'s evidence (it predates it): '
                        f'`make decision RUN={self.run}` collects it.', ''], ''
        groups = parse_groups(self.f('cocci-groups.txt'))
        done = parse_cocci(self.f(f'cocci-{RING}.diff'))
        gfiles = {p for g in groups for p in g}
        sites = sum(1 for p, _, _ in base_sites if p in gfiles)
        rewritten = sum(v[2] for v in done.values())
        flagged = [g for g in groups if any(done.get(p, [0, 0, 0, False])[3] for p in g)]
        touched = [g for g in groups if any(p in done for p in g)]
        hand_cocci = parse_cocci(self.f('cocci-hand-base.diff'))
        L += [mdtable.prose('decision.md', 'conversion-measured', ring=RING), '',
              '| | drivers | files | lines added | lines removed | accessor sites |',
              '|---|---|---|---|---|---|',
              f'| the rest of the tree (outside the SCSI core and the drivers above) | {len(groups)} | '
              f'{len(gfiles)} | | | {sites} |',
              f'| changed by the semantic patch | {len(touched)} | {len(done)} | '
              f'{sum(v[0] for v in done.values())} | {sum(v[1] for v in done.values())} | '
              f'{rewritten} rewritten ({100.0 * rewritten / sites:.0f} %) |' if sites else '| changed | | | | | |',
              f'| of which converted whole (template flagged) | {len(flagged)} | | | | |',
              f'| left to the transition or to a hand conversion | {len(groups) - len(flagged)} | | | | '
              f'{sites - rewritten} |', '']
        L += [f'Of the series\' own hand conversions ({", ".join("`" + d.split("/")[-1] + "`" for d in DRIVERS)}), '
              f'the semantic patch run on their base versions changes {len(hand_cocci)} '
              '(raw: [cocci-hand-base.diff](raw/decision/cocci-hand-base.diff)): '
              + ('each has a use the rule leaves to a hand conversion (the kinds are listed in the '
                 'rule\'s header). ' if not hand_cocci else '')
              + 'The semantic patch\'s output measures how much of the rest is mechanical; it is '
              'not applied to the series (most of those drivers are not in the project\'s config); '
              'the transition keeps every one of them correct unconverted.', '']
        return L, (f'; the semantic patch converts {len(flagged)} of {len(groups)} other drivers whole '
                   f'({len(done)} files, +{sum(v[0] for v in done.values())} '
                   f'-{sum(v[1] for v in done.values())} lines), the other {len(groups) - len(flagged)} '
                   'stay on the transition until converted by hand')

    def conversion(self):
        sizes = parse_sizes(self.f(f'sizes-{RING}.txt'))
        inline, chunk = sizes['SCSI_INLINE_SG_CNT'], sizes['SG_RING_CHUNK_SIZE']
        g = {v: parse_grep(self.f(f'accessors-{v}.txt')) for v in ('base', RING)}
        L = ['## Conversion cost for the rest of the kernel', '',
             mdtable.prose('decision.md', 'conversion-intro',
                           accessors='|'.join(ACCESSORS), accessor_def=ACCESSOR_DEF), '']
        mc, self.cocci = self.measured_conversion(g['base'])
        L += mc
        totals = {}
        for v in ('base', RING):
            files = {p for p, _, _ in g[v]}
            direct = [x for x in g[v] if 'table' in x[2]]
            totals[v] = (len(g[v]), len(files), len(direct), len({p for p, _, _ in direct}),
                         len({(p, ln) for p, ln, _ in g[v]}))
        L += ['| tree | call sites | lines | files | of which sdb.table sites | in files |', '|---|---|---|---|---|---|']
        for v, label in (('base', 'base 6.1'), (RING, 'after the sg_ring series')):
            t = totals[v]
            L.append(f'| {label} | {t[0]} | {t[4]} | {t[1]} | {t[2]} | {t[3]} |')
        L += ['', 'By subsystem and accessor (base 6.1):', '']
        names = sorted({m for _, _, m in g['base']})
        subs = {}
        for p, _, m in g['base']:
            s = subs.setdefault(subsystem(p), {'files': set()})
            s['files'].add(p)
            s[m] = s.get(m, 0) + 1
        L += ['| subsystem | files | sites | ' + ' | '.join(names) + ' |', '|---|---|---|' + '---|' * len(names)]
        for s in sorted(subs, key=lambda s: (-sum(v for k, v in subs[s].items() if k != 'files'), s)):
            n = sum(v for k, v in subs[s].items() if k != 'files')
            L.append(f'| {s} | {len(subs[s]["files"])} | {n} | ' + ' | '.join(str(subs[s].get(m, 0)) for m in names) + ' |')
        L.append('')
        # sg_tablesize
        ts = parse_tablesize(self.f('sg_tablesize-base.txt'))
        known = {k: v for k, v in parse_sizes(self.f(f'sizes-{CONTROL}.txt')).items()
                 if k in ('SG_MAX_SEGMENTS', 'SG_CHUNK_SIZE', 'SG_ALL')}
        defs = parse_defines(self.f('sg_tablesize-defines-base.txt'), known)
        vals = [(p, ln, txt, resolve(txt, p, defs)) for p, ln, txt in ts]
        known = [x for x in vals if x[3] is not None]
        unknown = [x for x in vals if x[3] is None]
        over_inline = sorted({p for p, _, _, v in known if v > inline})
        over_chunk = sorted({p for p, _, _, v in known if v > chunk})
        L += ['### Drivers with an sg_tablesize above one array', '',
              mdtable.prose('decision.md', 'tablesize-intro',
                            rx=TABLESIZE_RX, inline=inline, chunk=chunk), '',
              '| | assignments | files |', '|---|---|---|',
              f'| all | {len(vals)} | {len({x[0] for x in vals})} |',
              f'| value known | {len(known)} | {len({x[0] for x in known})} |',
              f'| value > {inline} (inline head) | {sum(1 for x in known if x[3] > inline)} | {len(over_inline)} |',
              f'| value > {chunk} (one pool array) | {sum(1 for x in known if x[3] > chunk)} | {len(over_chunk)} |',
              f'| value not resolved | {len(unknown)} | {len({x[0] for x in unknown})} |', '']
        if unknown:
            L += ['Not resolved (a variable, a module parameter, a function of the hardware, or a macro '
                  'with several definitions):', '']
            L += [f'- `{p}:{ln}`: `{txt}`' for p, ln, txt, _ in unknown]
            L.append('')
        L += [f'Files with a value above one pool array ({chunk}): ' +
              ', '.join(f'`{p}`' for p in over_chunk) + '.', '']
        self.L += L
        b, r = totals['base'], totals[RING]
        self.add('Conversion cost for the rest of 6.1', CONTROL,
                 f'{b[0]} uses of the single-array accessors in {b[1]} files ({r[0]} in {r[1]} after '
                 'the series), all correct unchanged for hosts without use_sg_ring'
                 f'{self.cocci}; '
                 f'{len(over_chunk)} files set sg_tablesize above one pool array ({chunk}) and get '
                 f'smaller requests until converted, {len({x[0] for x in unknown})} '
                 'unresolved; sg_table needs none', '#conversion-cost-for-the-rest-of-the-kernel',
                 f'{b[0]} uses of the single-array accessors in {b[1]} files, all correct unchanged for hosts '
                 f'without use_sg_ring; {len(over_chunk)} files set sg_tablesize above one pool array ({chunk}) '
                 'and get smaller requests until converted; sg_table needs none')
