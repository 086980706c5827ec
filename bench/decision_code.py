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
from bench.decision_rules import (ACCESSORS, ACCESSOR_DEF, CLASSES, NOT_API, ROLES_BEFORE_COMMON,
    TABLESIZE_RX)


class DecisionCode:
    """Decision's rows from the trees (raw/decision/)."""

    # -- churn
    def churn(self):
        c, o = self.control, self.cand
        drivers = self.drivers()
        rows = {v: churn(parse_numstat(self.f(f'numstat-{v}.txt')), drivers) for v in (o, c)}
        L = [f'## Churn: {o} against {c}', '',
             'Diffstat of each variant against the base (`git diff --numstat`, raw: '
             f'[numstat-{o}.txt](raw/decision/numstat-{o}.txt), '
             f'[numstat-{c}.txt](raw/decision/numstat-{c}.txt)): files, lines added, '
             'lines removed.  API = include/linux, lib, block, kernel/dma; SCSI core = drivers/scsi '
             'and include/scsi except the converted drivers; drivers = '
             + ', '.join(os.path.basename(d) for d in drivers) + ' (the drivers the designs\' series convert); '
             'tests = KUnit suites, microbenchmark, Kconfig.debug.', '',
             '| part | ' + ' | '.join(f'{v} files | +lines | -lines' for v in (o, c)) + ' |',
             '|---|' + '---|---|---|' * 2]
        for k in CLASSES + ['total']:
            if all(rows[v][k][0] == 0 for v in rows):
                continue
            L.append(f'| {k} | ' + ' | '.join(f'{rows[v][k][0]} | +{rows[v][k][1]} | -{rows[v][k][2]}'
                                             for v in (o, c)) + ' |')
        L.append('')
        self.L += L
        ch = {v: sum(rows[v][k][1] + rows[v][k][2] for k in CLASSES if k != 'tests') for v in rows}
        api = {v: rows[v]['API'][1] + rows[v]['API'][2] for v in rows}
        users = {v: sum(rows[v][k][1] + rows[v][k][2] for k in ('SCSI core', 'drivers')) for v in rows}
        ahead = c if ch[c] < ch[o] else o
        self.add('Churn (lines changed outside the tests)', ahead,
                 f'{ch[o]} lines for {o} ({api[o]} API, {users[o]} SCSI core and drivers) '
                 f'against {ch[c]} for {c} (the incumbent: it is the base)', L[0])

    # -- complexity
    def complexity(self):
        c, o = self.control, self.cand
        roles = {'base': self.design(c)['roles'], o: self.design(o)['roles']}
        pm = {v: {(r[5], r[6]): tuple(int(x) for x in r[:5]) for r in
                  (ln.split('\t') for ln in self.f(f'pmccabe-{v}.tsv').splitlines())}
              for v in ('base', o)}
        bodies = {v: split_functions(self.f(f'functions-{v}.c')) for v in ('base', o)}
        L = [f'## Complexity of the code each design needs: {o} against {c}', '',
             f'The functions doing each job (variants/<name>/decision.tsv), the {c} code from the '
             f'control\'s tree and the {o} code from its patched tree: length (lines of the function, '
             'pmccabe), cyclomatic complexity '
             '(pmccabe\'s traditional McCabe, summed over the functions of the job) and the distinct '
             'functions and macros they call (an identifier followed by `(`, without C keywords and '
             'generic helpers: ' + ', '.join(sorted(NOT_API)) + '); a job with no function is one the '
             'design does not need. Raw: '
             '[pmccabe-base.tsv](raw/decision/pmccabe-base.tsv), '
             f'[pmccabe-{o}.tsv](raw/decision/pmccabe-{o}.tsv), the function text in '
             '[functions-base.c](raw/decision/functions-base.c) and '
             f'[functions-{o}.c](raw/decision/functions-{o}.c).', '',
             f'| job | who writes it | {c} functions | lines | McCabe | calls | {o} functions | lines | McCabe | calls |',
             '|---|---|---|---|---|---|---|---|---|---|']
        tot = {'base': {}, o: {}}
        detail = []
        later = []
        for role, who in decision_rules.ROLES:
            cells = []
            for v in ('base', o):
                fns = roles[v].get(role, [])
                missing = [f'{x[0]}:{x[1]}' for x in fns if x not in pm[v] or x not in bodies[v]]
                old = ROLES_BEFORE_COMMON.get(role, ())
                if v == 'base' and missing and old and all(x in pm[v] and x in bodies[v] for x in old):
                    fns, missing = old, []
                if v != 'base' and missing and self.series_changed(v):
                    # decision.tsv names a function a later series added:
                    # the run is rendered as it was collected
                    later += missing
                    fns = [x for x in fns if f'{x[0]}:{x[1]}' not in missing]
                    missing = []
                if missing:
                    sys.exit(f'decision: {self.run}/raw/decision has no {v} evidence for {", ".join(missing)} '
                             f'(collected before that function was compared): rerun make decision RUN={self.run}')
                lines = sum(pm[v][x][4] for x in fns)
                mcc = sum(pm[v][x][1] for x in fns)
                calls = sorted(set().union(*(api_calls(bodies[v][x], x[1]) for x in fns)) -
                               {fn for _, fn in fns})
                cells.append((', '.join(f'`{fn}`' for _, fn in fns) or 'none', lines, mcc, calls))
                t = tot[v].setdefault(who, [0, 0, set()])
                t[0] += lines
                t[1] += mcc
                t[2] |= set(calls)
            L.append(f'| {role} | {who} | ' + ' | '.join(f'{x[0]} | {x[1]} | {x[2]} | {len(x[3])}'
                                                      for x in cells) + ' |')
            detail.append(f'- {role}: {c} calls ' + (', '.join(cells[0][3]) or 'nothing') +
                          f'; {o} calls ' + (', '.join(cells[1][3]) or 'nothing') + '.')
        L.append('')
        if later:
            L += [f'Not in {o}\'s series as this run collected it (variants/{o}/decision.tsv names them '
                  'for a later series, whose code this table does not show): '
                  + ', '.join(f'`{x}`' for x in later) + '.', '']
        L += ['Per author (sums over the jobs above; calls = distinct names over the jobs):', '',
              f'| who | {c} lines | McCabe | calls | {o} lines | McCabe | calls |', '|---|---|---|---|---|---|---|']
        # the control's functions the candidate's code calls (once per array
        # on sg_ring), per author
        base_at = {x[1]: x for fns in roles['base'].values() for x in fns}
        own = {fn for fns in roles[o].values() for _, fn in fns}
        reused = {}
        for role, who in decision_rules.ROLES:
            for x in roles[o].get(role, []):
                if f'{x[0]}:{x[1]}' in later:
                    continue
                for call in api_calls(bodies[o][x], x[1]):
                    if call in base_at and call not in own and base_at[call] in pm['base']:
                        reused.setdefault(who, set()).add(call)
        for who in ('API', 'SCSI core', 'driver'):
            a, b = tot['base'].get(who, [0, 0, set()]), tot[o].get(who, [0, 0, set()])
            if not a[0] and not b[0]:
                continue
            L.append(f'| {who} | {a[0]} | {a[1]} | {len(a[2])} | {b[0]} | {b[1]} | {len(b[2])} |')
            ru = sorted(reused.get(who, ()))
            rl = sum(pm['base'][base_at[fn]][4] for fn in ru)
            rm = sum(pm['base'][base_at[fn]][1] for fn in ru)
            ahead = 'even' if a[1] == b[1] else (c if a[1] < b[1] else o)
            txt = (f'McCabe {b[1]} vs {a[1]} ({pct(b[1], a[1]):+.0f} % for {o}), '
                   f'lines {b[0]} vs {a[0]} ({pct(b[0], a[0]):+.0f} %)')
            if ru:
                whole = 'even' if a[1] == b[1] + rm else (c if a[1] < b[1] + rm else o)
                if whole != ahead:
                    ahead = f'{ahead} (own code); {whole} (with the {c} functions it calls)'
                txt += (f'; counting the {len(ru)} {c} functions {o} calls, McCabe '
                        f'{b[1] + rm} ({pct(b[1] + rm, a[1]):+.0f} %), lines {b[0] + rl} ({pct(b[0] + rl, a[0]):+.0f} %)')
            self.add(f'Complexity, {who} code (McCabe, lines)', ahead, txt, L[0])
        allre = sorted(set().union(*reused.values())) if reused else []
        if allre:
            L += ['', f'The {o} code calls these functions of the {c} column: ' +
                  ', '.join(f'`{n}`' for n in allre) + '; its lines and McCabe numbers above are what it '
                  'adds on top of them (the summary gives both).']
        L += ['', 'The calls, job by job:', ''] + detail + ['']
        self.L += L

    # -- surface
    def surface(self):
        c, o = self.control, self.cand
        own = {'base': self.design(c)['header'], o: self.design(o)['header']}
        tags, raw = {}, {}
        for v in ('base', o):
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
        sgt = tags['base'].get(own['base'], [])
        cand_own = tags[o].get(own[o], []) if own[o] != own['base'] else []
        added, removed = [], []
        for h in sorted(set(tags['base']) | set(tags[o])):
            if h in (own['base'], own[o]):
                continue
            a, b = set(tags['base'].get(h, [])), set(tags[o].get(h, []))
            added += [(h, k, n) for k, n in sorted(b - a)]
            removed += [(h, k, n) for k, n in sorted(a - b)]

        def count(items, kind):
            return sum(1 for it in items if it[-2] == kind)
        kinds = ['function', 'macro', 'struct field']
        new_all = [(k, n) for k, n in cand_own] + [(k, n) for _, k, n in added]
        L = [f'## API surface: {o} against {c}', '',
             mdtable.prose('decision.md', 'surface-intro', base=raw['base'], ring=raw[o], control=c, cand=o,
                           control_header=own['base'], cand_header=own[o]), '',
             '| | functions | macros | struct fields | total |', '|---|---|---|---|---|']
        for label, items in ((f'{c}: {os.path.basename(own["base"])}', sgt),
                             (f'{o}: {os.path.basename(own[o])}', cand_own),
                             (f'{o}: added to other headers', [(k, n) for _, k, n in added]),
                             (f'{o}: removed from other headers', [(k, n) for _, k, n in removed]),
                             (f'{o}: new names in all', new_all)):
            n = [count(items, k) for k in kinds]
            L.append(f'| {label} | ' + ' | '.join(map(str, n)) + f' | {sum(n)} |')
        L += ['', f'{o} names: ' + ', '.join(f'`{n}`' for _, n in new_all) + '.', '']
        if removed:
            L += ['Removed from other headers by the series: ' + ', '.join(f'`{n}` ({h})' for h, _, n in removed) + '.', '']
        self.L += L
        self.add('API surface (names a user may meet)', c if new_all else 'even',
                 f'{o} adds {len(new_all)} names ({count(new_all, "function")} functions, '
                 f'{count(new_all, "macro")} macros, {count(new_all, "struct field")} fields) and '
                 f'removes {len(removed)}; {os.path.basename(own["base"])}\'s {len(sgt)} stay for the rest '
                 f'of the kernel ({o}\'s own {len(new_all)} are '
                 + ('fewer than' if len(new_all) < len(sgt) else 'not fewer than') +
                 f' those {len(sgt)}, if the chained API could ever go)', L[0])

    # -- conversion
    def measured_conversion(self, base_sites):
        """The conversion itself: the series' hand conversions and, for a
        design with a semantic patch, what it does over the rest of the tree."""
        o = self.cand
        drivers = self.drivers(o)
        L = ['### The conversion, measured', '']
        hand = [(a, r, p) for a, r, p in parse_numstat(self.f(f'numstat-{o}.txt'))
                if churn_class(p, self.drivers()) in ('drivers', 'SCSI core')]
        L += [f'By hand, in the series (`git diff --numstat` base..{o}, raw: '
              f'[numstat-{o}.txt](raw/decision/numstat-{o}.txt)): the SCSI core (which carries '
              'the transition) and the drivers it converts:', '',
              '| file | part | lines added | lines removed |', '|---|---|---|---|']
        for a, r, p in sorted(hand, key=lambda x: (churn_class(x[2], self.drivers()), x[2])):
            L.append(f'| `{p}` | {churn_class(p, self.drivers())} | {a} | {r} |')
        for k in ('SCSI core', 'drivers'):
            rows = [x for x in hand if churn_class(x[2], self.drivers()) == k]
            L.append(f'| total, {len(rows)} file{"s" if len(rows) != 1 else ""} | {k} | '
                     f'{sum(x[0] for x in rows)} | {sum(x[1] for x in rows)} |')
        L.append('')
        if not self.design(o).get('cocci'):
            return L + [f'{o} has no semantic patch: every other driver keeps 6.1\'s code until '
                        'converted by hand.', ''], ''
        if not os.path.exists(os.path.join(self.raw, f'cocci-{o}.diff')):
            return L + ['The semantic patch was not run in this run\'s evidence (it predates it): '
                        f'`make decision RUN={self.run}` collects it.', ''], ''
        groups = parse_groups(self.f(self.raw_name('cocci-groups', o, '.txt')))
        done = parse_cocci(self.f(f'cocci-{o}.diff'))
        gfiles = {p for g in groups for p in g}
        sites = sum(1 for p, _, _ in base_sites if p in gfiles)
        rewritten = sum(v[2] for v in done.values())
        flagged = [g for g in groups if any(done.get(p, [0, 0, 0, False])[3] for p in g)]
        touched = [g for g in groups if any(p in done for p in g)]
        hand_name = self.raw_name('cocci-hand', o, '.diff', old='cocci-hand-base.diff')
        hand_cocci = parse_cocci(self.f(hand_name))
        L += [mdtable.prose('decision.md', 'conversion-measured', ring=o), '',
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
        L += [f'Of the series\' own hand conversions ({", ".join("`" + d.split("/")[-1] + "`" for d in drivers)}), '
              f'the semantic patch run on their base versions changes {len(hand_cocci)} '
              f'(raw: [{hand_name}](raw/decision/{hand_name})): '
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
        c, o = self.control, self.cand
        opt_in = self.design(o)['opt_in'] or 'a flag'
        sizes = parse_sizes(self.f(f'sizes-{o}.txt'))
        g = {v: parse_grep(self.f(f'accessors-{v}.txt')) for v in ('base', o)}
        L = [f'## Conversion cost for the rest of the kernel: {o} against {c}', '',
             mdtable.prose('decision.md', 'conversion-intro', cand=o, opt_in=opt_in,
                           accessors='|'.join(ACCESSORS), accessor_def=ACCESSOR_DEF), '']
        mc, cocci = self.measured_conversion(g['base'])
        L += mc
        totals = {}
        for v in ('base', o):
            files = {p for p, _, _ in g[v]}
            direct = [x for x in g[v] if 'table' in x[2]]
            totals[v] = (len(g[v]), len(files), len(direct), len({p for p, _, _ in direct}),
                         len({(p, ln) for p, ln, _ in g[v]}))
        L += ['| tree | call sites | lines | files | of which sdb.table sites | in files |', '|---|---|---|---|---|---|']
        for v, label in (('base', 'base 6.1'), (o, f'after the {o} series')):
            t = totals[v]
            L.append(f'| {label} | {t[0]} | {t[4]} | {t[1]} | {t[2]} | {t[3]} |')
        L += ['', 'By subsystem and accessor (base 6.1):', '']
        names = sorted({m for _, _, m in g['base']})
        subs = {}
        for p, _, m in g['base']:
            x = subs.setdefault(subsystem(p), {'files': set()})
            x['files'].add(p)
            x[m] = x.get(m, 0) + 1
        L += ['| subsystem | files | sites | ' + ' | '.join(names) + ' |', '|---|---|---|' + '---|' * len(names)]
        for sub in sorted(subs, key=lambda x: (-sum(v for k, v in subs[x].items() if k != 'files'), x)):
            n = sum(v for k, v in subs[sub].items() if k != 'files')
            L.append(f'| {sub} | {len(subs[sub]["files"])} | {n} | ' + ' | '.join(str(subs[sub].get(m, 0)) for m in names) + ' |')
        L.append('')
        multi = ''
        if 'SG_RING_CHUNK_SIZE' in sizes:
            multi = self.tablesize(L, sizes)
        self.L += L
        b, r = totals['base'], totals[o]
        self.add('Conversion cost for the rest of 6.1', c,
                 f'{b[0]} uses of the single-array accessors in {b[1]} files ({r[0]} in {r[1]} after '
                 f'the series), all correct unchanged, at 6.1\'s segment limits, for hosts without {opt_in}'
                 f'{cocci}{multi}; {c} needs none', L[0],
                 f'{b[0]} uses of the single-array accessors in {b[1]} files, all correct unchanged, at 6.1\'s '
                 f'segment limits, for hosts without {opt_in}; {c} needs none')

    def tablesize(self, L, sizes):
        """The drivers whose commands can span more than one of the
        candidate's pool arrays (a ring design): lines appended to L, the
        summary's phrase."""
        inline, chunk = sizes['SCSI_INLINE_SG_CNT'], sizes['SG_RING_CHUNK_SIZE']
        ts = parse_tablesize(self.f('sg_tablesize-base.txt'))
        known = {k: v for k, v in parse_sizes(self.f(f'sizes-{self.control}.txt')).items()
                 if k in ('SG_MAX_SEGMENTS', 'SG_CHUNK_SIZE', 'SG_ALL')}
        defs = parse_defines(self.f('sg_tablesize-defines-base.txt'), known)
        vals = [(p, ln, txt, resolve(txt, p, defs)) for p, ln, txt in ts]
        known = [x for x in vals if x[3] is not None]
        unknown = [x for x in vals if x[3] is None]
        over_inline = sorted({p for p, _, _, v in known if v > inline})
        over_chunk = sorted({p for p, _, _, v in known if v > chunk})
        L += ['### Drivers with an sg_tablesize above one array', '',
              mdtable.prose('decision.md', 'tablesize-intro', cand=self.cand,
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
        return (f'; {len(over_chunk)} files set sg_tablesize above one pool array ({chunk}): their large '
                'commands take chainable arrays linked into one list until converted, '
                f'{len({x[0] for x in unknown})} unresolved')
