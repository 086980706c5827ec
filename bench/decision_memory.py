"""The memory a command's scatter/gather list takes in each design: the
chunks and pools of sg_table's chains and sg_ring's arrays for a number
of segments, and the arrays per command the IOMMU class counted."""

from bench.decision_rules import MAP_PER_ARRAY, SEGMENTS

# the sg pool caches of each way a design takes pool memory (the variant
# file's memory key): chained lists from sgpool-N, rings from sgring-N, none
POOL_PREFIX = {'chained': 'sgpool', 'ring': 'sgring', 'none': None}


def pool_sizes(slab, prefix):
    """{entries: objsize} of the pools named PREFIX-N in a slabinfo dict."""
    return {int(k.split('-')[1]): x['objsize'] for k, x in slab.items() if k.startswith(prefix + '-')}


def chunks_sg_table(n, inline, chunk):
    """The pool allocations (entries each) sg_alloc_table_chained() makes
    for N entries with an inline first chunk of INLINE entries and pool
    chunks of at most CHUNK (6.1 lib/sg_pool.c + __sg_alloc_table(): every
    chunk but the last gives its last entry to the chain link)."""
    if n <= inline:
        return []
    first = inline > 1
    cur = inline if first else chunk
    left, out = n, []
    while left:
        alloc = left
        if alloc > cur:
            alloc, used = cur, cur - 1
        else:
            used = alloc
        left -= used
        if first:
            first = False
        else:
            out.append(alloc)
        cur = chunk
    return out


def chunks_sg_ring(n, inline, chunk):
    """The pool arrays sg_alloc_ring_chained() adds after an inline head of
    INLINE entries (sg_ring lib/sg_pool.c: min(left, CHUNK) entries each)."""
    left, out = max(0, n - inline), []
    while left:
        k = min(left, chunk)
        out.append(k)
        left -= k
    return out


def pool_for(k, pools):
    fit = [p for p in sorted(pools) if p >= k]
    if not fit:
        raise ValueError(f'no pool holds {k} entries (pools {sorted(pools)})')
    return fit[0]


def memory_rows(sizes, pools, segs=SEGMENTS, kind=None):
    """Bytes per command for each segment count: (n, fixed, pool chunks,
    total, chunk list).  fixed = struct scsi_cmnd + the inline first array
    in the pdu (the LLD's own cmd_size is the same for every design and
    left out).  KIND is the variant's memory key (chained, ring or none:
    a converted host's data buffer takes no pool memory, the pdu keeps its
    inline array for the other hosts); by default ring where the sizes
    have struct sg_ring, else chained."""
    kind = kind or ('ring' if 'sizeof_sg_ring' in sizes else 'chained')
    ring = kind == 'ring'
    sg = sizes['sizeof_scatterlist']
    inline = sizes['SCSI_INLINE_SG_CNT']
    if ring:
        fixed_inline = sizes['offsetof_sg_ring_sg'] + sg * inline   # struct_size(ring, sg, n)
        fixed_inline = max(fixed_inline, sizes['sizeof_sg_ring'])
    else:
        fixed_inline = max(sg, sg * inline)                        # scsi_mq_inline_sgl_size()
    fixed = sizes['sizeof_scsi_cmnd'] + fixed_inline
    rows = []
    for n in segs:
        if kind == 'none':
            ch = []
        elif ring:
            ch = chunks_sg_ring(n, inline, sizes['SG_RING_CHUNK_SIZE'])
        else:
            ch = chunks_sg_table(n, inline, sizes['SG_CHUNK_SIZE'])
        pl = [pool_for(k, pools) for k in ch]
        pool_bytes = sum(pools[p] for p in pl)
        rows.append((n, fixed, pool_bytes, fixed + pool_bytes, pl))
    return rows, fixed_inline


def ring_arrays(ev, ipairs, cand):
    """The most arrays per command CAND's rings had in the IOMMU class
    (ev.calls of the iommu runs at IPAIRS: MAP_PER_ARRAY entries over
    scsi_queue_rq entries, per I/O), or None where not counted (a design
    that calls MAP_PER_ARRAY once per command has none)."""
    got = []
    for d, p in ipairs:
        c = ev.calls.get(('iommu', d, p), {}).get(cand, {})
        if c.get('scsi_queue_rq') and MAP_PER_ARRAY in c:
            got.append(c[MAP_PER_ARRAY] / c['scsi_queue_rq'])
    return max(got) if got else None
