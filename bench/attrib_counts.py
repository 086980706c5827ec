"""The counts of an attribution run (bench/attrib.sh): its per-point tsv files
read back, the phases a function belongs to, and the per-I/O figures and
checks (bvecs, layout, IOMMU calls) the reports are made of."""
import os
import re
import sys

from bench import readers


PHASE_ORDER = ["allocate", "map", "dma", "copy", "free", "scsi", "rest", "idle", "user"]
PHASE_NAMES = {
    "allocate": "allocate",
    "map": "map the request",
    "dma": "DMA map/unmap",
    "copy": "iterate and copy",
    "free": "free",
    "scsi": "SCSI glue",
    "rest": "the rest (block layer, io_uring, syscalls, interrupts, ...)",
    "idle": "idle (spinning while QEMU does the I/O: host-dependent)",
    "user": "user space (fio)",
}


def die(msg):
    sys.stderr.write("attrib.py: error: %s\n" % msg)
    sys.exit(1)


CACHE_FIELDS = ["execs", "daccess", "l1i_miss", "l1d_miss", "l2_miss"]


def read_cache_tsv(path):
    meta, funcs = {}, {}
    with readers.open_data(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                w = line[2:].split(None, 1)
                if w[0] == "n_ios":
                    meta["n_ios"] = int(w[1])
                elif w[0] == "model":
                    meta["model"] = w[1]
                continue
            if line.startswith("function\t"):
                continue
            w = line.split("\t")
            if len(w) != 1 + 2 * len(CACHE_FIELDS):
                die("%s: bad line %r" % (path, line))
            v = [int(x) for x in w[1:]]
            funcs[w[0]] = {f: (v[2 * k + 1] - v[2 * k]) for k, f in enumerate(CACHE_FIELDS)}
    if "n_ios" not in meta:
        die("%s has no '# n_ios' line: not written by attrib.py fold-cache" % path)
    n = meta["n_ios"]
    return meta, {name: {f: x / n for f, x in d.items()} for name, d in funcs.items()}


def read_tsv(path):
    meta, funcs = {}, {}
    with readers.open_data(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                w = line[2:].split()
                if w and w[0] in ("n_ios", "total_insns", "spanning_insns", "page_cross_insns",
                                  "page_cross_unchecked"):
                    meta[w[0]] = [int(x) for x in w[1:]]
                continue
            if line.startswith("function\t"):
                continue
            w = line.split("\t")
            if len(w) != 5:
                die("%s: bad line %r" % (path, line))
            funcs[w[0]] = [int(x) for x in w[1:]]
    if "n_ios" not in meta:
        die("%s has no '# n_ios' line: not written by attrib.py fold" % path)
    return meta, funcs


def per_io(meta, funcs):
    n = meta["n_ios"][0]
    return {name: (v[1] - v[0]) / n for name, v in funcs.items()}


def entries_per_io(meta, funcs):
    """Entries (executions of the blocks at the function's first
    instruction) per I/O, by difference as per_io()."""
    n = meta["n_ios"][0]
    return {name: (v[3] - v[2]) / n for name, v in funcs.items()}


def page_cross_per_io(meta):
    """(instructions the fold took off, executions of blocks it could not
    check) per I/O, by difference as per_io(), or None for a tsv folded
    without the kernel's vmlinux (each page-crossing last instruction of a
    block counted twice)."""
    if "page_cross_insns" not in meta:
        return None
    n = meta["n_ios"][0]
    pc, un = meta["page_cross_insns"], meta.get("page_cross_unchecked", [0, 0])
    return (pc[1] - pc[0]) / n, (un[1] - un[0]) / n


# A bio gets a new bvec (__bio_add_page) for each page that does not
# continue the previous one in memory (__bio_try_merge_page): the entries
# per I/O count the physically contiguous runs of fio's buffer.
BVEC_FUNCTION = "__bio_add_page"


def bvecs_per_io(meta, funcs):
    """(bvecs per I/O in the run of N, in the run of 2N), or None where
    no entry of BVEC_FUNCTION was counted.  Per I/O by difference is the
    cost of one I/O only where the two are equal: where they differ, the
    runs' buffers had other layouts (bench/attrib.sh keeps them the same)."""
    f = funcs.get(BVEC_FUNCTION)
    if not f or not (f[2] or f[3]):
        return None
    n = meta["n_ios"][0]
    return f[2] / n, f[3] / (2 * n)


def layout_moved(runs, tolerance=0.005):
    """True if any (N, 2N) pair of bvecs per I/O differs by more than
    TOLERANCE (relative)."""
    return any(abs(b - a) > tolerance * max(a, b) for a, b in runs if max(a, b) > 0)


def layout_verdict(bv):
    """Of BV = {variant: bvecs_per_io()}: "moved" if a kernel's runs of N
    and 2N had other layouts, "kernels" if they agree but two kernels'
    (2N runs) differ, else "same"."""
    if layout_moved(bv.values()):
        return "moved"
    if len(bv) == 2 and layout_moved([tuple(x[1] for x in bv.values())]):
        return "kernels"
    return "same"


# The calls an I/O makes into the DMA API and the IOMMU, counted as entries
# of these functions (each out of line in the debug kernels' System.map,
# common/debug.config: exported, called through a function pointer or too
# big to inline; a function inlined in a kernel shows 0).  A (label,
# function) a line.
IOMMU_CALLS = [
    ("SCSI commands (scsi_queue_rq)", "scsi_queue_rq"),
    ("scatterlist maps (iommu_dma_map_sg: one per array mapped)", "iommu_dma_map_sg"),
    ("scatterlist unmaps (iommu_dma_unmap_sg)", "iommu_dma_unmap_sg"),
    ("sg_rings mapped at once (iommu_dma_map_sg_ring, series 0029-0030: one per ring of 2 or more arrays)",
     "iommu_dma_map_sg_ring"),
    ("sg_rings unmapped at once (iommu_dma_unmap_sg_ring)", "iommu_dma_unmap_sg_ring"),
    ("single-buffer maps (iommu_dma_map_page)", "iommu_dma_map_page"),
    ("IOVA ranges allocated for a request (dma_iova_try_alloc, dma_iter 0012-0013: one per request mapped as one range)",
     "dma_iova_try_alloc"),
    ("segments linked into an IOVA range (dma_iova_link)", "dma_iova_link"),
    ("IOVA ranges destroyed (dma_iova_destroy)", "dma_iova_destroy"),
    ("scatterlist maps without an IOMMU (dma_direct_map_sg)", "dma_direct_map_sg"),
    ("IOVA allocations (alloc_iova_fast)", "alloc_iova_fast"),
    ("... of them from the rbtree (alloc_iova: not in the per-CPU cache)", "alloc_iova"),
    ("IOVA frees (free_iova_fast)", "free_iova_fast"),
    ("... of them returned to the rbtree (remove_iova)", "remove_iova"),
    ("IOVA releases at unmap (iommu_dma_free_iova: queued when lazy, freed when strict)", "iommu_dma_free_iova"),
    ("flush-queue reaps (fq_ring_free: at each queueing and each timer run)", "fq_ring_free"),
    ("flush-queue timer runs (fq_flush_timeout)", "fq_flush_timeout"),
    ("IOTLB flushes of the whole domain (intel_flush_iotlb_all)", "intel_flush_iotlb_all"),
    ("mapped ranges written to the IOMMU page table (intel_iommu_map_pages)", "intel_iommu_map_pages"),
    ("unmapped ranges (intel_iommu_unmap_pages)", "intel_iommu_unmap_pages"),
    ("IOTLB syncs after an unmap (intel_iommu_tlb_sync)", "intel_iommu_tlb_sync"),
    ("page-selective IOTLB invalidations (iommu_flush_iotlb_psi)", "iommu_flush_iotlb_psi"),
    ("invalidation-queue submissions waited for (qi_submit_sync)", "qi_submit_sync"),
]


def read_stat(path):
    """A <point>.stat file: the disk's "read_ios read_sectors write_ios
    write_sectors" before the N run, after it and after the 2N run; gives
    (requests, sectors) per I/O by difference, or None if malformed."""
    rows = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 4:
                rows.append([int(x) for x in w])
    if len(rows) != 3:
        die("%s: want 3 lines of diskstats (before N, after N, after 2N), not %d" % (path, len(rows)))
    return rows


def stat_per_io(rows, n):
    a, b, c = rows
    reqs = ((c[0] - b[0]) - (b[0] - a[0]) + (c[2] - b[2]) - (b[2] - a[2])) / n
    sectors = ((c[1] - b[1]) - (b[1] - a[1]) + (c[3] - b[3]) - (b[3] - a[3])) / n
    return reqs, sectors


def read_phases(path):
    rules = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            w = line.split(None, 1)
            if len(w) != 2 or w[0] not in PHASE_ORDER:
                die("%s:%d: want 'PHASE REGEX' with PHASE one of %s" % (path, lineno, " ".join(PHASE_ORDER)))
            try:
                rules.append((w[0], re.compile(w[1].strip())))
            except re.error as e:
                die("%s:%d: bad regex: %s" % (path, lineno, e))
    return rules


# the suffixes gcc gives the copies it makes of a function (partial
# inlining, IPA-SRA, constant propagation, the cold part), e.g.
# sg_ring_xfer.part.0: the copy belongs to the function's phase
GCC_CLONE = re.compile(r"(\.(part|isra|constprop|cold|lto_priv)(\.\d+)?)+$")


def phase_of(rules, name):
    base = name.split(" ", 1)[0] if not name.startswith("[") else name
    base = GCC_CLONE.sub("", base)
    for phase, rx in rules:
        if rx.fullmatch(base):
            return phase
    return "rest"


def differences(a, b):
    """Per function, B's figure minus A's (a function only one has counts 0
    in the other): [(difference, function)], the largest |difference|
    first, ties by name (so the same files give the same order in every
    process: a set's order is not)."""
    return sorted(((b.get(n, 0.0) - a.get(n, 0.0), n) for n in set(a) | set(b)),
                  key=lambda t: (-abs(t[0]), t[1]))


def fmt(x):
    return "%.0f" % x if abs(x) >= 100 else "%.1f" % x


def point_key(p):
    m = re.match(r"(\w+)-(\d+)([kKmM])-qd(\d+)$", p)
    if not m:
        return (p, 0, 0)
    mult = 1 if m.group(3) in "kK" else 1024
    return (m.group(1), int(m.group(2)) * mult, int(m.group(4)))


def load(rundir):
    """An attribution run's raw files: (data, cdata, stats, extra),
    data[device][point][variant] = read_tsv() of
    raw/<device>/<variant>/<point>.tsv, cdata the same with read_cache_tsv()
    of <point>.cache.tsv, stats the same with read_stat() of <point>.stat,
    extra[device][variant][name] the key-value lines of its queue-limits
    and iommu-state files."""
    raw = os.path.join(rundir, "raw")
    if not os.path.isdir(raw):
        die("%s has no raw/ directory (the output of bench/attrib.sh)" % rundir)
    data, cdata, stats, extra = {}, {}, {}, {}
    for dev in sorted(os.listdir(raw)):
        ddir = os.path.join(raw, dev)
        if not os.path.isdir(ddir):
            continue
        for var in sorted(os.listdir(ddir)):
            vdir = os.path.join(ddir, var)
            if not os.path.isdir(vdir):
                continue
            for fn in sorted(os.listdir(vdir)):
                if fn.endswith(".tsv.gz"):   # kept compressed (results/INDEX.md)
                    fn = fn[:-3]
                if fn.endswith(".cache.tsv"):
                    cdata.setdefault(dev, {}).setdefault(fn[:-10], {})[var] = read_cache_tsv(os.path.join(vdir, fn))
                elif fn.endswith(".tsv"):
                    data.setdefault(dev, {}).setdefault(fn[:-4], {})[var] = read_tsv(os.path.join(vdir, fn))
                elif fn.endswith(".stat"):
                    stats.setdefault(dev, {}).setdefault(fn[:-5], {})[var] = read_stat(os.path.join(vdir, fn))
                elif fn in ("queue-limits", "iommu-state"):
                    with open(os.path.join(vdir, fn)) as f:
                        kv = [line.rstrip("\n").split(" ", 1) for line in f]
                    extra.setdefault(dev, {}).setdefault(var, {})[fn] = kv
    return data, cdata, stats, extra


def fmt2(x):
    """A count per I/O: two decimals (a call per 50 I/Os shows)."""
    return "%.0f" % x if abs(x) >= 100 else "%.2f" % x
