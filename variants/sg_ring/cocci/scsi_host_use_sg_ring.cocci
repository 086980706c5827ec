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
///  H1 scsi_sglist(), scsi_prot_sglist(), scsi_prot_sg_count(),
///     scsi_for_each_prot_sg(), sdb.table (also through a
///     struct scsi_data_buffer pointer or variable), &cmd->sdb, prot_sdb:
///     the driver walks, maps, copies or hands on the array itself;
///  H2 a loop whose body is a single statement, declares variables or
///     uses continue (the inserted assignment or increment would be
///     misplaced or skipped);
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
//
// Confidence: High for what it converts, by the rules above; a driver with
// any hand case is left entirely alone, because a partial conversion would
// mix ring and single-array views of one command (a ring DMA-mapped array
// by array and walked through scsi_sglist(), say) and its template could
// not be flagged.  The transition (patch 0020) keeps unconverted hosts on
// 6.1's chained scatterlists and limits.
// Apply it to all the files of one driver at once (one spatch run per
// group of groups-6.1.txt), so that one hand case anywhere in a driver
// keeps the driver unconverted:
//   spatch --sp-file scsi_host_use_sg_ring.cocci -D patch --in-place FILES
// A template in a file without accessor uses (a library driver such as
// 53c700 and its front ends) must be flagged by hand: -D report says so.

virtual patch
virtual report

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

@hardprot depends on patch || report@
iterator name scsi_for_each_prot_sg;
expression cmd, n;
identifier e, i;
statement S;
position p;
@@
 scsi_for_each_prot_sg@p(cmd, e, n, i) S

// ---------------------------------------------------------------- H2
// a loop whose body is a single statement: the disjunction is ordered, so
// p is bound only where the first branch (a block) does not match; the
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

@nonblk2 depends on nonblk@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
statement S;
position nonblk.p;
@@
 scsi_for_each_sg@p(cmd, e, n, i) S

@contloop depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
position p;
@@
 scsi_for_each_sg@p(cmd, e, n, i) { <+... continue; ...+> }

@declloop depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
declaration d;
position p;
@@
 scsi_for_each_sg@p(cmd, e, n, i) { <+... d ...+> }

// ---------------------------------------------------------------- H3
// the ordered disjunction takes the allowed forms first, so q is bound only
// on a use of e that is none of them
@eother depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i, fld;
position p, q;
@@
 scsi_for_each_sg@p(cmd, e, n, i) { <+...
(
 sg_dma_address(e)
|
 sg_dma_len(e)
|
 sg_page(e)
|
 sg_virt(e)
|
 sg_phys(e)
|
 e->fld
|
 e@q
)
 ...+> }

// q is bound only by the last branch: eother also matches a loop with only
// allowed uses, eother2 only one with another use
@eother2 depends on eother@
identifier eother.e;
position eother.q;
@@
 e@q

// ---------------------------------------------------------------- H4
@imod depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n, E;
identifier e, i;
assignment operator aop;
position p, q;
@@
 scsi_for_each_sg@p(cmd, e, n, i) { <+...
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
 ...+> }

// ---------------------------------------------------------------- H5
@eafter depends on patch || report exists@
iterator name scsi_for_each_sg;
expression cmd, n, E;
identifier e, i;
statement S;
position p, q;
@@
 scsi_for_each_sg@p(cmd, e, n, i) S
 ... when != e = E
 e@q

// ---------------------------------------------------------------- H6
@dmabody depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
position pd;
@@
 scsi_for_each_sg@pd(cmd, e, n, i) { <+... \(sg_dma_address(e)\|sg_dma_len(e)\) ...+> }

@cpubody depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i, fld;
position pc;
@@
 scsi_for_each_sg@pc(cmd, e, n, i) { <+... \(e->fld\|sg_page(e)\|sg_virt(e)\|sg_phys(e)\) ...+> }

@mixed depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
statement S;
position dmabody.pd, cpubody.pc, p;
@@
 scsi_for_each_sg@pd@pc@p(cmd, e, n, i) S

// a block loop of neither kind: every loop is matched first, then the
// ones of either kind drop out by the order of the disjunction
@neither depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i, fld;
position p;
@@
(
 scsi_for_each_sg(cmd, e, n, i) { <+... \(sg_dma_address(e)\|sg_dma_len(e)\|e->fld\|sg_page(e)\|sg_virt(e)\|sg_phys(e)\) ...+> }
|
 scsi_for_each_sg@p(cmd, e, n, i) { ... }
)

@neither2 depends on neither@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
statement S;
position neither.p;
@@
 scsi_for_each_sg@p(cmd, e, n, i) S

@dmacount depends on patch || report@
iterator name scsi_for_each_sg;
expression cmd;
identifier e, i;
statement S;
position dmabody.pd, p;
@@
 scsi_for_each_sg@pd@p(cmd, e, scsi_sg_count(cmd), i) S

@cpumapped depends on patch || report@
expression cmd;
identifier fn;
@@
fn(...) {
 <+... scsi_dma_map(cmd) ...+>
}

@cpumapped2 depends on cpumapped@
iterator name scsi_for_each_sg;
expression cpumapped.cmd, n;
identifier cpumapped.fn, e, i;
statement S;
position cpubody.pc, p;
@@
fn(...) {
 <+... scsi_for_each_sg@pc@p(cmd, e, n, i) S ...+>
}

// ---------------------------------------------------------------- H7
@names depends on patch || report@
identifier fn, x =~ "^sg[ri]$";
type T;
expression E;
@@
fn(...) {
 <+...
(
 T x;
|
 T x = E;
|
 x
)
 ...+>
}

@names2 depends on names@
iterator name scsi_for_each_sg;
identifier names.fn;
expression cmd, n;
identifier e, i;
statement S;
position p;
@@
fn(...) {
 <+... scsi_for_each_sg@p(cmd, e, n, i) S ...+>
}

// ---------------------------------------------------------------- report
@initialize:python depends on report@
@@
seen = set()

def hand(p, text):
    line = "%s:%s: %s" % (p[0].file, p[0].line, text)
    if line not in seen:
        seen.add(line)
        print(line)

@script:python depends on report@
p << hard.p;
@@
hand(p, "hand case H1: the driver uses the single array itself (scsi_sglist, sdb.table, protection)")

@script:python depends on report@
p << hardprot.p;
@@
hand(p, "hand case H1: protection loop (scsi_for_each_prot_sg)")

@script:python depends on report@
p << nonblk.p;
@@
hand(p, "hand case H2: loop body is a single statement")

@script:python depends on report@
p << contloop.p;
@@
hand(p, "hand case H2: loop body uses continue")

@script:python depends on report@
p << declloop.p;
@@
hand(p, "hand case H2: loop body declares variables")

@script:python depends on report@
p << eother.p;
q << eother.q;
e << eother.e;
@@
hand(p, "hand case H3: %s used at line %s other than through an entry accessor (passed to a helper, stored, compared or assigned)" % (e, q[0].line))

@script:python depends on report@
p << imod.p;
q << imod.q;
@@
hand(p, "hand case H4: the index is written in the body (line %s)" % (q[0].line))

@script:python depends on report@
p << eafter.p;
q << eafter.q;
e << eafter.e;
@@
hand(p, "hand case H5: %s read after the loop (line %s)" % (e, q[0].line))

@script:python depends on report@
p << mixed.p;
@@
hand(p, "hand case H6: the body reads both the DMA and the CPU view of the entry")

@script:python depends on report@
p << neither.p;
@@
hand(p, "hand case H6: the body reads neither view of the entry")

@script:python depends on report@
p << dmacount.p;
@@
hand(p, "hand case H6: DMA view walked with scsi_sg_count() as bound")

@script:python depends on report@
p << cpumapped2.p;
@@
hand(p, "hand case H6: CPU view walked in a function that DMA-maps the command")

@script:python depends on report@
p << names2.p;
@@
hand(p, "hand case H7: the function already uses the name sgr or sgi")

// ---------------------------------------------------------------- patch
// the bound of a DMA walk is the total only if it is a local assigned from
// scsi_dma_map() of the walked command and written nowhere else
@dmavar depends on patch@
identifier fn, n;
expression cmd;
type T;
@@
fn(...) {
 ... when any
(
 n = scsi_dma_map(cmd);
|
 T n = scsi_dma_map(cmd);
)
 ... when any
}

// q is bound only on a write other than the scsi_dma_map() assignment
@dmavarn depends on patch@
identifier dmavar.fn, dmavar.n;
expression dmavar.cmd, E;
assignment operator aop;
position q;
@@
fn(...) {
 <+...
(
 n = scsi_dma_map(cmd)
|
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
 ...+>
}

@dmabad depends on dmavarn@
identifier dmavar.n;
position dmavarn.q;
@@
 n@q

// No hand case is left when these run, so every loop reads either the DMA
// or the CPU view of its entry: the DMA loops are converted first, then the
// rest.  (Positions cannot be inherited over the modifications.)
@dmafull depends on patch && !dmabad && !hard && !hardprot && !nonblk2 && !contloop && !declloop && !eother2 && !imod && !eafter && !mixed && !neither2 && !dmacount && !cpumapped2 && !names2@
iterator name scsi_for_each_sg, sg_ring_for_each_dma;
identifier dmavar.fn, dmavar.n;
expression dmavar.cmd;
identifier e, i;
@@
fn(...) {
 <...
- scsi_for_each_sg(cmd, e, n, i) {
+ sg_ring_for_each_dma(scsi_sgring(cmd), sgr, sgi) {
+	e = &sgr->sg[sgi];
  <+... \(sg_dma_address(e)\|sg_dma_len(e)\) ...+>
+	i++;
  }
 ...>
}

@dmaguard depends on patch && !hard && !hardprot && !nonblk2 && !contloop && !declloop && !eother2 && !imod && !eafter && !mixed && !neither2 && !dmacount && !cpumapped2 && !names2@
iterator name scsi_for_each_sg, sg_ring_for_each_dma;
expression cmd, n;
identifier e, i;
@@
- scsi_for_each_sg(cmd, e, n, i) {
+ sg_ring_for_each_dma(scsi_sgring(cmd), sgr, sgi) {
+	if (i >= n)
+		break;
+	e = &sgr->sg[sgi];
  <+... \(sg_dma_address(e)\|sg_dma_len(e)\) ...+>
+	i++;
  }

@cpufull depends on patch && !hard && !hardprot && !nonblk2 && !contloop && !declloop && !eother2 && !imod && !eafter && !mixed && !neither2 && !dmacount && !cpumapped2 && !names2@
iterator name scsi_for_each_sg, sg_ring_for_each;
expression cmd;
identifier e, i;
@@
- scsi_for_each_sg(cmd, e, scsi_sg_count(cmd), i) {
+ sg_ring_for_each(scsi_sgring(cmd), sgr, sgi) {
+	e = &sgr->sg[sgi];
  ...
+	i++;
  }

@cpuguard depends on patch && !hard && !hardprot && !nonblk2 && !contloop && !declloop && !eother2 && !imod && !eafter && !mixed && !neither2 && !dmacount && !cpumapped2 && !names2@
iterator name scsi_for_each_sg, sg_ring_for_each;
expression cmd, n;
identifier e, i;
@@
- scsi_for_each_sg(cmd, e, n, i) {
+ sg_ring_for_each(scsi_sgring(cmd), sgr, sgi) {
+	if (i >= n)
+		break;
+	e = &sgr->sg[sgi];
  ...
+	i++;
  }

@start depends on patch && (dmafull || dmaguard || cpufull || cpuguard)@
iterator name sg_ring_for_each, sg_ring_for_each_dma;
identifier i;
symbol sgr, sgi;
@@
(
+ i = 0;
  sg_ring_for_each_dma(..., sgr, sgi) { ... i++; }
|
+ i = 0;
  sg_ring_for_each(..., sgr, sgi) { ... i++; }
)

@decl depends on patch && (dmafull || dmaguard || cpufull || cpuguard)@
iterator name sg_ring_for_each, sg_ring_for_each_dma;
identifier fn;
symbol sgr, sgi;
@@
fn(...) {
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

@calls depends on patch && !hard && !hardprot && !nonblk2 && !contloop && !declloop && !eother2 && !imod && !eafter && !mixed && !neither2 && !dmacount && !cpumapped2 && !names2@
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
hand(p, "note: no scsi_host_template in these files; if the driver is converted, flag its template by hand")
