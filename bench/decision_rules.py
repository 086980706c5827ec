"""The rules of the decision report: which functions do each job in each
design (ROLES), what counts as API, the headers, accessors and semantic
patch it reads, the segment counts of the memory table, the sizes probe.
DECISION.md states each next to its table."""
import os
import sys


TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The jobs a design's code does, in the order DECISION.md lists them, and
# who writes that code.  Which functions do each job is the design's own
# knowledge: variants/<name>/decision.tsv (read by design() below).  The
# control's functions are read from the control's tree (the base with
# common/series; the control variant adds only tests), a candidate's from
# its patched tree.  The raw files keep the label "base" for the control.
ROLES = [
    ('allocate a chained list from the pools', 'API'),
    ('free it', 'API'),
    ('map a request (block)', 'API'),
    ('DMA map', 'API'),
    ('DMA map and unmap behind an IOMMU (dma-iommu)', 'API'),
    ('DMA unmap', 'API'),
    ('copy to/from a buffer', 'API'),
    ('mapping iterator: next chunk', 'API'),
    ("SCSI core: set up a command's buffers", 'SCSI core'),
    ('SCSI core: free them', 'SCSI core'),
    ('SCSI core: DMA map a command', 'SCSI core'),
    ('SCSI core: error handler saves/restores the buffer', 'SCSI core'),
    ('driver: scsi_debug copies data in and out', 'driver'),
    ('driver: virtio_scsi builds its virtqueue lists', 'driver'),
    ('driver: vmw_pvscsi fills its device SG list from the DMA mapping', 'driver'),
]
JOB_NAMES = [j for j, _ in ROLES]


# where the variants' decision.tsv files are (tests point it at fixtures)
VARIANTS_DIR = os.environ.get('SGB_VARIANTS_DIR', os.path.join(TOP, 'variants'))


def design(variant, root=None):
    """What the decision report reads of VARIANT: variants/<variant>/decision.tsv
    as {'header': path, 'opt_in': field or None, 'roles': {job: [(file,
    function)]}}; sys.exit naming the file and line on anything else."""
    path = os.path.join(root or VARIANTS_DIR, variant, 'decision.tsv')
    if not os.path.exists(path):
        sys.exit(f'decision: {path} is missing: say which functions do each job of '
                 'bench/decision_rules.py ROLES in this design (copy another variant\'s)')
    out = {'header': None, 'opt_in': None, 'roles': {}, 'drivers': [], 'cocci': None, 'residue': None}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            cols = line.rstrip('\n').split('\t')
            if cols[0] in ('header', 'opt_in', 'residue') and len(cols) == 2:
                out[cols[0]] = None if cols[1] == '-' else cols[1]
            elif cols[0] == 'driver' and len(cols) == 2:
                out['drivers'].append(cols[1])
            elif cols[0] == 'cocci' and len(cols) == 3:
                out['cocci'] = (os.path.join(TOP, cols[1]), os.path.join(TOP, cols[2]))
            elif cols[0] == 'job' and len(cols) == 4 and cols[1] in JOB_NAMES:
                out['roles'].setdefault(cols[1], []).append((cols[2], cols[3]))
            else:
                sys.exit(f'decision: {path}:{n}: not a record this file takes (header PATH, '
                         'opt_in FIELD, driver FILE, cocci RULE GROUPS, residue FILE, or job JOB FILE '
                         'FUNCTION with a job of ROLES, tab-separated)')
    if not out['header']:
        sys.exit(f'decision: {path}: no header line (the design\'s own API header)')
    return out


# The control's functions of a job as runs collected before common/0003
# (2026-12-06) have them: sg_alloc_table_chained() and
# sg_free_table_chained() were then whole functions in lib/sg_pool.c.  A
# DECISION.md rendered from such a run compares those.
ROLES_BEFORE_COMMON = {
    'allocate a chained list from the pools':
        [('lib/sg_pool.c', 'sg_alloc_table_chained'), ('lib/scatterlist.c', '__sg_alloc_table')],
    'free it': [('lib/sg_pool.c', 'sg_free_table_chained'), ('lib/scatterlist.c', '__sg_free_table')],
}

# Calls not counted as API calls: C keywords and generic helpers.
NOT_API = set('''if for while switch return sizeof typeof __typeof__ likely unlikely
WARN_ON WARN_ON_ONCE WARN BUG_ON BUG min max min_t max_t ARRAY_SIZE defined
READ_ONCE WRITE_ONCE offsetof container_of'''.split())

# The API surface: each design's own header (variants/<name>/decision.tsv
# header) and the headers where a series may add names a user meets; the
# collection reads these in the control's tree and in each candidate's.
SURFACE_HEADERS = ['include/linux/dma-mapping.h', 'include/linux/blk-mq.h',
                   'include/linux/blk-integrity.h', 'include/scsi/scsi_cmnd.h',
                   'include/scsi/scsi_host.h', 'include/scsi/scsi_eh.h']
CTAGS_KINDS = {'function': 'function', 'prototype': 'function', 'macro': 'macro',
               'member': 'struct field'}

# The single-array accessors and sdb.table (patch 0012 keeps them exactly as
# in 6.1 for hosts that do not set use_sg_ring; converted hosts use the ring
# calls instead).  Counted: every occurrence (git grep -o -w) in *.c and
# *.h of the whole tree, except the header that defines them.
ACCESSORS = ['scsi_sglist', 'scsi_sg_count', 'scsi_for_each_sg', 'scsi_prot_sglist',
             'scsi_prot_sg_count', 'scsi_for_each_prot_sg', r'sdb\.table', r'sdb->table']
ACCESSOR_DEF = 'include/scsi/scsi_cmnd.h'
TABLESIZE_RX = r'(\.|->)sg_tablesize[[:space:]]*=[^=]'

SEGMENTS = [1, 2, 8, 128, 129, 256, 1024, 2048]

# DECISION.md is the summary, on about two screens: a verdict cell of at
# most SHORT characters; the rows in full, the tables and the rules behind
# them are in APPENDIX.
SHORT = 300
APPENDIX = 'DECISION-appendix.md'

PROBE = r'''
#include "%(src)s/drivers/scsi/scsi_lib.c"
#include <linux/kbuild.h>

void sgb_decision_sizes(void);
void sgb_decision_sizes(void)
{
	DEFINE(sizeof_scatterlist, sizeof(struct scatterlist));
	DEFINE(sizeof_sg_table, sizeof(struct sg_table));
	DEFINE(sizeof_scsi_data_buffer, sizeof(struct scsi_data_buffer));
	DEFINE(sizeof_scsi_cmnd, sizeof(struct scsi_cmnd));
	DEFINE(SCSI_INLINE_SG_CNT, SCSI_INLINE_SG_CNT);
	DEFINE(SCSI_INLINE_PROT_SG_CNT, SCSI_INLINE_PROT_SG_CNT);
	DEFINE(SG_CHUNK_SIZE, SG_CHUNK_SIZE);
	DEFINE(SG_MAX_SEGMENTS, SG_MAX_SEGMENTS);
	DEFINE(SG_ALL, SG_ALL);
	DEFINE(L1_CACHE_BYTES, L1_CACHE_BYTES);
#ifdef _LINUX_SG_RING_H
	DEFINE(sizeof_sg_ring, sizeof(struct sg_ring));
	DEFINE(offsetof_sg_ring_sg, offsetof(struct sg_ring, sg));
	DEFINE(SG_RING_CHUNK_SIZE, SG_RING_CHUNK_SIZE);
#endif
}
'''


CLASSES = ['API', 'SCSI core', 'drivers', 'tests', 'other']


# sg_ring's dma-iommu path calls it once per array of a ring (series patch
# 0030 lays the arrays out in one IOVA range, then maps each)
MAP_PER_ARRAY = '__iommu_map_sg'
