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
import ast
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from bench import attrib_counts
from bench import attrib_evidence
from bench import mdtable
from bench import model
from bench import readers
from bench import stats
from bench import tracefs

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


def die(msg):
    sys.exit(f'decision.py: error: {msg}')


def write_atomic(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


# ---------------------------------------------------------------- parsers

def parse_numstat(text):
    """git diff --numstat: [(added, removed, path)]; binary files count 0."""
    out = []
    for line in text.splitlines():
        a, r, path = line.split('\t', 2)
        out.append((0 if a == '-' else int(a), 0 if r == '-' else int(r), path))
    return out


# The drivers the sg_ring series converts (the rest of drivers/scsi is the
# SCSI core for the churn count).
DRIVERS = ('drivers/scsi/scsi_debug.c', 'drivers/scsi/virtio_scsi.c', 'drivers/scsi/vmw_pvscsi.c',
           'drivers/scsi/sr.c', 'drivers/scsi/megaraid/megaraid_sas_base.c',
           'drivers/scsi/megaraid/megaraid_sas_fusion.c')


def churn_class(path):
    """Which part of the change a file belongs to."""
    if re.search(r'kunit|_bench\.c$|Kconfig\.debug$', path):
        return 'tests'
    if path.startswith(('include/linux/', 'lib/', 'block/', 'kernel/dma/', 'drivers/iommu/')):
        return 'API'
    if path in DRIVERS:
        return 'drivers'
    if path.startswith(('drivers/scsi/', 'include/scsi/')):
        return 'SCSI core'
    return 'other'


CLASSES = ['API', 'SCSI core', 'drivers', 'tests', 'other']


def churn(numstat):
    """{class: [files, added, removed]} plus 'total'."""
    out = {c: [0, 0, 0] for c in CLASSES + ['total']}
    for a, r, path in numstat:
        for c in (churn_class(path), 'total'):
            out[c][0] += 1
            out[c][1] += a
            out[c][2] += r
    return out


def parse_groups(text):
    """groups-6.1.txt: blank-line separated groups of paths, one per driver."""
    return [g.split() for g in re.split(r'\n\s*\n', text) if g.split()]


def run_cocci(trees, tree, tmp, groups=None):
    """The semantic patch over TREE, one spatch per driver group (those of
    groups-6.1.txt unless GROUPS is given): its diff."""
    if groups is None:
        with open(COCCI_GROUPS) as f:
            groups = parse_groups(f.read())
    work = os.path.join(tmp, 'cocci-' + tree[:12])
    out = []
    for group in groups:
        for path in group:
            text = trees.show(tree, path)
            if not text:
                die(f'{path} of {os.path.relpath(COCCI_GROUPS, TOP)} is not in the {RING} tree: '
                    'update the groups to the base')
            local = os.path.join(work, path)
            os.makedirs(os.path.dirname(local), exist_ok=True)
            with open(local, 'w') as f:
                f.write(text)
        out.append(run(['spatch', '--very-quiet', '--sp-file', COCCI_RULE, '-D', 'patch'] + group,
                       cwd=work))
    return ''.join(out)


def parse_cocci(text):
    """spatch -D patch output: {path: [added, removed, accessor sites removed,
    template flagged]}."""
    rx = re.compile(r'\b(%s)\b' % '|'.join(ACCESSORS))
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith('--- '):
            cur = out.setdefault(line[4:].split()[0], [0, 0, 0, False])
        elif line.startswith('+++ ') or cur is None:
            continue
        elif line.startswith('+'):
            cur[0] += 1
            cur[2] -= len(rx.findall(line))
            cur[3] |= bool(re.search(r'\.use_sg_ring\s*=\s*1', line))
        elif line.startswith('-'):
            cur[1] += 1
            cur[2] += len(rx.findall(line))
    return out


def parse_pmccabe(text):
    """pmccabe lines: {function: (modified, traditional, statements, first, lines)}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r'(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\S+\(\d+\):\s+(\S+)$', line)
        if m:
            out[m.group(6)] = tuple(int(m.group(i)) for i in range(1, 6))
    return out


def strip_c(text):
    """C text without comments and string/char literals."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '""', text)


def api_calls(body, own):
    """Distinct names called in a function body (identifier followed by
    '('), without keywords, generic helpers (NOT_API) and the function's
    own name."""
    text = strip_c(body)
    brace = text.find('{')
    text = text[brace:] if brace >= 0 else text
    names = set(re.findall(r'\b([A-Za-z_]\w*)\s*\(', text))
    return sorted(n for n in names if n not in NOT_API and n != own)


def ctags_json(text):
    """ctags --output-format=json lines, as collect writes them (each
    record's path the header's path in the tree): [tag records]."""
    return [r for r in map(json.loads, text.splitlines()) if r.get('_type') == 'tag']


def ctags_xformat(text):
    """The raw file of runs before ctags' JSON: 'header|%K|%N|%s|%C' lines
    (ctags -x --_xformat) -> the records ctags_json gives."""
    out = []
    for line in text.splitlines():
        parts = line.split('|', 4)
        if len(parts) == 5:
            path, kind, name, scope, src = parts
            out.append({'_type': 'tag', 'path': path, 'kind': kind, 'name': name, 'pattern': src,
                        **({'scope': scope} if scope else {})})
    return out


def parse_ctags(records):
    """ctags tag records (kind, name, scope, pattern): sorted unique
    (kind, name) with kind one of function/macro/struct field; include
    guards and static_assert artefacts dropped; fields named scope.field."""
    out = set()
    for r in records:
        kind, name, scope = CTAGS_KINDS.get(r['kind']), r['name'], r.get('scope', '')
        if not kind:
            continue
        if kind == 'macro' and re.match(r'_+[A-Z0-9_]*_H_*$|_LINUX_[A-Z0-9_]*_H$', name):
            continue
        if 'static_assert' in r.get('pattern', '') or 'BUILD_BUG' in r.get('pattern', ''):
            continue
        if kind == 'struct field':
            if not scope:
                continue
            # ctags names anonymous structs and unions by a hash of the file
            name = re.sub(r'__anon[0-9a-f]*', '(anon)', f'{scope}.{name}')
        out.add((kind, name))
    return sorted(out)


def parse_sizes(text):
    """'name value' lines (from the compiled probe) -> {name: int}."""
    out = {}
    for line in text.splitlines():
        if line.strip():
            k, v = line.split()
            out[k] = int(v)
    return out


def parse_grep(text):
    """git grep -n -o lines '<file>:<line>:<match>' -> [(file, line, match)]."""
    out = []
    for line in text.splitlines():
        path, ln, match = line.split(':', 2)
        out.append((path, int(ln), match))
    return out


def subsystem(path):
    parts = path.split('/')
    return '/'.join(parts[:2]) if parts[0] in ('drivers', 'arch', 'include') and len(parts) > 2 else parts[0]


def int_eval(expr):
    """Value of an integer constant expression (ints, + - * / << >> ( )),
    or None."""
    expr = re.sub(r'\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b', r'\1', expr.strip())
    try:
        tree = ast.parse(expr, mode='eval')
    except SyntaxError:
        return None
    ok = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult,
          ast.Div, ast.FloorDiv, ast.LShift, ast.RShift, ast.USub, ast.UAdd)
    if not all(isinstance(n, ok) for n in ast.walk(tree)):
        return None
    if not all(isinstance(n.value, int) for n in ast.walk(tree) if isinstance(n, ast.Constant)):
        return None
    try:
        return int(eval(compile(tree, '<expr>', 'eval')))  # noqa: S307 - checked above
    except (ZeroDivisionError, ValueError):
        return None


def parse_defines(text, known=None):
    """git grep -n lines '<file>:<line>:#define NAME value' or
    '<file>:<line>:  NAME = value,' (an enum constant) -> {NAME: [(file,
    value)]}; KNOWN ({NAME: int}, the compiled values) take precedence."""
    out = {}
    for line in text.splitlines():
        path, _, src = line.split(':', 2)
        m = re.match(r'\s*#\s*define\s+(\w+)\s+(.*?)\s*(/\*.*)?$', src) or \
            re.match(r'\s*(\w+)\s*=\s*((?:[^,/]|/(?![*/]))*?)\s*,?\s*(/[*/].*)?$', src)
        if m and '(' not in src.split(m.group(1), 1)[1][:1]:
            out.setdefault(m.group(1), []).append((path, m.group(2)))
    for k, v in (known or {}).items():
        out[k] = [('', str(v))]
    return out


def resolve(expr, path, defines, depth=0):
    """Integer value of EXPR as used in PATH, resolving macros through
    DEFINES (a definition in the same file first, then in the same
    directory, then a single value across the tree), or None."""
    expr = re.sub(r'/\*.*?\*/', '', expr).strip().rstrip(',;').strip()
    v = int_eval(expr)
    if v is not None or depth > 4:
        return v
    names = set(re.findall(r'\b[A-Za-z_]\w*\b', expr))
    if not names:
        return None
    for n in names:
        cands = defines.get(n)
        if not cands:
            return None
        same = [val for p, val in cands if p == path] or \
            [val for p, val in cands if os.path.dirname(p) == os.path.dirname(path)]
        vals = {resolve(val, p, defines, depth + 1) for p, val in cands} if not same else \
            {resolve(val, path, defines, depth + 1) for val in same}
        if len(vals) != 1 or None in vals:
            return None
        expr = re.sub(r'\b%s\b' % n, str(vals.pop()), expr)
    return int_eval(expr)


def parse_tablesize(text):
    """git grep -n lines '<file>:<line>:<text>' of sg_tablesize assignments
    -> [(file, line, value text)].  USB host controllers' own
    hcd->self.sg_tablesize (struct usb_bus, not a SCSI host) is left out."""
    out = []
    for line in text.splitlines():
        path, ln, src = line.split(':', 2)
        if re.search(r'\bself\.sg_tablesize', src):
            continue
        m = re.search(r'sg_tablesize\s*=\s*([^;,]*(\([^)]*\))?[^;,]*)', src)
        if m:
            out.append((path, int(ln), m.group(1).strip()))
    return out


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


def memory_rows(sizes, pools, segs=SEGMENTS):
    """Bytes per command for each segment count: (n, fixed, pool chunks,
    total, chunk list).  fixed = struct scsi_cmnd + the inline first array
    in the pdu (the LLD's own cmd_size is the same for both and left out)."""
    ring = 'sizeof_sg_ring' in sizes
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
        if ring:
            ch = chunks_sg_ring(n, inline, sizes['SG_RING_CHUNK_SIZE'])
        else:
            ch = chunks_sg_table(n, inline, sizes['SG_CHUNK_SIZE'])
        pl = [pool_for(k, pools) for k in ch]
        pool_bytes = sum(pools[p] for p in pl)
        rows.append((n, fixed, pool_bytes, fixed + pool_bytes, pl))
    return rows, fixed_inline


# ---------------------------------------------------------------- collect

def run(cmd, cwd=None, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors='replace')
    if check and p.returncode != 0:
        die(f'{" ".join(cmd)[:200]} failed ({p.returncode}): {p.stderr.strip()[:800]}')
    return p.stdout


def series_hash(variant):
    return run(['bash', '-c', f'top="{TOP}"; . "$top/common/lib.sh"; series_hash "$1"', '-', variant]).strip()


def run_info(rundir, variant):
    """series_sha256, series_commit, config_sha256 of the kernel the run booted."""
    for path in sorted(glob.glob(os.path.join(rundir, 'raw', '*', variant, 'r*', 'run.info'))):
        info = {}
        with open(path) as f:
            for line in f:
                k, _, v = line.rstrip('\n').partition(' ')
                info.setdefault(k, v)
        return info
    return {}


# sg_ring's dma-iommu path calls it once per array of a ring (series patch
# 0030 lays the arrays out in one IOVA range, then maps each)
MAP_PER_ARRAY = '__iommu_map_sg'


def ring_arrays(ev, ipairs):
    """The most arrays per command sg_ring's rings had in the IOMMU class
    (ev.calls of the iommu runs at IPAIRS: MAP_PER_ARRAY entries over
    scsi_queue_rq entries, per I/O), or None where not counted."""
    got = []
    for d, p in ipairs:
        c = ev.calls.get(('iommu', d, p), {}).get(RING, {})
        if c.get('scsi_queue_rq') and MAP_PER_ARRAY in c:
            got.append(c[MAP_PER_ARRAY] / c['scsi_queue_rq'])
    return max(got) if got else None


class Trees:
    """The series applied to the base in a private bare repository whose
    objects borrow from build/git (nothing is written there)."""

    def __init__(self, tmp):
        self.git_dir = os.environ.get('SGB_BUILD_GIT', os.path.join(TOP, 'build', 'git'))
        if not os.path.isdir(os.path.join(self.git_dir, '.git', 'objects')) and \
                not os.path.isdir(os.path.join(self.git_dir, 'objects')):
            die(f'no kernel tree repository at {self.git_dir}: run "make base" '
                '(or set SGB_BUILD_GIT to an existing build/git)')
        objs = os.path.join(self.git_dir, '.git', 'objects')
        if not os.path.isdir(objs):
            objs = os.path.join(self.git_dir, 'objects')
        self.repo = os.path.join(tmp, 'repo.git')
        run(['git', 'init', '-q', '--bare', self.repo])
        with open(os.path.join(self.repo, 'objects', 'info', 'alternates'), 'w') as f:
            f.write(objs + '\n')
        self.base = run(['git', '-C', self.git_dir, 'rev-parse', 'base^{commit}']).strip()
        self.tmp = tmp

    def git(self, *args, index=None, check=True):
        env = dict(os.environ, GIT_DIR=self.repo)
        if index:
            env['GIT_INDEX_FILE'] = index
        return run(['git'] + list(args), env=env, check=check)

    def apply(self, variant):
        index = os.path.join(self.tmp, f'index-{variant}')
        self.git('read-tree', self.base, index=index)
        for series in (os.path.join(TOP, 'common', 'series'),
                       os.path.join(TOP, 'variants', variant, 'series')):
            if not os.path.exists(series):
                continue
            with open(series) as f:
                names = [ln.split()[0] for ln in f if ln.strip() and not ln.startswith('#')]
            for name in names:
                patch = os.path.join(os.path.dirname(series), name)
                env = dict(os.environ, GIT_DIR=self.repo, GIT_INDEX_FILE=index)
                p = subprocess.run(['git', 'apply', '--cached', '--whitespace=nowarn', patch],
                                   env=env, stderr=subprocess.PIPE, text=True)
                if p.returncode:
                    die(f'{os.path.relpath(patch, TOP)} does not apply to the base: {p.stderr.strip()[:400]}')
        return self.git('write-tree', index=index).strip()

    def grep(self, tree, *args):
        """git grep over TREE, its output without the leading '<tree>:'."""
        out = self.git('grep', *args[:-1], tree, '--', *args[-1], check=False)
        return re.sub(r'^%s:' % tree, '', out, flags=re.M)

    def show(self, tree, path):
        return self.git('show', f'{tree}:{path}', check=False)


def pick_obj(variant, want_config):
    """A configured build directory of VARIANT whose .config is the one the
    run booted (its generated headers and flags are used)."""
    cands = [os.path.join(TOP, 'build', variant, 'obj'),
             os.path.join(os.path.dirname(os.environ.get('SGB_BUILD_GIT', os.path.join(TOP, 'build', 'git'))),
                          variant, 'obj')]
    seen = []
    for obj in cands:
        cfg = os.path.join(obj, '.config')
        cmd = os.path.join(obj, 'drivers', 'scsi', '.scsi_lib.o.cmd')
        if not (os.path.exists(cfg) and os.path.exists(cmd)):
            continue
        got = run(['sha256sum', cfg]).split()[0]
        if want_config and got != want_config:
            seen.append(f'{obj} (config {got[:12]})')
            continue
        return obj, got
    die(f'no built {variant} kernel with the run\'s .config (sha256 {want_config[:12]}) '
        f'[{", ".join(seen) or "none built"}]: run "make build" first')


def probe_sizes(trees, tree, variant, obj, tmp):
    """Compile scsi_lib.c of TREE plus DEFINE()s of the sizes with the
    kernel's own command line for scsi_lib.o (from OBJ's .cmd file),
    sources from TREE, generated headers from OBJ; read the values back
    from the assembler output (the asm-offsets mechanism)."""
    src = os.path.join(tmp, f'src-{variant}')
    os.makedirs(src)
    arch = subprocess.Popen(['git', 'archive', tree, 'include', 'arch/x86/include', 'drivers/scsi'],
                            env=dict(os.environ, GIT_DIR=trees.repo), stdout=subprocess.PIPE)
    subprocess.run(['tar', '-x', '-C', src], stdin=arch.stdout, check=True)
    if arch.wait():
        die(f'git archive of the {variant} tree failed')
    with open(os.path.join(obj, 'drivers', 'scsi', '.scsi_lib.o.cmd')) as f:
        line = f.readline()
    m = re.match(r'cmd_drivers/scsi/scsi_lib\.o := (.*?)\s*;', line)
    if not m:
        die(f'{obj}/drivers/scsi/.scsi_lib.o.cmd has no compiler command line: rebuild with make build')
    cmd = m.group(1)
    m = re.search(r' -c -o drivers/scsi/scsi_lib\.o (\S+)/drivers/scsi/scsi_lib\.c$', cmd)
    if not m:
        die(f'unexpected command line in {obj}/drivers/scsi/.scsi_lib.o.cmd')
    old = m.group(1)
    probe = os.path.join(tmp, f'probe-{variant}.c')
    with open(probe, 'w') as f:
        f.write(PROBE % {'src': src})
    out = os.path.join(tmp, f'probe-{variant}.s')
    cmd = cmd[:m.start()] + f' -S -o {out} {probe}'
    cmd = re.sub(r'^ccache ', '', cmd)
    cmd = cmd.replace('-Wp,-MMD,drivers/scsi/.scsi_lib.o.d', f'-Wp,-MMD,{tmp}/probe-{variant}.d')
    cmd = cmd.replace(old + '/', src + '/')
    p = subprocess.run(cmd, shell=True, cwd=obj, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        die(f'the size probe did not compile for {variant}: {p.stderr.strip()[-800:]}')
    with open(out) as f:
        vals = re.findall(r'"->(\w+) \$?(-?\d+) ', f.read())
    if not vals:
        die(f'no DEFINE() values in {out}')
    return ''.join(f'{k} {v}\n' for k, v in vals)


def check_series(rundir):
    """Refuse a run that was measured with another series than variants/."""
    for v in (RING, CONTROL):
        h = series_hash(v)
        ri = run_info(rundir, v)
        if ri.get('series_sha256') and ri['series_sha256'] != h:
            die(f'{rundir} was measured with another {v} series (sha256 {ri["series_sha256"][:12]}, '
                f'variants/ has {h[:12]}): check out the commit that made the run, or make a new run')


def collect(rundir):
    check_series(rundir)
    for tool in ('git', 'pmccabe', 'ctags', 'gcc', 'spatch'):
        if not shutil.which(tool):
            die(f'{tool} is missing: run make deps (common/deps.sh installs it)')
    if 'Universal Ctags' not in run(['ctags', '--version']):
        die('ctags is not Universal Ctags: install universal-ctags (make deps)')
    out = os.path.join(rundir, 'raw', 'decision')
    tmp = tempfile.mkdtemp(prefix='sgb-decision-')
    try:
        trees = Trees(tmp)
        files = {}
        info_lines = [f'base {trees.base}']
        tree_of = {'base': run(['git', '-C', trees.git_dir, 'rev-parse', 'base^{tree}']).strip()}
        for v in (RING, CONTROL):
            h = series_hash(v)
            ri = run_info(rundir, v)
            tree = trees.apply(v)
            tree_of[v] = tree
            match = 'not recorded'
            if ri.get('series_commit'):
                t = trees.git('rev-parse', ri['series_commit'] + '^{tree}', check=False).strip()
                match = 'same tree' if t == tree else (f'DIFFERENT tree {t[:12]}' if t else 'commit not in build/git')
                if t and t != tree:
                    die(f'the {v} series applied to the base gives tree {tree[:12]}, but the run booted '
                        f'{ri["series_commit"][:12]} (tree {t[:12]})')
            obj, cfg = pick_obj(v, ri.get('config_sha256', ''))
            info_lines.append(f'{v} tree {tree} series_sha256 {h} run_commit {match} obj {os.path.abspath(obj)} (generated headers and flags) '
                              f'config_sha256 {cfg}')
            files[f'sizes-{v}.txt'] = probe_sizes(trees, tree, v, obj, tmp)
            files[f'numstat-{v}.txt'] = trees.git('diff', '--numstat', tree_of['base'], tree)
        # complexity: pmccabe over each file, kept for the compared functions;
        # the function text kept too (the API calls are counted from it)
        for v, tree, col in (('base', tree_of[CONTROL], 2), (RING, tree_of[RING], 3)):
            pm, bodies = [], []
            for path in sorted({p for r in ROLES for p, _ in r[col]}):
                text = trees.show(tree, path)
                local = os.path.join(tmp, v, path)
                os.makedirs(os.path.dirname(local), exist_ok=True)
                with open(local, 'w') as f:
                    f.write(text)
                res = run(['pmccabe', local], check=False)
                got = parse_pmccabe(res)
                lines = text.splitlines()
                for p, fn in sorted({x for r in ROLES for x in r[col] if x[0] == path}):
                    if fn not in got:
                        die(f'pmccabe found no function {fn} in {path} of the {v} tree: update ROLES in bench/decision.py')
                    mod, trad, st, first, n = got[fn]
                    pm.append(f'{mod}\t{trad}\t{st}\t{first}\t{n}\t{path}\t{fn}\n')
                    bodies.append(f'@@ {path} {fn}\n' + '\n'.join(lines[first - 1:first - 1 + n]) + '\n')
            files[f'pmccabe-{v}.tsv'] = ''.join(pm)
            files[f'functions-{v}.c'] = ''.join(bodies)
        # surface: ctags of the API headers in both trees, JSON lines with
        # each record's path the header's path in the tree
        for v, tree in (('base', tree_of[CONTROL]), (RING, tree_of[RING])):
            tags = []
            for h in SURFACE_HEADERS:
                text = trees.show(tree, h)
                if not text:
                    continue
                local = os.path.join(tmp, 'ctags-' + v, h)
                os.makedirs(os.path.dirname(local), exist_ok=True)
                with open(local, 'w') as f:
                    f.write(text)
                res = run(['ctags', '--output-format=json', '--kinds-C=dfmpstuv', '-o', '-', local])
                recs = []
                for r in ctags_json(res):
                    r['path'] = h
                    # anonymous structs are named by a hash of the (temporary) file name
                    for k in ('name', 'scope'):
                        if k in r:
                            r[k] = re.sub(r'__anon[0-9a-f]+', '__anon', r[k])
                    recs.append(json.dumps(r, sort_keys=True) + '\n')
                tags += sorted(recs)
            files[f'ctags-{v}.json'] = ''.join(tags)
        # conversion cost: the changed accessors over the whole tree, before and after
        rx = '|'.join(ACCESSORS)
        for v, tree in (('base', tree_of[CONTROL]), (RING, tree_of[RING])):
            files[f'accessors-{v}.txt'] = trees.grep(tree, '-n', '-o', '-w', '-E', rx,
                                                     ['*.c', '*.h', f':!{ACCESSOR_DEF}'])
        # the mechanical part of the conversion, done by the semantic patch
        # on the sg_ring tree (not applied to the series: see the report)
        files[f'cocci-{RING}.diff'] = run_cocci(trees, tree_of[RING], tmp)
        with open(COCCI_GROUPS) as f:
            files['cocci-groups.txt'] = f.read()
        # what it would have done of the series' own hand conversions
        files['cocci-hand-base.diff'] = run_cocci(trees, tree_of['base'], tmp, [[d] for d in DRIVERS])
        ts = trees.grep(tree_of['base'], '-n', '-E', TABLESIZE_RX, ['*.c', '*.h'])
        files['sg_tablesize-base.txt'] = ts
        names = set()
        for _, path, val in parse_tablesize(ts):
            names |= set(re.findall(r'\b[A-Z_][A-Z0-9_]*\b', val))
        for _ in range(3):  # macros defined in terms of other macros
            if not names:
                break
            # fixed strings are fast; keep the #define and enum-constant lines
            pats = [x for n in sorted(names) for x in ('-e', n)]
            d = trees.grep(tree_of['base'], '-n', '-w', '-F', *pats, ['*.c', '*.h'])
            want = re.compile(r'^[^:]*:\d+:\s*(#\s*define\s+(%s)\b|(%s)\s*=[^=])'
                              % (('|'.join(sorted(names)),) * 2))
            d = ''.join(ln + '\n' for ln in d.splitlines() if want.match(ln))
            files['sg_tablesize-defines-base.txt'] = d
            new = set()
            for vals in parse_defines(d).values():
                for _, val in vals:
                    new |= set(re.findall(r'\b[A-Z_][A-Z0-9_]*\b', val))
            if new <= names:
                break
            names |= new
        files['trees.txt'] = '\n'.join(info_lines) + '\n'
        for name, text in files.items():
            write_atomic(os.path.join(out, name), text)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f'decision: raw evidence in {out}')


# ---------------------------------------------------------------- render

def read(path):
    with open(path) as f:
        return f.read()


def split_functions(text):
    """functions-<v>.c -> {(file, fn): body}."""
    out = {}
    for chunk in re.split(r'^@@ ', text, flags=re.M)[1:]:
        head, _, body = chunk.partition('\n')
        path, fn = head.split()
        out[(path, fn)] = body
    return out


def pct(a, b):
    return 100.0 * (a - b) / b if b else float('nan')


def counted_at(points, counted):
    """Where a quantity was counted, for the list of what the rig cannot
    show: 'at every point of the run (N)' when COUNTED (sorted point names)
    covers all of the run's POINTS, else 'only at' and the points."""
    if not counted:
        return 'at no point'
    if set(points) <= set(counted):
        return f'at every point of the run ({len(points)})'
    return 'only at ' + ', '.join(counted)


def ahead_by_size(signs):
    """Who is ahead, by size class, for a summary row: SIGNS is {size:
    {sg_ring's count > sg_table's, at each point of the size}}; a size is
    the kernel with fewer instructions at every point, or 'mixed'."""
    ahead = {s: CONTROL if v == {True} else RING if v == {False} else 'mixed' for s, v in signs.items()}
    return '; '.join(f'{w} at {", ".join(s for s in ahead if ahead[s] == w)}'
                     for w in (CONTROL, RING, 'mixed') if w in ahead.values())


def span_by_device(by_dev):
    """'real -0.24 % to +1.06 %, fake ...': the range of each device's
    percentages (BY_DEV: {device: [%]}), as the full rows print them."""
    return ', '.join(f'{d} ' + span(f'{min(v):+.2f} %', f'{max(v):+.2f} %') for d, v in by_dev.items())


def span(lo, hi):
    """'LO to HI', or LO where the two print the same."""
    return lo if lo == hi else f'{lo} to {hi}'


def same_layout(ev, pairs, kind='insns'):
    """'; ... at K of N points': where the attribution's buffers (of
    attrib.txt's KIND runs) had one layout (bvecs per I/O,
    attrib_counts.bvecs_per_io) in both runs and on both kernels, so a difference
    is not the layout's; '' if none was counted."""
    got = [ev.bvecs.get((kind, d, p), {}) for d, p in pairs]
    got = [b for b in got if CONTROL in b and RING in b]
    if not got:
        return ''
    same = sum(1 for b in got if attrib_counts.layout_verdict({v: b[v] for v in (CONTROL, RING)}) == 'same')
    return (f'; the same buffer layout (bvecs per I/O) in both runs and on both kernels at {same} of the '
            f'{len(pairs)} (device, point) pairs')


class Decision:
    def __init__(self, run):
        self.run = run
        self.raw = os.path.join(run, 'raw', 'decision')
        if not os.path.isdir(self.raw):
            sys.exit(f'decision.py: {self.raw} is missing: run make decision RUN={run} first')
        self.L = []
        # (criterion, ahead, by how much, link, short verdict, key): the
        # summary rows, in full in DECISION-appendix.md, short in DECISION.md
        self.summary = []
        self._evidence = False

    def add(self, criterion, ahead, full, link, short=None, key=None):
        """A summary row: FULL (by how much, in full) and LINK (its detail)
        in the appendix; SHORT (FULL where it is short enough) in
        DECISION.md's table, under KEY (the criterion unless given)."""
        if short is None:
            short = full if len(full) <= SHORT else mdtable.clip(full.split('; '), SHORT - 40) + \
                ' (in full in the appendix)'
        self.summary.append((criterion, ahead, full, link, short, key or criterion))

    def f(self, name):
        path = os.path.join(self.raw, name)
        if not os.path.exists(path):
            sys.exit(f'decision.py: {path} is missing: rerun make decision RUN={self.run}')
        return read(path)

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
        for role, who, tab, ring in ROLES:
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
        base_at = {fn: x for r in ROLES for x in r[2] for fn in [x[1]]}
        ring_fns = {fn for r in ROLES for _, fn in r[3]}
        reused = {}
        for r in ROLES:
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
             'Names each API exposes, from Universal Ctags over the headers (functions and prototypes, '
             'macros, struct fields; include guards dropped). sg_table: `include/linux/scatterlist.h` of '
             'the base (the whole 6.1 scatterlist API: entries, chaining, sg_table, sg_append_table, '
             'page and mapping iterators). sg_ring: `include/linux/sg_ring.h` plus what the series adds '
             'to dma-mapping.h, blk-mq.h, blk-integrity.h, scsi_cmnd.h and scsi_eh.h. sg_ring is built '
             'on struct scatterlist entries, so its users still use the entry accessors of '
             'scatterlist.h (sg_set_page, sg_page, sg_dma_address...), and the sg_table API stays for '
             f'everyone else. Raw: [{raw["base"]}](raw/decision/{raw["base"]}), '
             f'[{raw[RING]}](raw/decision/{raw[RING]}).', '',
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
        L += ['By the semantic patch (`variants/sg_ring/cocci/scsi_host_use_sg_ring.cocci`, '
              'coccinelle, one `spatch -D patch` per driver over the sg_ring tree; raw: '
              f'[cocci-{RING}.diff](raw/decision/cocci-{RING}.diff), the driver groups '
              '[cocci-groups.txt](raw/decision/cocci-groups.txt)). It converts a driver only when '
              'every use in it is mechanical (scsi_dma_map/unmap, scsi_sg_count, a '
              'scsi_for_each_sg block), and flags its template `use_sg_ring`; a driver with any '
              'other use is left whole to the transition:', '',
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
             'Every use of the accessors the series changes, over the whole tree (`git grep -n -o -w -E` '
             '`' + '|'.join(ACCESSORS) + '` in `*.c` and `*.h`, without `' + ACCESSOR_DEF + '`, '
             'which defines them): the single-array accessors and direct `sdb.table` uses. Under the '
             'series\' transition (patch 0012) they keep their 6.1 code and contracts for every host '
             'that does not set `use_sg_ring` in its template: such a host gets each buffer as one '
             'scatterlist, chained as in 6.1 and with 6.1\'s segment limits, so no use needs converting for correctness; '
             'a host that opts in uses `scsi_sgring()` and `scsi_dma_map_ring()` instead. `scsi_bufflen()` and the copy helpers keep their meaning and are not '
             'counted. A site is one occurrence (a line with two uses counts two). Raw: '
             '[accessors-base.txt](raw/decision/accessors-base.txt), '
             '[accessors-sg_ring.txt](raw/decision/accessors-sg_ring.txt).', '']
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
              f'`.sg_tablesize =` initialisers and `->sg_tablesize =` assignments in the base, without '
              'the USB host controllers\' `hcd->self.sg_tablesize` (struct usb_bus) '
              f'(`git grep -E \'{TABLESIZE_RX}\'`, raw: [sg_tablesize-base.txt](raw/decision/sg_tablesize-base.txt)), '
              'values resolved through the `#define`s and enum constants of the tree (same file first, '
              'then the same directory, then a value unique in the tree; SG_MAX_SEGMENTS, SG_CHUNK_SIZE '
              'and SG_ALL as compiled for this config; raw: '
              '[sg_tablesize-defines-base.txt](raw/decision/sg_tablesize-defines-base.txt)). '
              f'Two thresholds, from the sg_ring tree\'s own constants: the inline head of this port '
              f'(SCSI_INLINE_SG_CNT = {inline}: a larger command of a host that sets use_sg_ring spans '
              f'two arrays), and one pool array (SG_RING_CHUNK_SIZE = {chunk}: the most segments an '
              'unconverted host gets a command, so the files above it lose request size until they '
              'are converted: the cost of the transition).', '',
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

    # -- memory
    def memory(self):
        slab = {}
        for path in sorted(glob.glob(os.path.join(self.run, 'raw', '*', '*', 'r*', 'share', 'out', '*.slabinfo'))):
            v = path.split(os.sep)[-5]
            slab.setdefault(v, {}).update(readers.read_slabinfo(path))
        L = ['## Memory per command', '',
             'Bytes one SCSI command holds for its data buffer: `struct scsi_cmnd` plus the inline first '
             'array in the blk-mq pdu (sg_table: SCSI_INLINE_SG_CNT entries; sg_ring: a `struct sg_ring` '
             'header plus those entries) plus the pool chunks for n segments, each chunk costing the '
             'object size of its slab. The sizes come from compiling the variant\'s own scsi_lib.c with '
             'the kernel\'s own command line (from `obj/drivers/scsi/.scsi_lib.o.cmd`) and `DEFINE()`s '
             '(raw: [sizes-sg_table.txt](raw/decision/sizes-sg_table.txt), '
             '[sizes-sg_ring.txt](raw/decision/sizes-sg_ring.txt)); the chunk sequence is 6.1\'s '
             '`__sg_alloc_table()` policy (every chunk but the last loses one entry to the chain link) '
             'and the series\' `sg_alloc_ring_chained()` policy (min(left, SG_RING_CHUNK_SIZE) entries '
             'per array); slab object sizes from the run\'s `*.slabinfo`. The LLD\'s own `cmd_size` is '
             'the same in both and left out, as is the protection buffer (no DIX here).', '']
        rows, fixed, basis = {}, {}, {}
        for v, prefix in ((CONTROL, 'sgpool'), (RING, 'sgring')):
            sizes = parse_sizes(self.f(f'sizes-{v}.txt'))
            pools = pool_sizes(slab.get(v, {}), prefix)
            src = 'slabinfo'
            if not pools:  # no run data: the object size SLAB_HWCACHE_ALIGN gives
                src = 'computed'
                a = sizes['L1_CACHE_BYTES']
                hdr = sizes.get('offsetof_sg_ring_sg', 0)
                ents = [7, 15, 31, 63, 127] if v == RING else [8, 16, 32, 64, 128]
                pools = {k: -(-(hdr + k * sizes['sizeof_scatterlist']) // a) * a for k in ents}
            rows[v], fixed[v] = memory_rows(sizes, pools)
            basis[v] = (sizes, pools)
            L.append(f'- {v}: struct scsi_cmnd {sizes["sizeof_scsi_cmnd"]} B, inline array {fixed[v]} B '
                     f'({sizes["SCSI_INLINE_SG_CNT"]} entries of {sizes["sizeof_scatterlist"]} B'
                     + (f' after a {sizes["offsetof_sg_ring_sg"]} B header' if v == RING else '') +
                     f'), pools ({src}): ' + ', '.join(f'{prefix}-{k} {sz} B' for k, sz in sorted(pools.items())))
        L += ['', '| segments | sg_table bytes | chunks | sg_ring bytes | chunks | sg_ring vs sg_table |',
              '|---|---|---|---|---|---|']
        worse = []
        for a, b in zip(rows[CONTROL], rows[RING]):
            d = pct(b[3], a[3])
            worse.append(d)
            chunks = lambda pl, pre: ' + '.join(f'{pl.count(k)}x{pre}-{k}' for k in sorted(set(pl), reverse=True)) or 'inline'  # noqa: E731
            L.append(f'| {a[0]} | {a[3]} | {chunks(a[4], "sgpool")} | {b[3]} | {chunks(b[4], "sgring")} | {d:+.1f} % |')
        L.append('')
        # cross-check against the pools in use while 4M requests ran whole
        L += ['Cross-check against the run: which pools grew beyond one slab while 4M (1024-segment) '
              'requests ran on scsi_debug and reached it whole (SLUB\'s slabinfo counts whole slabs, '
              'active = total, so only which pools were used, not chunk counts, can be checked; with '
              '`delay=0` a command completes inside its submission, so one command is in flight at a '
              'time), against the pools the policy predicts for 1024 segments.', '']
        verdicts = []
        for v, prefix in ((CONTROL, 'sgpool'), (RING, 'sgring')):
            r = [x for x in rows[v] if x[0] == 1024]
            pred = sorted(set(r[0][4])) if r else []
            grew = set()
            for path in sorted(glob.glob(os.path.join(self.run, 'raw', '*', v, 'r*', 'share', 'out', '*4M*.slabinfo'))):
                parts = path.split(os.sep)
                if parts[-6] in model.QEMU_DEVICES:
                    continue
                point = os.path.basename(path)[:-len('.slabinfo')]
                kib = readers.request_kib(os.path.dirname(path), point)
                if kib is not None and kib < 4096:
                    continue
                for k, x in readers.read_slabinfo(path).items():
                    if k.startswith(prefix + '-') and x['slabs'] > 1:
                        grew.add(int(k.split('-')[1]))
            if not grew:
                L.append(f'- {v}: no 4M slabinfo of scsi_debug in this run.')
                continue
            ok = grew <= set(pred)
            verdicts.append(f'{v} {"consistent" if ok else "NOT consistent"}')
            L.append(f'- {v}: predicted {", ".join(f"{prefix}-{k}" for k in pred)}; grown beyond one slab in the run: '
                     f'{", ".join(f"{prefix}-{k}" for k in sorted(grew))} ({"consistent" if ok else "NOT consistent"}).')
        L.append('')
        measured = self.memory_in_flight(basis, L)
        self.L += L
        lo, hi = min(worse), max(worse)
        ahead = CONTROL if statistics.fmean(worse) > 0 else RING
        figures = (f'sg_ring {lo:+.1f} % to {hi:+.1f} % against sg_table '
                   f'({rows[RING][0][3]} vs {rows[CONTROL][0][3]} B at 1 segment, '
                   f'{rows[RING][-1][3]} vs {rows[CONTROL][-1][3]} B at {rows[RING][-1][0]}); computed')
        agree, disagree = (sum(x.count(w) for x in measured) for w in (', agrees)', ', DISAGREES)'))
        self.add('Memory per command (1..2048 segments)', ahead,
                 figures + '; cross-check of the pools used against the run: '
                 + (', '.join(verdicts) if verdicts else 'no slab data')
                 + ('; measured with commands in flight: ' + '; '.join(measured) if measured else
                    '; not measured with commands in flight in this run'), '#memory-per-command',
                 figures + '; pools used in the run: ' + (', '.join(verdicts) if verdicts else 'no slab data')
                 + (f'; with commands in flight, {agree} of {agree + disagree} measurements (kernel, point) '
                    'agree with the computed bytes' if agree + disagree else
                    '; ' + measured[0] if measured else '; not measured with commands in flight'))

    def memory_in_flight(self, basis, L):
        """The pool bytes per command measured with commands in flight (the
        run's INFLIGHT points, traced: bench/model.py read_inflight) against
        the pool bytes computed for the segments the traced commands had:
        lines appended to L, and the summary's phrases."""
        got, old = [], set()
        for v in (CONTROL, RING):
            sizes, pools = basis[v]
            seen = set()
            for path in sorted(glob.glob(os.path.join(self.run, 'raw', '*', v, 'r*', 'share', 'out', '*.inflight*'))):
                out = os.path.dirname(path)
                p = os.path.basename(path).split('.inflight')[0]
                if p in seen:   # the first boot that has it
                    continue
                seen.add(p)
                x = tracefs.read_inflight(out, p)
                if x is None:
                    if tracefs.inflight_slab_only(out, p):
                        old.add(p)
                    continue
                data = sorted(n for n in x['segments'] if n > 0)
                seg = data[0] if len(data) == 1 else None
                comp = memory_rows(sizes, pools, [seg])[0][0][2] if seg else None
                if not data and x['commands']:
                    seg, comp = 0, 0
                got.append((v, p, seg, x, comp))
        got.sort(key=lambda g: (readers.bs_bytes(readers.split_point(g[1])[1]), g[0] != CONTROL))
        if not got:
            if old:
                L += ['Measured with commands in flight: this run\'s `INFLIGHT` step is of the runs before the '
                      'trace (slabinfo snapshots only: SLUB\'s active objects include the free objects of the '
                      'CPU slabs, so their growth is not the objects in use); not reconciled.', '']
                return ['the INFLIGHT step predates the trace (slab growth, not objects in use): not reconciled']
            return []
        reserve = {v: 2 * sum(basis[v][1].values()) for v in basis}
        L += ['Measured with commands in flight (REPORT.md, "sg pool memory with commands in flight"): '
              'traced in the guest (the ring buffer of kmem:kmem_cache_alloc and kmem:kmem_cache_free '
              'for the sg caches, scsi:scsi_dispatch_cmd_start and _done for the commands, one ordered '
              'stream), so that at every event the sg pool objects in use and the commands in flight are '
              'known exactly. Rule: the steady state is the moments with no object in transit (none '
              'taken for a command not yet dispatched, none still held by a command that is done) and, '
              'among them, the most commands in flight; measured = the bytes of the sg objects in use at '
              'such a moment (object size = the cache\'s, as in slabinfo) beyond the trace\'s start '
              '(no command in flight) over the commands in flight then. Computed = the pool bytes above '
              'for the segments the traced commands had (`data_sglen`, all the same). Both are the '
              'objects the commands take from the slabs: the mempools\' reserves (2 objects per pool, '
              f'taken at boot: {reserve[CONTROL]} B on sg_table, {reserve[RING]} B on sg_ring) are in '
              'neither (a failed allocation, where a mempool hands out its reserve, makes the point "not '
              'measured"). They agree when the measurement at every steady moment equals the computed '
              'bytes.', '',
              '| kernel | point | segments | commands in flight (most at any moment) | steady moments '
              '| measured pool bytes per command | computed | agree |',
              '|---|---|---|---|---|---|---|---|']
        phrases = {}
        for v, p, seg, x, comp in got:
            lo, hi = x['per_command_range'] or (None, None)
            if x['problems']:
                meas, ok = 'not measured: ' + '; '.join(x['problems']), False
            elif lo is None:
                meas, ok = 'not measured: no command in flight', False
            else:
                meas = f'{lo:.0f}' if lo == hi else f'{lo:.0f} to {hi:.0f}'
                ok = comp is not None and lo == hi == comp
            L.append(f"| {v} | {p} | {seg if seg is not None else 'mixed'} | {x['inflight']} ({x['peak']}) | "
                     f"{x['moments']} | {meas} | {comp if comp is not None else 'n/a'} | {'yes' if ok else 'NO'} |")
            phrases.setdefault(p, []).append(f"{v} {meas} B (computed {comp}, {'agrees' if ok else 'DISAGREES'})")
        L.append('')
        return [f'{p} per command: ' + ', '.join(ph) for p, ph in phrases.items()]

    # -- speed, from the run's raw files (bench/model.py), significant results only
    def speed(self):
        if not os.path.exists(os.path.join(self.run, 'meta.txt')):
            return
        run = model.Run(self.run)
        if RING not in run.others or not run.rows:
            return
        fam = run.family(RING)
        groups = {}  # device class -> [(device, point, Comparison)]
        for (d, p), c in fam.items():
            cls = 'QEMU disks' if d in model.QEMU_DEVICES else 'scsi_debug'
            groups.setdefault(cls, []).append((d, p, c))
        for cls, rows in sorted(groups.items(), key=lambda kv: kv[0] != 'scsi_debug'):
            devs = ', '.join(sorted({d for d, _, _ in rows}))
            sig = [c.mean for _, _, c in rows if c.significant]
            fine = stats.resolving([c for _, _, c in rows])['resolve']
            one = sum(1 for _, _, c in rows if c.verdict() == 'one observation')
            unres = sum(1 for _, _, c in rows if c.verdict() == 'not resolved')
            if not sig:
                ahead, how = 'neither shown', 'no point significant'
            else:
                ahead = (CONTROL if min(sig) > 0 else RING if max(sig) < 0 else 'mixed')
                how = (f'sg_ring {min(sig):+.2f} % to {max(sig):+.2f} % guest ns per I/O at the '
                       f'{len(sig)} significant points')
            self.add(f'Guest time per I/O (fio over {cls}: {devs})', ahead,
                     f'{how} of {len(rows)} (paired, Holm); {unres} not resolved by the rig; '
                     + (f'{one} one observation (beyond the floor, but the same I/O counts in '
                        'every repeat on both kernels: no interval, no test); ' if one else '')
                     + f'{fine} of {len(rows)} resolve a 0.5 % difference (resolution at most '
                     '0.5 %); per size class with resolution in REPORT.md',
                     'REPORT.md#answer-sg_ring-against-sg_table-guest-time-per-io',
                     f'{how} of {len(rows)} (paired, Holm); {unres} not resolved'
                     + (f', {one} one observation' if one else '')
                     + f'; {fine} of {len(rows)} resolve a 0.5 % difference')
        mb = {}
        for v in (CONTROL, RING):
            got = sorted(glob.glob(os.path.join(self.run, 'raw', '*', v, 'r*', 'share', 'out', 'microbench.json')))
            if got:
                with open(got[0]) as f:
                    mb[v] = {(x['op'], x['nents']): x['median_ns'] for x in json.load(f).get('points', [])}
        if len(mb) == 2:
            parts = []
            for key in sorted(set(mb[CONTROL]) & set(mb[RING])):
                if key[1] in (1, 2048):
                    parts.append(f'{key[0]} {key[1]}: {pct(mb[RING][key], mb[CONTROL][key]):+.0f} %')
            signs = {pct(mb[RING][k], mb[CONTROL][k]) > 0 for k in set(mb[CONTROL]) & set(mb[RING])}
            who = 'mixed' if len(signs) > 1 else (CONTROL if signs == {True} else RING)
            self.add('API alone (sg_api_bench, guest ns per op)', who,
                     'sg_ring vs sg_table: ' + ', '.join(parts),
                     'REPORT.md#the-api-alone-in-kernel-microbenchmark-sg_api_bench',
                     'sg_ring vs sg_table: ' + mdtable.clip(parts, SHORT - 40, ', '))

    # -- exact counts and the cache model, from the attribution runs attrib.txt names
    def evidence(self):
        """The attribution evidence (bench/attrib_evidence.py Evidence) and the run
        (bench/model.py Run), or None; read once."""
        if self._evidence is False:
            self._evidence = None
            if os.path.exists(os.path.join(self.run, attrib_evidence.LINKS)) and \
                    os.path.exists(os.path.join(self.run, 'meta.txt')):
                run = model.Run(self.run)
                self._evidence = attrib_evidence.Evidence(self.run, run.points, run.control), run
        return self._evidence

    def exact(self):
        got = self.evidence()
        if not got:
            return
        ev, run = got
        pairs = ev.pairs(ev.insns, run.devices)
        if pairs and ev.other(ev.insns) == RING:
            parts, signs, by_dev = [], {}, {}
            for d, p in pairs:
                x, y = (sum(ev.insns[(d, p)][v].values()) for v in (CONTROL, RING))
                parts.append(f'{d} {p} {attrib_evidence.sfmt(y - x)} ({pct(y, x):+.2f} %)')
                signs.setdefault(readers.size_class(p), set()).add(y > x)
                by_dev.setdefault(d, []).append(pct(y, x))
            who = ahead_by_size(signs)
            pts = {p for _, p in pairs}
            where = ('every point of the run' if set(run.points) <= pts else
                     ', '.join(sorted({p.split('-')[0] + ' qd' + str(readers.split_point(p)[2]) for p in pts})))
            self.add('Instructions per I/O, exact (insncount TCG plugin, icount; ' + where + ')', who,
                     'sg_ring - sg_table per I/O: ' + ', '.join(parts)
                     + '; counted, not sampled, by function and phase in REPORT.md'
                     + same_layout(ev, pairs),
                     'REPORT.md#instructions-per-io-exact-tcg-plugin-icount',
                     f'sg_ring - sg_table per I/O at {len(pairs)} (device, point) pairs: '
                     + span_by_device(by_dev) + same_layout(ev, pairs))
            self.contiguous(ev, run)
            items = attrib_evidence.read_residue_classes(attrib_evidence.RESIDUE)
            res, brief = [], []
            for d, p in [k for k in pairs if k[1] in attrib_evidence.read_residue_points(attrib_evidence.RESIDUE)]:
                a, b = ev.insns[(d, p)][CONTROL], ev.insns[(d, p)][RING]
                r = attrib_evidence.residue(a, b, items)
                by = {c: sum(it[4] for it in r['items'] if it[0] == c) for c in attrib_evidence.CLASSES}
                bound = (f', resolution {attrib_counts.fmt(sum(a.values()) * ev.resolution[0] / 100)}'
                         if ev.resolution else '')
                brief.append(f'{d} {p} {attrib_evidence.sfmt(r["total"])} = inherent {attrib_evidence.sfmt(by["inherent"])} + '
                             f'incidental {attrib_evidence.sfmt(by["incidental"])} + measurement '
                             f'{attrib_evidence.sfmt(by["measurement"])} + remainder {attrib_evidence.sfmt(r["rest"])}')
                res.append(f'{brief[-1]} (the N/2N residue{bound})')
            if res:
                self.add('The 4k deficit, every instruction of it (issue 16)', CONTROL,
                         '; '.join(res) + '; item by item, with what would remove the incidental '
                         'part, in REPORT.md',
                         'REPORT.md#the-4k-difference-every-instruction-of-it',
                         mdtable.clip(brief, SHORT - 60) + '; the remainder is the N/2N residue')
        cpairs = ev.pairs(ev.cache, run.devices)
        if cpairs and ev.other(ev.cache) == RING:
            parts, per_size, each = [], {}, {k: [] for k, _ in attrib_evidence.CACHE_MISSES}
            for d, p in cpairs:
                per_size.setdefault((d, readers.size_class(p)), []).append(p)
            for d, p in cpairs:
                f = {k: sum(sum(x[k] for x in ev.cache[(d, p)][v].values()) for v in (RING,))
                     - sum(sum(x[k] for x in ev.cache[(d, p)][v].values()) for v in (CONTROL,))
                     for k, _ in attrib_evidence.CACHE_MISSES}
                for k in f:
                    each[k].append(f[k])
                # the size alone names the point only if it is the size's one point
                name = p if len(per_size[(d, readers.size_class(p))]) > 1 else readers.size_class(p)
                parts.append(f'{d} {name} ' + '/'.join(attrib_evidence.sfmt(f[k]) for k, _ in attrib_evidence.CACHE_MISSES))
            low = min(sum(x[k] for x in ev.cache[key][v].values())
                      for key in cpairs for v in (CONTROL, RING) for k, _ in attrib_evidence.CACHE_MISSES)
            noise = f', and totals as low as {attrib_counts.fmt(low)} show its noise' if low < 0 else ''
            self.add(f'Cache misses per I/O under a stated model ({ev.model})', 'not resolved',
                     'sg_ring - sg_table, L1I/L1D/L2 misses per I/O: ' + ', '.join(parts)
                     + '; one cachesim boot per kernel, so the resolution is not measured: each '
                     'figure is the difference of two runs' + noise,
                     'REPORT.md#cache-misses-per-io-a-stated-model',
                     f'sg_ring - sg_table misses per I/O at {len(cpairs)} (device, point) pairs: '
                     + ', '.join(f'{lab} ' + span(attrib_evidence.sfmt(min(each[k])), attrib_evidence.sfmt(max(each[k])))
                                 for k, lab in attrib_evidence.CACHE_MISSES)
                     + '; one cachesim boot per kernel, so the resolution is not measured' + noise,
                     'Cache misses per I/O under a stated model')

    def contiguous(self, ev, run):
        """attrib.txt's contiguous runs (multi-page bvecs) in one summary row."""
        pairs = ev.pairs(ev.contiguous, run.devices)
        if not pairs or ev.other(ev.contiguous) != RING:
            return
        parts, signs, by_dev, bvecs = [], {}, {}, []
        for d, p in pairs:
            x, y = (sum(ev.contiguous[(d, p)][v].values()) for v in (CONTROL, RING))
            bv = ev.bvecs.get(('contiguous', d, p), {}).get(RING)
            parts.append(f'{d} {p} {attrib_evidence.sfmt(y - x)} ({pct(y, x):+.2f} %'
                         + (f', {attrib_counts.fmt(bv[1])} bvecs' if bv else '') + ')')
            signs.setdefault(readers.size_class(p), set()).add(y > x)
            by_dev.setdefault(d, []).append(pct(y, x))
            if bv:
                bvecs.append(bv[1])
        who = ahead_by_size(signs)
        self.add('Instructions per I/O, exact, with contiguous buffers (multi-page bvecs, as the '
                 'bench\'s buffers have)', who,
                 'sg_ring - sg_table per I/O (bvecs per I/O): ' + ', '.join(parts)
                 + '; beside the bvec-per-page counts in REPORT.md'
                 + same_layout(ev, pairs, 'contiguous'),
                 'REPORT.md#instructions-per-io-exact-tcg-plugin-icount',
                 f'sg_ring - sg_table per I/O at {len(pairs)} (device, point) pairs'
                 + (f' ({attrib_counts.fmt(min(bvecs))} to {attrib_counts.fmt(max(bvecs))} bvecs per I/O)' if bvecs else '')
                 + ': ' + span_by_device(by_dev) + same_layout(ev, pairs, 'contiguous'),
                 'Instructions per I/O, exact, with contiguous buffers')

    def iommu(self):
        """The IOMMU class (attrib.txt's iommu runs) in one summary row."""
        got = self.evidence()
        if not got:
            return
        ev = got[0]
        order = list(ev.devices)
        pairs = ev.pairs(ev.iommu, order)
        if not pairs or ev.other(ev.iommu) != RING:
            return
        rules = attrib_counts.read_phases(attrib_evidence.PHASES)
        parts, signs, brief, again = [], set(), [], []
        for d in order:
            cells, short = [], []
            for dd, p in pairs:
                if dd != d:
                    continue
                x, y = (attrib_evidence.dma_and_busy(rules, ev.iommu[(d, p)][v])[0] for v in (CONTROL, RING))
                rep = ev.iommu_repeat.get((d, p), {})
                cell = f'{readers.size_class(p)} {attrib_evidence.sfmt(y - x)} ({pct(y, x):+.1f} %)'
                short.append(f'{readers.size_class(p)} {pct(y, x):+.1f} %')
                if CONTROL in rep and RING in rep:
                    rx, ry = (attrib_evidence.dma_and_busy(rules, rep[v])[0] for v in (CONTROL, RING))
                    cell += f', repeat {attrib_evidence.sfmt(ry - rx)}'
                    signs.add(ry > rx)
                    again.append((ry > rx) == (y > x))
                signs.add(y > x)
                c = ev.calls[('iommu', d, p)]
                cell += (f', IOVA allocations {attrib_counts.fmt2(c[CONTROL].get("alloc_iova_fast", 0.0))}/'
                         f'{attrib_counts.fmt2(c[RING].get("alloc_iova_fast", 0.0))}')
                cells.append(cell)
            if cells:
                parts.append(f'{d}: ' + '; '.join(cells))
                brief.append(f'{d}: ' + ', '.join(short))
        who = CONTROL if signs == {True} else RING if signs == {False} else 'mixed'
        self.add('Behind an IOMMU (QEMU intel-iommu; exact instructions per I/O in the DMA map/unmap '
                 'phase, ' + ', '.join(sorted({p for _, p in pairs}, key=attrib_counts.point_key)) + ')', who,
                 'sg_ring - sg_table, ' + ' | '.join(parts) + ' (sg_table/sg_ring per I/O)',
                 'REPORT.md#behind-an-iommu-instructions-and-iommu-work-per-io-qemu-intel-iommu',
                 'sg_ring - sg_table per I/O in the DMA map/unmap phase, '
                 + mdtable.clip(brief, SHORT - 120, ' | ')
                 + (f'; the repeat run gives the same sign at {sum(again)} of {len(again)} (device, point) pairs'
                    if again else '; not repeated'),
                 'Behind an IOMMU (QEMU intel-iommu; DMA map/unmap phase, exact)')

    def cannot_short(self):
        """What this rig cannot show, in a summary cell: what the figures
        are, whether caches and an IOMMU were measured."""
        t = mdtable.template('decision.md')
        got = self.evidence()
        ev, run = got if got else (None, None)
        cache = bool(ev and ev.pairs(ev.cache, run.devices))
        ipairs = ev.pairs(ev.iommu, list(ev.devices)) if ev else []
        adapters = ', '.join(sorted({ev.devices[d].split()[0] for d, _ in ipairs}))
        iommu = mdtable.fill(t, 'cannot-iommu', adapters=adapters) if ipairs else t['cannot-no-iommu']
        return mdtable.fill(t, 'cannot-short', caches=t['cannot-caches' if cache else 'cannot-no-caches'], iommu=iommu)

    def cannot_show(self):
        """The first item of "What this rig cannot show": what the speed
        figures are, and, with attribution evidence, what it covers."""
        got = self.evidence()
        ev, run = got if got else (None, None)
        cache = ev and ev.pairs(ev.cache, run.devices)
        insns = ev and ev.pairs(ev.insns, run.devices)
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
        ipairs = ev.pairs(ev.iommu, list(ev.devices))
        if ipairs:
            txt += (' IOMMU behaviour is measured only on QEMU\'s intel-iommu with an emulated host adapter ('
                    + ', '.join(sorted({ev.devices[d].split()[0] for d, _ in ipairs})) + '; '
                    + ', '.join(d for d in ev.devices if any(k[0] == d for k in ipairs)) + '; '
                    + ', '.join(sorted({p for _, p in ipairs}, key=attrib_counts.point_key))
                    + '); a real IOMMU\'s invalidation costs and real HBAs are not measured.')
            arrays = ring_arrays(ev, ipairs)
            if arrays is not None:
                txt += (f' The rings mapped there have at most {attrib_counts.fmt(arrays)} arrays a command (sg_ring\'s '
                        f'`{MAP_PER_ARRAY}()` calls per command): a ring of more arrays behind an IOMMU, the '
                        'case where mapping array by array would cost most, is not measured.')
        else:
            txt += ' IOMMU behaviour (an IOMMU device class) and real HBAs are not measured.'
        return txt

    def write(self):
        self.churn()
        self.complexity()
        self.surface()
        self.conversion()
        self.memory()
        self.speed()
        self.exact()
        self.iommu()
        t = mdtable.template('decision.md')
        trees = self.f('trees.txt').strip().splitlines()
        meta = os.path.join(self.run, 'meta.txt')
        rid = f"Run `{readers.read_kv(meta)['run_id'][0]}`. " if os.path.exists(meta) else ''
        devices = []
        if os.path.exists(meta):
            got = self.evidence()
            devices = mdtable.devices_of(got[1] if got else model.Run(self.run), got[0] if got else None)
        cannot = t['cannot-heading']
        rows = [mdtable.row(key, a, short, f'[in full]({APPENDIX}#{mdtable.slug(key)})')
                for _, a, _, _, short, key in self.summary]
        rows.append(mdtable.row(cannot.lstrip('# '), '-', self.cannot_short(),
                                f'[in full]({APPENDIX}#{mdtable.slug(cannot)})'))
        dec = [t['title'], '', mdtable.fill(t, 'intro', run=rid), '']
        dec += (mdtable.headline(devices) if devices else [])
        dec += ['## Summary', '', t['summary-header'], '|---|---|---|---|'] + rows
        app = [t['appendix-title'], '', mdtable.fill(t, 'appendix-intro', run=rid), '']
        app += [f'- {x}' for x in trees] + ['', t['rows-heading'], '']
        for c, a, full, link, _, key in self.summary:
            app += [f'### {key}', ''] + ([f'**{c}**', ''] if c != key else [])
            app += [f'Ahead: **{a}**. {full}.', '',
                    f'Detail: [{link.split("#")[-1] if "#" in link else link}]({link})', '']
        app += [cannot, '',
                self.cannot_show(),
                '- Complexity is measured on this port (ours) of the 2007 design against 6.1\'s matured '
                'code; lines and McCabe numbers say how much code there is to read, not how hard a bug '
                'in it is to find.',
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
