"""The rules of the decision report: which functions do each job in each
design (ROLES), what counts as API, the headers, accessors and semantic
patch it reads, the segment counts of the memory table, the sizes probe.
DECISION.md states each next to its table."""
import os


TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONTROL, RING = 'sg_table', 'sg_ring'

# Functions compared side by side: role, who writes it, then per design the
# (file, function) list that does the job.  The sg_table code is read from
# the control's tree (the base with common/series; the control variant adds
# only tests), the sg_ring code from the patched tree.  The raw files keep
# the label "base" for the control's side.
ROLES = [
    ('allocate a chained list from the pools', 'API',
     [('include/linux/scatterlist.h', 'sg_alloc_table_chained'), ('lib/sg_pool.c', '__sg_alloc_table_chained'),
      ('lib/scatterlist.c', '__sg_alloc_table')],
     [('include/linux/sg_ring.h', 'sg_alloc_ring_chained'), ('lib/sg_pool.c', '__sg_alloc_ring_chained')]),
    ('free it', 'API',
     [('include/linux/scatterlist.h', 'sg_free_table_chained'), ('lib/sg_pool.c', '__sg_free_table_chained'),
      ('lib/scatterlist.c', '__sg_free_table')],
     [('include/linux/sg_ring.h', 'sg_free_ring_chained'), ('lib/sg_pool.c', '__sg_free_ring_chained'),
      ('lib/sg_pool.c', 'sg_ring_free_tail')]),
    ('map a request (block)', 'API',
     [('block/blk-merge.c', '__blk_rq_map_sg'), ('block/blk-merge.c', '__blk_bios_map_sg'),
      ('block/blk-merge.c', 'blk_next_sg')],
     [('block/blk-merge.c', 'blk_rq_map_sg_ring'), ('block/blk-merge.c', '__blk_rq_map_cursor'),
      ('block/blk-merge.c', '__blk_bios_map_sg'), ('block/blk-merge.c', 'blk_next_sg'),
      ('block/blk-merge.c', 'blk_next_sg_ring')]),
    ('DMA map', 'API',
     [('kernel/dma/mapping.c', 'dma_map_sg_attrs'), ('kernel/dma/mapping.c', '__dma_map_sg_attrs')],
     [('kernel/dma/mapping.c', 'dma_map_sg_ring_attrs'), ('kernel/dma/mapping.c', 'dma_map_sg_ring_at_once'),
      ('kernel/dma/mapping.c', '__dma_map_sg_ring_ops')]),
    ('DMA map and unmap behind an IOMMU (dma-iommu)', 'API',
     [('drivers/iommu/dma-iommu.c', 'iommu_dma_map_sg'), ('drivers/iommu/dma-iommu.c', 'iommu_dma_unmap_sg')],
     [('drivers/iommu/dma-iommu.c', 'iommu_dma_map_sg_ring'), ('drivers/iommu/dma-iommu.c', 'iommu_dma_unmap_sg_ring'),
      ('drivers/iommu/dma-iommu.c', 'iommu_dma_can_map_sg_ring')]),
    ('DMA unmap', 'API',
     [('kernel/dma/mapping.c', 'dma_unmap_sg_attrs')],
     [('kernel/dma/mapping.c', 'dma_unmap_sg_ring_attrs'),
      ('kernel/dma/mapping.c', '__dma_unmap_sg_ring_attrs')]),
    ('copy to/from a buffer', 'API',
     [('lib/scatterlist.c', 'sg_copy_buffer')],
     [('lib/sg_ring.c', 'sg_ring_copy_buffer'), ('lib/sg_ring.c', 'sg_ring_xfer')]),
    ('mapping iterator: next chunk', 'API',
     [('lib/scatterlist.c', 'sg_miter_next'), ('lib/scatterlist.c', 'sg_miter_get_next_page')],
     [('lib/sg_ring.c', 'sg_ring_miter_next'), ('lib/sg_ring.c', 'sg_ring_miter_next_array'),
      ('lib/sg_ring.c', 'sg_ring_miter_set')]),
    ('SCSI core: set up a command\'s buffers', 'SCSI core',
     [('drivers/scsi/scsi_lib.c', 'scsi_alloc_sgtables')],
     [('drivers/scsi/scsi_lib.c', 'scsi_alloc_sgtables'),
      ('drivers/scsi/scsi_lib.c', 'scsi_sg_ring_append')]),
    ('SCSI core: free them', 'SCSI core',
     [('drivers/scsi/scsi_lib.c', 'scsi_free_sgtables')],
     [('drivers/scsi/scsi_lib.c', 'scsi_free_sgtables')]),
    ('SCSI core: DMA map a command', 'SCSI core',
     [('drivers/scsi/scsi_lib_dma.c', 'scsi_dma_map'), ('drivers/scsi/scsi_lib_dma.c', 'scsi_dma_unmap')],
     [('drivers/scsi/scsi_lib_dma.c', 'scsi_dma_map'), ('drivers/scsi/scsi_lib_dma.c', 'scsi_dma_unmap')]),
    ('SCSI core: error handler saves/restores the buffer', 'SCSI core',
     [('drivers/scsi/scsi_error.c', 'scsi_eh_prep_cmnd'), ('drivers/scsi/scsi_error.c', 'scsi_eh_restore_cmnd')],
     [('drivers/scsi/scsi_error.c', 'scsi_eh_prep_cmnd'), ('drivers/scsi/scsi_error.c', 'scsi_eh_restore_cmnd')]),
    ('driver: scsi_debug copies data in and out', 'driver',
     [('drivers/scsi/scsi_debug.c', 'fill_from_dev_buffer'), ('drivers/scsi/scsi_debug.c', 'fetch_to_dev_buffer'),
      ('drivers/scsi/scsi_debug.c', 'do_device_access')],
     [('drivers/scsi/scsi_debug.c', 'fill_from_dev_buffer'), ('drivers/scsi/scsi_debug.c', 'fetch_to_dev_buffer'),
      ('drivers/scsi/scsi_debug.c', 'do_device_access')]),
    ('driver: virtio_scsi builds its virtqueue lists', 'driver',
     [('drivers/scsi/virtio_scsi.c', '__virtscsi_add_cmd')],
     [('drivers/scsi/virtio_scsi.c', '__virtscsi_add_cmd')]),
    ('driver: vmw_pvscsi fills its device SG list from the DMA mapping', 'driver',
     [('drivers/scsi/vmw_pvscsi.c', 'pvscsi_create_sg'), ('drivers/scsi/vmw_pvscsi.c', 'pvscsi_map_buffers'),
      ('drivers/scsi/vmw_pvscsi.c', 'pvscsi_unmap_buffers')],
     [('drivers/scsi/vmw_pvscsi.c', 'pvscsi_create_sg'), ('drivers/scsi/vmw_pvscsi.c', 'pvscsi_first_dma_sg'),
      ('drivers/scsi/vmw_pvscsi.c', 'pvscsi_map_buffers'), ('drivers/scsi/vmw_pvscsi.c', 'pvscsi_unmap_buffers')]),
]

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

# The API surface: the headers that define each API.  sg_table: the 6.1
# scatterlist header (sg_table, chaining, iterators; sg_ring builds on its
# entry accessors too).  sg_ring: its own header plus every name the series
# adds to other headers.
SURFACE_HEADERS = ['include/linux/scatterlist.h', 'include/linux/sg_ring.h',
                   'include/linux/dma-mapping.h', 'include/linux/blk-mq.h',
                   'include/linux/blk-integrity.h', 'include/scsi/scsi_cmnd.h',
                   'include/scsi/scsi_eh.h']
CTAGS_KINDS = {'function': 'function', 'prototype': 'function', 'macro': 'macro',
               'member': 'struct field'}

# The single-array accessors and sdb.table (patch 0012 keeps them exactly as
# in 6.1 for hosts that do not set use_sg_ring; converted hosts use the ring
# calls instead).  Counted: every occurrence (git grep -o -w) in *.c and
# *.h of the whole tree, except the header that defines them.
ACCESSORS = ['scsi_sglist', 'scsi_sg_count', 'scsi_for_each_sg', 'scsi_prot_sglist',
             'scsi_prot_sg_count', 'scsi_for_each_prot_sg', r'sdb\.table', r'sdb->table']
ACCESSOR_DEF = 'include/scsi/scsi_cmnd.h'
# The semantic patch that converts the mechanical uses, and the drivers it
# runs over (one spatch per driver, so that one use it cannot convert keeps
# that driver's template unflagged).
COCCI_DIR = os.path.join(TOP, 'variants', RING, 'cocci')
COCCI_RULE = os.path.join(COCCI_DIR, 'scsi_host_use_sg_ring.cocci')
COCCI_GROUPS = os.path.join(COCCI_DIR, 'groups-6.1.txt')
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


# The drivers the sg_ring series converts (the rest of drivers/scsi is the
# SCSI core for the churn count).
DRIVERS = ('drivers/scsi/scsi_debug.c', 'drivers/scsi/virtio_scsi.c', 'drivers/scsi/vmw_pvscsi.c',
           'drivers/scsi/sr.c', 'drivers/scsi/megaraid/megaraid_sas_base.c',
           'drivers/scsi/megaraid/megaraid_sas_fusion.c')


CLASSES = ['API', 'SCSI core', 'drivers', 'tests', 'other']


# sg_ring's dma-iommu path calls it once per array of a ring (series patch
# 0030 lays the arrays out in one IOVA range, then maps each)
MAP_PER_ARRAY = '__iommu_map_sg'
