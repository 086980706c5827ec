// SPDX-License-Identifier: GPL-2.0
/// Convert a SCSI host driver whose uses of the single-array accessors are
/// all provably mechanical to the sg_ring calls, and opt its host template
/// in (use_sg_ring):
///  - scsi_dma_map()/scsi_dma_unmap()/scsi_sg_count() become
///    scsi_dma_map_ring()/scsi_dma_unmap_ring()/scsi_sgring_count()
///    (the same counts: DMA entries, entries in use);
///  - a scsi_for_each_sg(cmd, e, n, i) block becomes a ring walk that
///    sets e to each entry and keeps i counting, with the same bound n:
///      DMA walk (sg_ring_for_each_dma) when the body reads e only with
///      sg_dma_address()/sg_dma_len(); the bound is dropped only where it
///      is provably the number of DMA entries (n is a local assigned from
///      scsi_dma_map() of the same command and written nowhere else in the
///      function), else kept as "if (i >= n) break;";
///      CPU walk (sg_ring_for_each) when the body reads e only as a CPU
///      entry (e->field, sg_page(), sg_virt(), sg_phys()) and the function
///      does not DMA-map the command; the bound is dropped only where it is
///      scsi_sg_count() of the same command, else kept.
///    In 6.1 the first n entries of the chained list are walked; the ring
///    walk visits the same entries in the same order (CPU), or the DMA
///    segments of the same bytes in the same order (DMA), and stops at the
///    same i.  After the loop, i holds the same value as before (the
///    number of iterations); e does not (6.1 leaves it on the entry after
///    the last one visited), so any use of e after the loop is a hand case.
///
/// Hand cases, any of which leaves the whole driver (one spatch run over
/// all its files) unconverted and its template unflagged:
///  H0 an accessor (or .sdb, ->sdb) in the text that spatch did not parse
///     (a function it cannot parse), or in a header the driver includes
///     with "..." (which spatch rewrites or not depending on its options,
///     and which other drivers may share);
///  H1 scsi_sglist(), scsi_prot_sglist(), scsi_prot_sg_count(),
///     scsi_for_each_prot_sg(), sdb.table (also through a
///     struct scsi_data_buffer pointer or variable), &cmd->sdb, prot_sdb:
///     the driver walks, maps, copies or hands on the array itself;
///  H2 a loop whose body is a single statement, declares variables, uses
///     continue (the inserted assignment or increment would be misplaced
///     or skipped) or holds another scsi_for_each_sg() (both would walk
///     with sgr and sgi);
///  H3 the entry e used in the body other than as e->field, sg_dma_address(e),
///     sg_dma_len(e), sg_page(e), sg_virt(e), sg_phys(e): passed to a
///     helper (which may walk on with sg_next() or read the DMA fields),
///     stored, compared or assigned;
///  H4 the index i written in the body;
///  H5 e read after the loop (for instance a raw for_each_sg()/sg_next()
///     continuing from it, as hpsa_scatter_gather() does): 6.1 leaves e on
///     the next entry of a chained list, a ring walk does not;
///  H6 the walk kind cannot be told or is mixed: the body reads both the
///     DMA and the CPU view of e, or neither; the body reads the DMA view
///     with scsi_sg_count() as bound (entries, not DMA segments); the body
///     reads the CPU view in a function that DMA-maps the command (its
///     bound is then a count of DMA segments, not of entries);
///  H7 the function already has an identifier sgr or sgi (the names the
///     rule declares).
/// Run with -D report instead of -D patch to list the hand cases of a
/// driver, one line each: "FILE:LINE: hand case Hn: reason".
/// The SmPL rules only collect facts (matches and their positions); the
/// Python function analyse() decides, loop by loop, and the rewriting
/// rules take only the loops it classified (position constraints).
//
// Confidence: High for what it converts, by the rules above; a driver with
// any hand case is left entirely alone, because a partial conversion would
// mix ring and single-array views of one command (a ring DMA-mapped array
// by array and walked through scsi_sglist(), say) and its template could
// not be flagged.  The transition (patches 0011-0012) keeps unconverted hosts on
// 6.1's chained scatterlists and limits.
// Apply it to all the files of one driver at once (one spatch run per
// group of groups-6.1.txt), so that one hand case anywhere in a driver
// keeps the driver unconverted:
//   spatch --sp-file scsi_host_use_sg_ring.cocci -D patch --in-place FILES
// A template in a file without accessor uses (a library driver such as
// 53c700 and its front ends) must be flagged by hand: -D report says so.

virtual patch
virtual report

// The rules below only collect facts (expression-level matches and
// positions, which are cheap); the script rule "handfound" decides from
// them, loop by loop.  Matching inside loop bodies with <+... ...+> instead
// took minutes on some drivers (csiostor).

@initialize:python@
@@
import os
import re

loops = {}      # loop header position -> facts about the loop
nonblock = []   # headers of loops whose body is a single statement
uses = {}       # kind ('any', 'dma', 'cpu') -> set of (file, name, line, col)
conts = set()   # continue statements: (file, line, col)
decls = set()   # declarations: (file, line, col)
iwrites = set() # writes to an identifier: (file, name, line, col)
after = {}      # loop header -> first line where its entry is read after it
eheads = set()  # positions of the entry in scsi_for_each_sg() headers
hard = []       # H1 uses: (file, line, what)
maps = set()    # scsi_dma_map() calls: (file, function, command)
mapvars = {}    # (file, function, variable) -> set of (command, line, col)
mapwrites = set()  # other writes to such a variable: (file, function, variable)
namesfn = set() # functions using sgr or sgi: (file, function)
seen = set()    # (file, line) of every accessor use spatch parsed
printed = set()

# the accessors as text: a use spatch did not parse (a function it could
# not parse, a macro body) would escape every check below
ACCESSOR_RX = re.compile(r'\b(scsi_sglist|scsi_sg_count|scsi_for_each_sg|scsi_dma_map|'
                         r'scsi_dma_unmap|scsi_prot_sglist|scsi_prot_sg_count|'
                         r'scsi_for_each_prot_sg)\b|(\.|->)\s*(prot_)?sdb\b')

def strip_c(text):
    # comments and literals blanked, line breaks kept
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'',
                  blank, text, flags=re.S)

def group_files():
    # the C files of this run: spatch's arguments, and any file matched
    files = {f for f, _ in seen}
    try:
        with open('/proc/self/cmdline', 'rb') as f:
            args = f.read().split(b'\0')
        files |= {a.decode() for a in args if a.endswith(b'.c')}
    except OSError:
        pass
    return sorted(files)

def local_headers(files):
    # the headers the files include with "...", found next to them: spatch
    # parses and rewrites them or not depending on its options, and they
    # may be shared (drivers/scsi/arm/arm_scsi.h walks scsi_sglist() in
    # inline functions for five drivers)
    out = set()
    for f in files:
        try:
            with open(f) as src:
                names = re.findall(r'^\s*#\s*include\s+"([^"]+)"', src.read(), flags=re.M)
        except OSError:
            continue
        for n in names:
            h = os.path.normpath(os.path.join(os.path.dirname(f), n))
            if os.path.isfile(h):
                out.add(h)
    return sorted(out)

def unparsed():
    out = []
    files = group_files()
    for f in files + local_headers(files):
        header = not f.endswith('.c')
        try:
            with open(f) as src:
                text = strip_c(src.read())
        except OSError:
            continue
        for n, line in enumerate(text.split('\n'), 1):
            if not ACCESSOR_RX.search(line):
                continue
            if header:
                # whether spatch parses and rewrites it depends on its
                # options and heuristics, and other drivers may include it
                out.append((os.path.normpath(f), n, 'hand case H0: an accessor in a header '
                            'the driver includes'))
            elif (f, n) not in seen:
                out.append((f, n, 'hand case H0: an accessor spatch did not parse '
                            '(a function it cannot parse, or a macro)'))
    return out

# The checks, by name.  OFF switches checks off: tests/host/test_cocci.py
# does, to show that each one is what stops its fixture.
CHECKS = ['H0', 'H1', 'nonblock', 'continue', 'decl', 'nested', 'helper', 'index', 'after',
          'mixed', 'neither', 'dmacount', 'cpumapped', 'names', 'bound']
OFF = set()

def norm(s):
    return re.sub(r'\s+', '', str(s))

def key(p):
    return (p[0].file, int(p[0].line), int(p[0].column))

def inside(l, file, line, col):
    return file == l['file'] and l['open'] < (line, col) < l['close']

def source(p):
    # the text of the line p is on, for the report of an H1 use
    try:
        with open(p[0].file) as f:
            return f.readlines()[int(p[0].line) - 1].strip()
    except (OSError, IndexError, ValueError):
        return '?'

def analyse():
    """[(file, line, text)] of the hand cases; sets each loop's 'kind'."""
    out = [(f, l, 'hand case H1: ' + what) for f, l, what in hard if 'H1' not in OFF]
    if 'H0' not in OFF:
        out += unparsed()
    for k in nonblock:
        if 'nonblock' not in OFF:
            out.append((k[0], k[1], 'hand case H2: loop body is a single statement'))
    for k, l in loops.items():
        f, e, i = l['file'], l['e'], l['i']
        def there(s):
            return sorted(x for x in s if inside(l, x[0], x[-2], x[-1]))
        def named(kind, name):
            return there(u for u in uses.get(kind, ()) if u[1] == name)
        why = []
        if there(conts) and 'continue' not in OFF:
            why.append('H2: loop body uses continue')
        if there(decls) and 'decl' not in OFF:
            why.append('H2: loop body declares variables')
        inner = [o for o in loops.values() if o is not l and inside(l, o['file'], *o['head'])]
        if inner and 'nested' not in OFF:
            why.append('H2: another scsi_for_each_sg() in the body (line %d): both would '
                       'walk with sgr and sgi' % inner[0]['line'])
        dma, cpu = named('dma', e), named('cpu', e)
        accessed = set(dma) | set(cpu)
        other = [u for u in named('any', e) if u not in accessed]
        if other and 'helper' not in OFF:
            why.append('H3: %s used at line %d other than through an entry accessor '
                       '(passed to a helper, stored, compared or assigned)' % (e, other[0][2]))
        iw = [w for w in there(iwrites) if w[1] == i]
        if iw and 'index' not in OFF:
            why.append('H4: the index %s is written in the body (line %d)' % (i, iw[0][2]))
        if k in after and 'after' not in OFF:
            why.append('H5: %s read after the loop (line %d)' % (e, after[k]))
        n, cmd = norm(l['n']), norm(l['cmd'])
        if dma and cpu and 'mixed' not in OFF:
            why.append('H6: the body reads both the DMA and the CPU view of the entry')
        elif not dma and not cpu and 'neither' not in OFF:
            why.append('H6: the body reads neither view of the entry')
        elif dma and n == 'scsi_sg_count(%s)' % cmd and 'dmacount' not in OFF:
            why.append('H6: DMA view walked with scsi_sg_count() as bound')
        elif cpu and (f, l['fn'], cmd) in maps and 'cpumapped' not in OFF:
            why.append('H6: CPU view walked in a function that DMA-maps the command')
        if (f, l['fn']) in namesfn and 'names' not in OFF:
            why.append('H7: the function already uses the name sgr or sgi')
        for w in why:
            out.append((f, l['line'], 'hand case ' + w))
        mv = (f, l['fn'], n)
        if dma:
            full = 'bound' in OFF or (any(c == cmd for c, _, _ in mapvars.get(mv, ()))
                                      and mv not in mapwrites)
            l['kind'] = 'dmafull' if full else 'dmaguard'
        else:
            full = 'bound' in OFF or n == 'scsi_sg_count(%s)' % cmd
            l['kind'] = 'cpufull' if full else 'cpuguard'
    return sorted(set(out))

def kind(p):
    l = loops.get(key(p))
    return l.get('kind') if l else None

# for the position constraints of the rewriting rules
def rewritten_fn(p):
    # after the rewriting rules spatch works on a copy of the file
    # (/tmp/cocci_small_output-...-NAME.c): compare the base names
    base = os.path.basename(p[0].file)
    return any(l['fn'] == p[0].current_element and l.get('kind') and
               (base == os.path.basename(l['file']) or
                base.endswith('-' + os.path.basename(l['file'])))
               for l in loops.values())

def is_dmafull(p):
    return kind(p) == 'dmafull'

def is_dmaguard(p):
    return kind(p) == 'dmaguard'

def is_cpufull(p):
    return kind(p) == 'cpufull'

def is_cpuguard(p):
    return kind(p) == 'cpuguard'

// ---------------------------------------------------------------- H0
@acc depends on patch || report@
expression E;
position q;
@@
(
 scsi_sglist@q(E)
|
 scsi_sg_count@q(E)
|
 scsi_dma_map@q(E)
|
 scsi_dma_unmap@q(E)
|
 scsi_prot_sglist@q(E)
|
 scsi_prot_sg_count@q(E)
|
 E.sdb@q
|
 E->sdb@q
|
 E.prot_sdb@q
|
 E->prot_sdb@q
)

@script:python@
q << acc.q;
@@
seen.add((q[0].file, int(q[0].line)))

@accloop depends on patch || report@
iterator name scsi_for_each_sg, scsi_for_each_prot_sg;
expression cmd, n;
identifier e, i;
statement S;
position q;
@@
(
 scsi_for_each_sg@q(cmd, e, n, i) S
|
 scsi_for_each_prot_sg@q(cmd, e, n, i) S
)

@script:python@
q << accloop.q;
@@
seen.add((q[0].file, int(q[0].line)))

// ---------------------------------------------------------------- H1
@hard depends on patch || report@
expression cmd, E;
struct scsi_data_buffer *sdbp;
struct scsi_data_buffer sdbv;
position p;
@@
(
 scsi_sglist@p(cmd)
|
 scsi_prot_sglist@p(cmd)
|
 scsi_prot_sg_count@p(cmd)
|
 E.sdb.table@p
|
 E->sdb.table@p
|
 &E.sdb@p
|
 &E->sdb@p
|
 E.prot_sdb@p
|
 E->prot_sdb@p
|
 sdbp->table@p
|
 sdbv.table@p
)

@script:python@
p << hard.p;
@@
hard.append((p[0].file, int(p[0].line), 'the single array or protection used directly: ' + source(p)))

@hardprot depends on patch || report@
iterator name scsi_for_each_prot_sg;
expression cmd, n;
identifier e, i;
statement S;
position p;
@@
 scsi_for_each_prot_sg@p(cmd, e, n, i) S

@script:python@
p << hardprot.p;
@@
hard.append((p[0].file, int(p[0].line), 'protection loop (scsi_for_each_prot_sg)'))

// ---------------------------------------------------------------- loops
@loops depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
position p, pb, pe;
@@
 scsi_for_each_sg@p(cmd, e, n, i) {@pb ... }@pe

@script:python@
p << loops.p;
pb << loops.pb;
pe << loops.pe;
e << loops.e;
i << loops.i;
n << loops.n;
cmd << loops.cmd;
@@
loops[key(p)] = dict(file=p[0].file, line=int(p[0].line), fn=p[0].current_element,
                     head=(int(p[0].line), int(p[0].column)),
                     open=(int(pb[0].line), int(pb[0].column)),
                     close=(int(pe[0].line), int(pe[0].column)),
                     e=str(e), i=str(i), n=str(n), cmd=str(cmd))

// H2: a loop whose body is a single statement: the disjunction is ordered,
// so p is bound only where the first branch (a block) does not match; the
// braces isomorphisms are off, since with them { ... } matches a bare
// statement too
@nonblk depends on patch || report disable braces0, braces1, braces2, braces3, braces4@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
statement S;
position p;
@@
(
 scsi_for_each_sg(cmd, e, n, i) { ... }
|
 scsi_for_each_sg@p(cmd, e, n, i) S
)

@script:python@
p << nonblk.p;
@@
nonblock.append(key(p))

// H2: continue, declarations
@contloop depends on loops@
position q;
@@
 continue@q;

@script:python@
q << contloop.q;
@@
conts.add((q[0].file, int(q[0].line), int(q[0].column)))

@declloop depends on loops@
type T;
identifier x;
expression E;
position q;
@@
(
 T x@q;
|
 T x@q = E;
)

@script:python@
q << declloop.q;
@@
decls.add((q[0].file, int(q[0].line), int(q[0].column)))

// H3, H6: how the entry of each loop is used
@edma depends on loops@
identifier loops.e;
position q;
@@
 \(sg_dma_address(e@q)\|sg_dma_len(e@q)\)

@script:python@
q << edma.q;
e << loops.e;
@@
uses.setdefault('dma', set()).add((q[0].file, str(e), int(q[0].line), int(q[0].column)))

@ecpu depends on loops@
identifier loops.e, fld;
position q;
@@
 \(e@q->fld\|sg_page(e@q)\|sg_virt(e@q)\|sg_phys(e@q)\)

@script:python@
q << ecpu.q;
e << loops.e;
@@
uses.setdefault('cpu', set()).add((q[0].file, str(e), int(q[0].line), int(q[0].column)))

@eother depends on loops@
identifier loops.e;
position q;
@@
 e@q

@script:python@
q << eother.q;
e << loops.e;
@@
uses.setdefault('any', set()).add((q[0].file, str(e), int(q[0].line), int(q[0].column)))

// H4: writes to the index
@imod depends on loops@
identifier loops.i;
expression E;
assignment operator aop;
position q;
@@
(
 i@q aop E
|
 i@q++
|
 ++i@q
|
 i@q--
|
 --i@q
|
 &i@q
)

@script:python@
q << imod.q;
i << loops.i;
@@
iwrites.add((q[0].file, str(i), int(q[0].line), int(q[0].column)))

// H5: the entry read after the loop
// (another scsi_for_each_sg() over the same entry sets it afresh: the
// entry in its header is not a read, and the paths through it end there)
@ehead depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
statement S;
position q;
@@
 scsi_for_each_sg(cmd, e@q, n, i) S

@script:python@
q << ehead.q;
@@
eheads.add(key(q))

@eafter depends on patch || report exists@
iterator name scsi_for_each_sg;
expression cmd, n, E, cmd2, n2;
identifier e, i, i2;
statement S, S2;
position p, q;
@@
 scsi_for_each_sg@p(cmd, e, n, i) S
 ... when != e = E
     when != scsi_for_each_sg(cmd2, e, n2, i2) S2
 e@q

@script:python@
p << eafter.p;
q << eafter.q;
@@
if key(q) not in eheads:
    k = key(p)
    after[k] = min(after.get(k, int(q[0].line)), int(q[0].line))

// H6: scsi_dma_map() calls, and the variables they are assigned to (the
// bound of a DMA walk is dropped only if it is such a local, written
// nowhere else in the function)
@mapcall depends on loops@
expression cmd;
position q;
@@
 scsi_dma_map@q(cmd)

@script:python@
q << mapcall.q;
cmd << mapcall.cmd;
@@
maps.add((q[0].file, q[0].current_element, norm(cmd)))

@mapvar depends on loops@
expression cmd;
identifier n;
position q;
@@
 n@q = scsi_dma_map(cmd)

@script:python@
q << mapvar.q;
n << mapvar.n;
cmd << mapvar.cmd;
@@
mapvars.setdefault((q[0].file, q[0].current_element, str(n)), set()).add(
    (norm(cmd), int(q[0].line), int(q[0].column)))

@mapdecl depends on loops@
expression cmd;
identifier n;
type T;
position q;
@@
 T n@q = scsi_dma_map(cmd);

@script:python@
q << mapdecl.q;
n << mapdecl.n;
cmd << mapdecl.cmd;
@@
mapvars.setdefault((q[0].file, q[0].current_element, str(n)), set()).add(
    (norm(cmd), int(q[0].line), int(q[0].column)))

// any write to an identifier; only those to a variable of mapvars count
@mapwrite depends on mapvar || mapdecl@
identifier n;
expression E;
assignment operator aop;
position q;
@@
(
 n@q aop E
|
 n@q++
|
 ++n@q
|
 n@q--
|
 --n@q
|
 &n@q
)

@script:python@
q << mapwrite.q;
n << mapwrite.n;
@@
mv = (q[0].file, q[0].current_element, str(n))
if mv in mapvars and not any(l == int(q[0].line) and c == int(q[0].column)
                             for _, l, c in mapvars[mv]):
    mapwrites.add(mv)

// H7: the names the rule declares
@names depends on loops@
identifier x =~ "^sg[ri]$";
position q;
@@
 x@q

@script:python@
q << names.q;
@@
namesfn.add((q[0].file, q[0].current_element))

@namesdecl depends on loops@
identifier x =~ "^sg[ri]$";
type T;
expression E;
position q;
@@
(
 T x@q;
|
 T x@q = E;
)

@script:python@
q << namesdecl.q;
@@
namesfn.add((q[0].file, q[0].current_element))

// ---------------------------------------------------------------- decision
@script:python depends on report@
@@
for f, l, text in analyse():
    print("%s:%d: %s" % (f, l, text))

// matches (and so stops every rewrite) if there is any hand case
@script:python handfound depends on patch@
found;
@@
coccinelle.found = 'yes'
if not analyse():
    cocci.include_match(False)

// ---------------------------------------------------------------- patch
// every loop left reads either the DMA or the CPU view of its entry
@dmafull depends on patch && !handfound@
iterator name scsi_for_each_sg, sg_ring_for_each_dma;
expression cmd, n;
identifier e, i;
position p : script:python () { is_dmafull(p) };
@@
- scsi_for_each_sg@p(cmd, e, n, i) {
+ sg_ring_for_each_dma(scsi_sgring(cmd), sgr, sgi) {
+	e = &sgr->sg[sgi];
  ...
+	i++;
  }

@dmaguard depends on patch && !handfound@
iterator name scsi_for_each_sg, sg_ring_for_each_dma;
expression cmd, n;
identifier e, i;
position p : script:python () { is_dmaguard(p) };
@@
- scsi_for_each_sg@p(cmd, e, n, i) {
+ sg_ring_for_each_dma(scsi_sgring(cmd), sgr, sgi) {
+	if (i >= n)
+		break;
+	e = &sgr->sg[sgi];
  ...
+	i++;
  }

@cpufull depends on patch && !handfound@
iterator name scsi_for_each_sg, sg_ring_for_each;
expression cmd, n;
identifier e, i;
position p : script:python () { is_cpufull(p) };
@@
- scsi_for_each_sg@p(cmd, e, n, i) {
+ sg_ring_for_each(scsi_sgring(cmd), sgr, sgi) {
+	e = &sgr->sg[sgi];
  ...
+	i++;
  }

@cpuguard depends on patch && !handfound@
iterator name scsi_for_each_sg, sg_ring_for_each;
expression cmd, n;
identifier e, i;
position p : script:python () { is_cpuguard(p) };
@@
- scsi_for_each_sg@p(cmd, e, n, i) {
+ sg_ring_for_each(scsi_sgring(cmd), sgr, sgi) {
+	if (i >= n)
+		break;
+	e = &sgr->sg[sgi];
  ...
+	i++;
  }

// the index starts at 0 and the declarations are added, for the loops the
// rule rewrote (their shape, in a function where it rewrote one: a ring
// walk written by hand is left as it is)
@start depends on patch && (dmafull || dmaguard || cpufull || cpuguard)@
iterator name sg_ring_for_each, sg_ring_for_each_dma;
identifier i, e;
expression cmd, n;
symbol sgr, sgi;
position p : script:python () { rewritten_fn(p) };
@@
(
+ i = 0;
  sg_ring_for_each_dma@p(scsi_sgring(cmd), sgr, sgi) {
	if (i >= n)
		break;
	e = &sgr->sg[sgi];
	...
	i++;
  }
|
+ i = 0;
  sg_ring_for_each_dma@p(scsi_sgring(cmd), sgr, sgi) {
	e = &sgr->sg[sgi];
	...
	i++;
  }
|
+ i = 0;
  sg_ring_for_each@p(scsi_sgring(cmd), sgr, sgi) {
	if (i >= n)
		break;
	e = &sgr->sg[sgi];
	...
	i++;
  }
|
+ i = 0;
  sg_ring_for_each@p(scsi_sgring(cmd), sgr, sgi) {
	e = &sgr->sg[sgi];
	...
	i++;
  }
)

@decl depends on patch && (dmafull || dmaguard || cpufull || cpuguard)@
iterator name sg_ring_for_each, sg_ring_for_each_dma;
identifier fn;
symbol sgr, sgi;
position p : script:python () { rewritten_fn(p) };
@@
fn@p(...) {
+	struct sg_ring *sgr;
+	unsigned int sgi;
<+...
(
sg_ring_for_each_dma(..., sgr, sgi) { ... }
|
sg_ring_for_each(..., sgr, sgi) { ... }
)
...+>
}

@calls depends on patch && !handfound@
expression cmd;
@@
(
- scsi_dma_map(cmd)
+ scsi_dma_map_ring(cmd)
|
- scsi_dma_unmap(cmd)
+ scsi_dma_unmap_ring(cmd)
|
- scsi_sg_count(cmd)
+ scsi_sgring_count(cmd)
)

@tmpl depends on patch && (calls || dmafull || dmaguard || cpufull || cpuguard)@
identifier t;
@@
struct scsi_host_template t = {
	...,
+	.use_sg_ring = 1,
};

@tmplfound depends on report@
identifier t;
@@
struct scsi_host_template t = { ... };

@uses depends on report && !tmplfound@
expression cmd;
position p;
@@
(
 scsi_dma_map@p(cmd)
|
 scsi_dma_unmap@p(cmd)
|
 scsi_sg_count@p(cmd)
)

@script:python depends on report && !tmplfound@
p << uses.p;
@@
if 'note' not in printed:
    printed.add('note')
    print("%s: note: no scsi_host_template in these files; a converted driver needs its template flagged by hand" % p[0].file)
