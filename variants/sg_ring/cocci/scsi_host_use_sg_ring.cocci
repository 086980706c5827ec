// SPDX-License-Identifier: GPL-2.0
/// Convert a SCSI host driver whose uses of the single-array accessors are
/// all mechanical to the sg_ring calls, and opt its host template in
/// (use_sg_ring):
///  - scsi_dma_map()/scsi_dma_unmap()/scsi_sg_count() become
///    scsi_dma_map_ring()/scsi_dma_unmap_ring()/scsi_sgring_count();
///  - a scsi_for_each_sg() block walks the ring instead (its DMA-mapped
///    entries if the body reads sg_dma_address()/sg_dma_len()), keeping the
///    loop index counting across arrays as before, also after the loop.
/// A file with any use this cannot convert safely is left alone entirely:
/// scsi_sglist()/scsi_prot_sglist()/scsi_prot_sg_count() (the driver walks,
/// maps or copies the array itself), sdb.table, protection loops, a loop
/// whose body is a single statement, declares variables (the inserted
/// assignment would put a declaration after a statement) or uses continue
/// (it would skip the index increment).  Those need a hand conversion, or
/// stay unconverted: the transition of patch 0012 keeps them correct with
/// one (chained) scatterlist per command.  Single-statement loops are found with the
/// braces isomorphisms disabled: with them, { ... } also matches a bare
/// statement, and such a loop went unconverted while its host was flagged
/// (fixture tests/nonblock.c).
//
// Confidence: High for what it converts: each rewrite keeps its meaning for
// rings of any number of arrays, and on a host without use_sg_ring too (its
// ring is one array), so converted code is right whether or not the flag is
// set; the flag is added only where no use the rule cannot convert is left.
// Apply it to all the files of one driver at once (one group of
// --file-groups per driver), so that one unconvertible use anywhere in the
// driver keeps its template unflagged:
//   spatch --sp-file scsi_host_use_sg_ring.cocci -D patch --in-place \
//          --file-groups GROUPS
// A template in a file without accessor uses (a library driver such as
// 53c700 and its front ends) must be flagged by hand.  Build and review.

virtual patch

@hard depends on patch@
expression cmd, E;
@@
(
 scsi_sglist(cmd)
|
 scsi_prot_sglist(cmd)
|
 scsi_prot_sg_count(cmd)
|
 E.sdb.table
|
 E->sdb.table
)

@hardloop depends on patch@
iterator name scsi_for_each_sg, scsi_for_each_prot_sg;
expression cmd, n;
identifier e, i;
statement S;
declaration d;
@@
(
 scsi_for_each_prot_sg(cmd, e, n, i) S
|
 scsi_for_each_sg(cmd, e, n, i) { <+... continue; ...+> }
|
 scsi_for_each_sg(cmd, e, n, i) { <+... d ...+> }
)

// a loop whose body is a single statement: the disjunction is ordered, so
// p is bound only where the first branch (a block) does not match
@nonblk depends on patch disable braces0, braces1, braces2, braces3, braces4@
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

@hardstmt depends on patch@
iterator name scsi_for_each_sg;
expression cmd, n;
identifier e, i;
statement S;
position nonblk.p;
@@
 scsi_for_each_sg@p(cmd, e, n, i) S

@dmaloop depends on patch && !hard && !hardloop && !hardstmt@
iterator name scsi_for_each_sg, sg_ring_for_each_dma;
expression cmd, n;
identifier e, i;
@@
- scsi_for_each_sg(cmd, e, n, i) {
+ sg_ring_for_each_dma(scsi_sgring(cmd), sgr, sgi) {
+	e = &sgr->sg[sgi];
  <+... \(sg_dma_address(e)\|sg_dma_len(e)\) ...+>
+	i++;
  }

@cpuloop depends on patch && !hard && !hardloop && !hardstmt@
iterator name scsi_for_each_sg, sg_ring_for_each;
expression cmd, n;
identifier e, i;
@@
- scsi_for_each_sg(cmd, e, n, i) {
+ sg_ring_for_each(scsi_sgring(cmd), sgr, sgi) {
+	e = &sgr->sg[sgi];
  ...
+	i++;
  }

@start depends on patch && !hard && !hardloop && !hardstmt@
iterator name sg_ring_for_each, sg_ring_for_each_dma;
identifier i;
@@
(
+ i = 0;
  sg_ring_for_each_dma(..., sgr, sgi) { ... i++; }
|
+ i = 0;
  sg_ring_for_each(..., sgr, sgi) { ... i++; }
)

@decl depends on patch && !hard && !hardloop && !hardstmt@
iterator name sg_ring_for_each, sg_ring_for_each_dma;
identifier fn;
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

@calls depends on patch && !hard && !hardloop && !hardstmt@
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

@tmpl depends on patch && !hard && !hardloop && !hardstmt && (calls || dmaloop || cpuloop)@
identifier t;
@@
struct scsi_host_template t = {
	...,
+	.use_sg_ring = 1,
};
