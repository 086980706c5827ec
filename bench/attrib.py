"""attrib.py - instructions per I/O by function and phase, from the
insncount TCG plugin's block counts (qemu/plugin/insncount.c).

  attrib.py fold COUNTS SYSTEM_MAP KALLSYMS POINTS OUTDIR [VMLINUX]
      COUNTS: the plugin's output; POINTS: the guest plan's list of points,
      "<point> <N>" a line, in the order it ran them, each as three marks
      (before a run of N I/Os, between it and a run of 2N, after);
      KALLSYMS: the guest's /proc/kallsyms (for module symbols, and to check
      that the kernel ran at System.map's addresses).  Writes
      OUTDIR/<point>.tsv: per function the instructions executed in the N run
      and in the 2N run, and the times its first block ran in each, with
      "# n_ios N" and the totals as header lines.  VMLINUX: the kernel
      the boot ran; with it an instruction that crosses a 4 KiB page at
      the end of a block is counted once, not twice (phantoms(); the
      header's page_cross_insns says how many it took off).  When the
      counts come from the plugin's exact=on (a sixth field on every B
      line: the instructions started in the block), a block's instructions
      are those, not its executions times its length: a block cut by an
      exception or for I/O counts what ran of it, and a given-up
      page-crossing instruction is not in them (no correction needed; the
      header says "# exact_starts 1").
  attrib.py fold-cache COUNTS SYSTEM_MAP KALLSYMS POINTS OUTDIR
      The same for the cachesim plugin's output (qemu/plugin/cachesim.c):
      OUTDIR/<point>.cache.tsv, per function the instructions, data
      accesses, L1I, L1D and L2 misses in the N run and in the 2N run.
  attrib.py page-cross BINARY FUNCTION...
      Each FUNCTION's instructions that cross a 4 KiB page boundary, from
      objdump -d of BINARY (a vmlinux; a module's .ko gives offsets in its
      text).  The plugin counts such an instruction twice when it is not
      the first of its translated block (see README: QEMU 7.2's translator
      tells the plugin of an instruction before the x86 decoder gives up
      one that crosses into a new page and leaves it to the next block), so
      two builds of the same code can differ by one instruction per call.
  attrib.py report RUNDIR [PHASES]
      Reads RUNDIR/raw/<device>/<variant>/<point>.tsv and writes
      RUNDIR/ATTRIBUTION.md: per point, instructions per I/O by phase for
      each kernel side by side and the functions behind the difference;
      for a device that maps through an IOMMU (the iommu-* class of
      bench/attrib.sh), also the DMA and IOMMU calls per I/O (IOMMU_CALLS:
      the entries of those functions) and the block requests per I/O
      (<point>.stat, the disk's stat after each run).
      PHASES: the symbol -> phase rules (default bench/attrib-phases.txt).
  attrib.py compare RUNDIR_A RUNDIR_B [PHASES]
      Prints (markdown) how two runs of the same points differ: per device,
      variant and point, instructions per I/O by phase in each and the
      difference, the function that differs most, and the IOMMU calls.

A function's entries are the executions of the translated blocks that
start at its first instruction (every translation of it: icount may cut a
block short, so one address can have several): the times it was called,
plus any jump back to its very first instruction (which gcc's code for the
functions IOMMU_CALLS lists does not have: each starts with a push or a
register move, not a loop head).

Per I/O by difference: (count in the 2N run - count in the N run) / N, so
fio's start-up and exit, the marks themselves and anything else that does
not grow with the I/Os cancel.  A block is attributed to the function its
first instruction is in; blocks whose last instruction lies in another
function are counted and reported (they should not occur: a translated
block ends at a branch).
"""
import bisect
import os
import re
import sys

from bench import model  # noqa: E402
from bench import variants as variant_table  # noqa: E402

USER_TOP = 0x0000800000000000
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


def read_framed(path, fmt, record, width, parse, header, check=None):
    """The snapshots of a plugin's dump: "S <n> <why> <x> <header>" opens
    one, lines of `record` with `width` fields fill it (parse(fields) gives
    (key, value)), "E" closes it after check(snapshot) has had its say.  A
    list of (why, {key: value}, header(header field))."""
    snaps = []
    cur = None
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            w = line.split()
            if not w:
                continue
            if w[0] == record and cur is not None and len(w) in (width if isinstance(width, tuple) else (width,)):
                k, v = parse(w)
                cur[1][k] = v
            elif w[0] == "S" and len(w) == 5:
                cur = (w[2], {}, header(w[4]))
            elif w[0] == "E" and cur is not None:
                if check:
                    why = check(cur)
                    if why:
                        die("%s:%d: %s" % (path, lineno, why))
                snaps.append(cur)
                cur = None
            else:
                die("%s:%d: not a line of the %s format: %r" % (path, lineno, fmt, line))
    if cur is not None:
        die("%s: the last snapshot has no end line (QEMU killed while writing?)" % path)
    return snaps


def read_snapshots(path):
    """The plugin's snapshots, in order: a list of (why, {key: count})
    where key is (vaddr, last_insn_vaddr, insns)."""
    def check(snap):
        total = sum(k[2] * c for k, c in snap[1].items())
        if total != snap[2]:
            return "snapshot totals %d instructions, its header says %d" % (total, snap[2])
        return None
    return read_framed(path, "insncount", "B", (5, 6),
                       lambda w: ((int(w[1], 16), int(w[2], 16), int(w[3])), int(w[4])),
                       int, check)


def read_starts(path):
    """The instructions started per block (exact=on's sixth field of the B
    lines), one {key: starts} per snapshot in read_snapshots()' order;
    None if the plugin did not write them (a B line of five fields)."""
    snaps = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "S":
                cur = {}
            elif w[0] == "B":
                if len(w) != 6:
                    return None
                cur[(int(w[1], 16), int(w[2], 16), int(w[3]))] = int(w[5])
            elif w[0] == "E":
                snaps.append(cur)
    return snaps


class Symbols:
    """Function start addresses: the kernel's text symbols from System.map,
    the modules' from kallsyms ("name [module]")."""

    def __init__(self, system_map, kallsyms):
        syms = []
        text = etext = None
        with open(system_map) as f:
            for line in f:
                w = line.split()
                if len(w) < 3:
                    continue
                addr, kind, name = int(w[0], 16), w[1], w[2]
                if name == "_text":
                    text = addr
                elif name == "_etext":
                    etext = addr
                if kind in "TtWw":
                    syms.append((addr, name))
        if text is None or etext is None:
            die("%s has no _text/_etext: not a kernel System.map" % system_map)
        self.text, self.etext = text, etext
        # the kernel's text ends at _etext (init text, freed after boot, is
        # "[kernel-unknown]" with everything else outside functions)
        syms = [(a, n) for a, n in syms if a < etext]
        ktext = None
        with open(kallsyms) as f:
            for line in f:
                w = line.split()
                if len(w) < 3:
                    continue
                if w[2] == "_text" and len(w) == 3:
                    ktext = int(w[0], 16)
                if len(w) == 4 and w[1] in "TtWw":
                    syms.append((int(w[0], 16), "%s %s" % (w[2], w[3])))
        if ktext is None:
            die("%s has no _text: not the guest's /proc/kallsyms (or kptr_restrict hid the addresses)" % kallsyms)
        if ktext != text:
            die("the guest's kernel ran at _text=%#x, System.map says %#x: KASLR moved it; "
                "boot with nokaslr (or build without CONFIG_RANDOMIZE_BASE)" % (ktext, text))
        syms.append((etext, "[kernel-end]"))
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]

    def name(self, addr):
        if addr < USER_TOP:
            return "[user]"
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0 or self.names[i] == "[kernel-end]":
            return "[kernel-unknown]"
        return self.names[i]

    def start(self, name):
        return self.addrs[self.names.index(name)]


def phantoms(keys, syms, crossers):
    """{key: (phantom, unchecked)} for the blocks (KEYS: (vaddr,
    last_insn_vaddr, insns)) that QEMU 7.2 reported with an instruction too
    many: in a block of more than one instruction, the last one, when it
    crosses into a new 4 KiB page, is counted in the block (the translator
    tells the plugin of it before the x86 decoder gives it up) and again as
    the first of the next block.  CROSSERS: page_crossers() of the kernel
    the boot ran (syms' System.map); phantom 1 for a block whose last
    instruction is one of them.  A block's last instruction near a page end
    outside the kernel's text (a module, user space) cannot be checked
    there: unchecked 1.  Blocks with neither are left out."""
    out = {}
    for key in keys:
        vaddr, last, insns = key
        if insns < 2 or not near_page_end(last):
            continue
        if syms.text <= last < syms.etext:
            if last in crossers:
                out[key] = (1, 0)
        else:
            out[key] = (0, 1)
    return out


def fold(counts, system_map, kallsyms, points_file, outdir, vmlinux=None):
    """Writes OUTDIR/<point>.tsv (see the module's doc).  With VMLINUX (the
    kernel of SYSTEM_MAP), a page-crossing last instruction (phantoms())
    is counted once: its block's instructions less one per execution; the
    header says how many were taken off ("# page_cross_insns") and how many
    executions of blocks could not be checked ("# page_cross_unchecked")."""
    syms = Symbols(system_map, kallsyms)
    every = read_snapshots(counts)
    snaps = [s for s in every if s[0] == "mark"]
    starts = read_starts(counts)
    if starts is not None:
        starts = [st for st, s in zip(starts, every) if s[0] == "mark"]
    # exact=on's counts hold no given-up instruction: nothing to correct
    crossers = page_crossers(vmlinux) if vmlinux and starts is None else None
    points = read_points(points_file)
    if len(snaps) < 3 * len(points):
        die("%s has %d mark snapshots, the %d points of %s need %d: did the guest plan finish?" %
            (counts, len(snaps), len(points), points_file, 3 * len(points)))
    os.makedirs(outdir, exist_ok=True)
    cache = {}

    def where(key):
        if key not in cache:
            first, last = syms.name(key[0]), syms.name(key[1])
            entry = first not in ("[user]", "[kernel-unknown]") and key[0] == syms.addrs[
                bisect.bisect_right(syms.addrs, key[0]) - 1]
            cache[key] = (first, first != last, entry)
        return cache[key]

    for i, (point, n) in enumerate(points):
        s0, s1, s2 = (snaps[3 * i + j][1] for j in range(3))
        if starts is not None:
            t0, t1, t2 = (starts[3 * i + j] for j in range(3))
        funcs = {}
        spanning = [0, 0]
        keys = set(s1) | set(s2)
        ph = phantoms(keys, syms, crossers) if crossers is not None else {}
        crossing, unchecked = [0, 0], [0, 0]
        for key in keys:
            c0, c1, c2 = s0.get(key, 0), s1.get(key, 0), s2.get(key, 0)
            d = (c1 - c0, c2 - c1)
            if d == (0, 0):
                continue
            name, spans, entry = where(key)
            f = funcs.setdefault(name, [0, 0, 0, 0])
            extra, unsure = ph.get(key, (0, 0))
            if starts is not None:
                a0, a1, a2 = t0.get(key, 0), t1.get(key, 0), t2.get(key, 0)
                insns = (a1 - a0, a2 - a1)
            else:
                insns = (d[0] * (key[2] - extra), d[1] * (key[2] - extra))
            for j in (0, 1):
                f[j] += insns[j]
                crossing[j] += d[j] * extra
                unchecked[j] += d[j] * unsure
                if entry:
                    f[2 + j] += d[j]
                if spans:
                    spanning[j] += insns[j]
        path = os.path.join(outdir, point + ".tsv")
        with open(path + ".tmp", "w") as out:
            out.write("# insncount fold: per function, instructions in the run of N I/Os and in the run of 2N,\n")
            out.write("# and executions of the block at the function's first instruction (entries) in each\n")
            out.write("# n_ios %d\n" % n)
            out.write("# total_insns %d %d\n" % (sum(f[0] for f in funcs.values()), sum(f[1] for f in funcs.values())))
            out.write("# spanning_insns %d %d\n" % tuple(spanning))
            if starts is not None:
                out.write("# exact_starts 1\n")
                out.write("# page_cross_insns 0 0\n")
                out.write("# page_cross_unchecked 0 0\n")
            elif crossers is not None:
                out.write("# page_cross_insns %d %d\n" % tuple(crossing))
                out.write("# page_cross_unchecked %d %d\n" % tuple(unchecked))
            out.write("function\tinsns_n\tinsns_2n\tentries_n\tentries_2n\n")
            for name in sorted(funcs):
                out.write("%s\t%d\t%d\t%d\t%d\n" % ((name,) + tuple(funcs[name])))
        os.replace(path + ".tmp", path)


CACHE_FIELDS = ["execs", "daccess", "l1i_miss", "l1d_miss", "l2_miss"]


def read_cache_snapshots(path):
    """cachesim's snapshots: a list of (why, {vaddr: [execs, daccess,
    l1i_miss, l1d_miss, l2_miss]}, model)."""
    return read_framed(path, "cachesim", "C", 7,
                       lambda w: (int(w[1], 16), [int(x) for x in w[2:]]), str)


def fold_cache(counts, system_map, kallsyms, points_file, outdir):
    syms = Symbols(system_map, kallsyms)
    snaps = [s for s in read_cache_snapshots(counts) if s[0] == "mark"]
    points = read_points(points_file)
    if len(snaps) < 3 * len(points):
        die("%s has %d mark snapshots, the %d points of %s need %d: did the guest plan finish?" %
            (counts, len(snaps), len(points), points_file, 3 * len(points)))
    os.makedirs(outdir, exist_ok=True)
    nf = len(CACHE_FIELDS)
    for i, (point, n) in enumerate(points):
        s0, s1, s2 = (snaps[3 * i + j][1] for j in range(3))
        funcs = {}
        for va in set(s1) | set(s2):
            z = [0] * nf
            c0, c1, c2 = s0.get(va, z), s1.get(va, z), s2.get(va, z)
            f = funcs.setdefault(syms.name(va), [0] * (2 * nf))
            for k in range(nf):
                f[2 * k] += c1[k] - c0[k]
                f[2 * k + 1] += c2[k] - c1[k]
        path = os.path.join(outdir, point + ".cache.tsv")
        with open(path + ".tmp", "w") as out:
            out.write("# cachesim fold: per function, the run of N I/Os and the run of 2N\n")
            out.write("# model %s\n" % snaps[0][2])
            out.write("# n_ios %d\n" % n)
            out.write("function\t" + "\t".join("%s_%s" % (f, r) for f in CACHE_FIELDS for r in ("n", "2n")) + "\n")
            for name in sorted(funcs):
                out.write(name + "\t" + "\t".join(str(x) for x in funcs[name]) + "\n")
        os.replace(path + ".tmp", path)


def read_cache_tsv(path):
    meta, funcs = {}, {}
    with model.open_data(path) as f:
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


def read_points(points_file):
    points = []
    with open(points_file) as f:
        for line in f:
            w = line.split()
            if len(w) == 2:
                points.append((w[0], int(w[1])))
    if not points:
        die("%s lists no points" % points_file)
    return points


def read_tsv(path):
    meta, funcs = {}, {}
    with model.open_data(path) as f:
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


def report(rundir, phases_path):
    rules = read_phases(phases_path)
    data, cdata, stats, extra = load(rundir)
    if not data:
        die("no raw/<device>/<variant>/<point>.tsv under %s" % rundir)
    variants = sorted({v for d in data.values() for p in d.values() for v in p})
    variants = variant_table.ordered(variants)  # the control first
    out = []
    w = out.append
    meta_path = os.path.join(rundir, "meta.txt")
    w("# Instructions per I/O by function and phase (TCG plugin, exact)\n")
    w("Every figure is instructions per I/O, counted by the insncount TCG plugin "
      "(`qemu/plugin/insncount.c`: every executed translated block, keyed by guest "
      "virtual address) and folded onto functions with each kernel's own System.map "
      "(modules from the guest's kallsyms) by `bench/attrib.py`; per I/O by difference: "
      "(the run of 2N I/Os - the run of N) / N within one boot, so start-up and "
      "everything else that does not grow with the I/Os cancels. An instruction is as "
      "icount counts it: each iteration of a `rep movs`/`rep stos` is one. Phases: "
      "`bench/attrib-phases.txt` (first matching rule; \"rest\" is everything else). "
      "Regenerate: `/usr/bin/python3 bench/attrib.py report %s`.\n"
      % os.path.relpath(os.path.abspath(rundir), os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    if os.path.exists(meta_path):
        w("```")
        with open(meta_path) as f:
            w(f.read().rstrip("\n"))
        w("```\n")
    for dev in sorted(data):
        if dev in extra:
            device_notes(w, dev, extra[dev], variants)
        for point in sorted(data[dev], key=point_key):
            have = data[dev][point]
            w("## %s %s\n" % (dev, point))
            pio = {v: per_io(*have[v]) for v in variants if v in have}
            ns = {v: have[v][0]["n_ios"][0] for v in pio}
            para = "N = %s I/Os (runs of N and 2N)." % ", ".join("%d (%s)" % (ns[v], v) for v in pio)
            span = {v: have[v][0].get("spanning_insns", [0, 0]) for v in pio}
            if any(s != [0, 0] for s in span.values()):
                para += (" Instructions in blocks that run into another function (attributed to the first), "
                         "in the N and 2N runs: %s." % ", ".join("%s %d, %d" % ((v,) + tuple(span[v])) for v in pio))
            pc = {v: page_cross_per_io(have[v][0]) for v in pio}
            if all(x is not None for x in pc.values()):
                para += (" Page-crossing instructions (the last of a block, reported twice by QEMU) counted once: "
                         "per I/O the fold took off %s; blocks outside the kernel's text it could not check "
                         "ran %s times per I/O." % (", ".join("%s %s" % (v, fmt2(pc[v][0])) for v in pc),
                                                     ", ".join("%s %s" % (v, fmt2(pc[v][1])) for v in pc)))
            else:
                para += (" **Folded without the kernel's vmlinux (%s): an instruction that crosses a 4 KiB "
                         "page at the end of a block is counted twice.**" % ", ".join(
                             v for v in pc if pc[v] is None))
            bv = {v: bvecs_per_io(*have[v]) for v in pio}
            bv = {v: x for v, x in bv.items() if x}
            if bv:
                para += (" Bvecs per I/O (entries of `%s`: the physically contiguous runs of the buffer), "
                         "in the N and 2N runs: %s." % (BVEC_FUNCTION, ", ".join(
                             "%s %s, %s" % (v, fmt2(bv[v][0]), fmt2(bv[v][1])) for v in bv)))
                verdict = layout_verdict(bv)
                if verdict == "moved":
                    para += (" **The buffer layout changed between the runs, so these per-I/O figures mix "
                             "two layouts.**")
                elif verdict == "kernels":
                    para += (" **The kernels' buffers had other layouts: part of the difference is the "
                             "layout's.**")
            w(para + "\n")
            cols = [v for v in variants if v in pio]
            heads = ["phase"] + cols
            if len(cols) == 2:
                heads += ["%s - %s" % (cols[1], cols[0]), "%"]
            w("| " + " | ".join(heads) + " |")
            w("|---" * len(heads) + "|")
            by_phase = {v: {} for v in cols}
            for v in cols:
                for name, x in pio[v].items():
                    ph = phase_of(rules, name)
                    by_phase[v][ph] = by_phase[v].get(ph, 0.0) + x
            # the idle phase gets rows of its own only where the CPU waited
            # (the IOMMU class); elsewhere its residue stays in "rest"
            has_idle = any(abs(by_phase[v].get("idle", 0.0)) >= 0.5 for v in cols)
            if not has_idle:
                for v in cols:
                    if "idle" in by_phase[v]:
                        by_phase[v]["rest"] = by_phase[v].get("rest", 0.0) + by_phase[v].pop("idle")
            for ph in PHASE_ORDER + ["total"] + (["total-idle"] if has_idle else []):
                if ph == "idle" and not has_idle:
                    continue
                if ph == "total":
                    vals = [sum(by_phase[v].values()) for v in cols]
                elif ph == "total-idle":
                    vals = [sum(x for p, x in by_phase[v].items() if p != "idle") for v in cols]
                else:
                    vals = [by_phase[v].get(ph, 0.0) for v in cols]
                label = {"total": "**total**", "total-idle": "**total without idle**"}.get(ph) or PHASE_NAMES[ph]
                row = "| %s | " % label + " | ".join(fmt(x) for x in vals)
                if len(cols) == 2:
                    d = vals[1] - vals[0]
                    row += " | %s | %s" % (("+" if d > 0 else "") + fmt(d),
                                          ("%+.1f %%" % (100 * d / vals[0])) if vals[0] else "-")
                w(row + " |")
            w("")
            if dev in stats and point in stats[dev]:
                st = stats[dev][point]
                w("Block requests per I/O (the disk's stat, by difference): %s.\n" % ", ".join(
                    "%s %s (%s KiB each)" % ((v,) + (lambda r: (fmt(r[0]), fmt(r[1] / r[0] / 2) if r[0] else "-"))(
                        stat_per_io(st[v], ns[v]))) for v in cols if v in st))
            if any(entries_per_io(*have[v]).get(f) for v in cols for _, f in IOMMU_CALLS[1:]):
                iommu_table(w, have, cols)
            if len(cols) == 2:
                a, b = cols
                names = {n for n in set(pio[a]) | set(pio[b]) if not has_idle or phase_of(rules, n) != "idle"}
                diffs = [(d, n) for d, n in differences(pio[a], pio[b]) if n in names]
                total = sum(d for d, _ in diffs)
                w("Functions behind the difference (largest |%s - %s| per I/O first; the whole difference%s is %s):\n" %
                  (b, a, " without idle" if has_idle else "", fmt(total)))
                w("| function | phase | %s | %s | difference |" % (a, b))
                w("|---|---|---|---|---|")
                for d, n in diffs[:12]:
                    if abs(d) < 0.5:
                        break
                    w("| `%s` | %s | %s | %s | %s%s |" % (n, phase_of(rules, n), fmt(pio[a].get(n, 0.0)),
                                                       fmt(pio[b].get(n, 0.0)), "+" if d > 0 else "", fmt(d)))
                w("")
    if cdata:
        cache_section(w, cdata, variants, rules)
    w("Functions are compared by name: a function only one kernel has (e.g. "
      "`blk_rq_map_sg_ring` against `__blk_rq_map_sg`) shows as 0 in the other column.\n")
    with open(os.path.join(rundir, "ATTRIBUTION.md"), "w") as f:
        f.write("\n".join(out))


def device_notes(w, dev, extra, variants):
    """The queue limits and IOMMU state a device's plan recorded."""
    has_iommu = any("iommu-state" in extra[v] for v in extra)
    w("## %s: the disk's queue limits%s\n" % (dev, " and the IOMMU" if has_iommu else ""))
    for v in variants:
        if v not in extra:
            continue
        ql = dict(kv for kv in extra[v].get("queue-limits", []) if len(kv) == 2)
        st = dict(kv for kv in extra[v].get("iommu-state", []) if len(kv) == 2)
        line = "- %s: %s" % (v, ", ".join("%s %s" % kv for kv in sorted(ql.items())) or "no queue limits recorded")
        if st:
            line += "; IOMMU group type of %s: %s" % (st.get("pci_device", "?"), st.get("iommu_group_type", "?"))
        w(line + ".")
    w("")


def iommu_table(w, have, cols):
    """The DMA and IOMMU calls per I/O (IOMMU_CALLS) of one point."""
    eio = {v: entries_per_io(*have[v]) for v in cols}
    # without an IOMMU (no IOVA allocated), only the calls that were made
    iommu = any(eio[v].get("alloc_iova_fast") for v in cols)
    w("DMA and IOMMU calls per I/O (entries of the function, by difference):\n")
    heads = ["calls per I/O"] + cols + (["%s - %s" % (cols[1], cols[0])] if len(cols) == 2 else [])
    w("| " + " | ".join(heads) + " |")
    w("|---" * len(heads) + "|")
    for label, fn in IOMMU_CALLS:
        vals = [eio[v].get(fn, 0.0) for v in cols]
        if not iommu and not any(vals):
            continue
        row = "| %s | %s" % (label, " | ".join(fmt2(x) for x in vals))
        if len(cols) == 2:
            d = vals[1] - vals[0]
            row += " | %s%s" % ("+" if d > 0 else "", fmt2(d))
        w(row + " |")
    w("")


def fmt2(x):
    """A count per I/O: two decimals (a call per 50 I/Os shows)."""
    return "%.0f" % x if abs(x) >= 100 else "%.2f" % x


def compare(dir_a, dir_b, phases_path):
    """How two runs of the same points differ, as markdown on stdout."""
    rules = read_phases(phases_path)
    out = []
    w = out.append
    w("Runs compared: A = %s, B = %s (per I/O, B - A).\n" % (dir_a, dir_b))
    w("| device | variant | point | phase | A | B | B - A |")
    w("|---|---|---|---|---|---|---|")
    calls = []
    data_a, data_b = load(dir_a)[0], load(dir_b)[0]
    for dev in sorted(set(data_a) & set(data_b)):
        variants = sorted({v for p in data_a[dev].values() for v in p})
        for var in variants:
            for point in sorted(data_a[dev], key=point_key):
                if var not in data_a[dev][point] or var not in data_b[dev].get(point, {}):
                    continue
                ra, rb = data_a[dev][point][var], data_b[dev][point][var]
                fn = point + ".tsv"
                pa, pb_ = per_io(*ra), per_io(*rb)
                for ph in PHASE_ORDER + ["total"]:
                    xa = sum(x for n, x in pa.items() if ph == "total" or phase_of(rules, n) == ph)
                    xb = sum(x for n, x in pb_.items() if ph == "total" or phase_of(rules, n) == ph)
                    if xa == xb == 0:
                        continue
                    w("| %s | %s | %s | %s | %s | %s | %s%s |" % (dev, var, fn[:-4], PHASE_NAMES.get(ph, ph),
                                                              fmt(xa), fmt(xb), "+" if xb > xa else "", fmt(xb - xa)))
                names = {n for n in set(pa) | set(pb_) if phase_of(rules, n) != "idle"}
                if names:
                    d, n = min(((pb_.get(n, 0.0) - pa.get(n, 0.0), n) for n in names),
                               key=lambda t: (-abs(t[0]), t[1]))
                    w("| %s | %s | %s | the function that differs most outside idle: `%s` | %s | %s | %s%s |" % (
                        dev, var, fn[:-4], n, fmt(pa.get(n, 0.0)), fmt(pb_.get(n, 0.0)), "+" if d > 0 else "", fmt(d)))
                ea, eb = entries_per_io(*ra), entries_per_io(*rb)
                for label, f in IOMMU_CALLS:
                    if ea.get(f, 0.0) or eb.get(f, 0.0):
                        calls.append("| %s | %s | %s | %s | %s | %s |" % (dev, var, fn[:-4], f, fmt2(ea.get(f, 0.0)),
                                                                       fmt2(eb.get(f, 0.0))))
    if calls:
        w("\nDMA and IOMMU calls per I/O (entries):\n")
        w("| device | variant | point | function | A | B |")
        w("|---|---|---|---|---|---|")
        out.extend(calls)
    sys.stdout.write("\n".join(out) + "\n")


def cache_section(w, cdata, variants, rules):
    model = next(iter(next(iter(next(iter(cdata.values())).values())).values()))[0].get("model", "?")
    w("# Cache misses per I/O (cachesim plugin, a stated model)\n")
    w("Model: %s (`qemu/plugin/cachesim.c`: LRU, write-allocate, no prefetcher; "
      "instruction fetches by guest virtual address, data by guest physical address). "
      "Per I/O by difference of the N and 2N runs as above, in a separate boot with this plugin "
      "(its N is in the raw file names' tables). A model, not a measurement of any CPU: it shows "
      "where the two kernels' footprints differ, not what a given processor would do.\n" % model)
    cols = [v for v in variants if any(v in p for d in cdata.values() for p in d.values())]
    for dev in sorted(cdata):
        w("## %s: misses per I/O\n" % dev)
        heads = ["point"] + ["%s %s" % (v, f) for v in cols for f in ("L1I", "L1D", "L2")]
        w("| " + " | ".join(heads) + " |")
        w("|---" * len(heads) + "|")
        for point in sorted(cdata[dev], key=point_key):
            row = [point]
            for v in cols:
                d = cdata[dev][point].get(v)
                for f in ("l1i_miss", "l1d_miss", "l2_miss"):
                    row.append(fmt(sum(x[f] for x in d[1].values())) if d else "-")
            w("| " + " | ".join(row) + " |")
        w("")
        if len(cols) != 2:
            continue
        a, b = cols
        for point in sorted(cdata[dev], key=point_key):
            if not all(v in cdata[dev][point] for v in cols):
                continue
            fa, fb = cdata[dev][point][a][1], cdata[dev][point][b][1]
            tot = lambda d, n: d.get(n, {}).get("l1i_miss", 0.0) + d.get(n, {}).get("l1d_miss", 0.0)
            names = set(fa) | set(fb)
            top = sorted(names, key=lambda n: (-max(tot(fa, n), tot(fb, n)), n))[:8]
            w("%s %s, the functions that miss most in L1 (I + D, per I/O):\n" % (dev, point))
            w("| function | phase | %s | %s | difference |" % (a, b))
            w("|---|---|---|---|---|")
            for n in top:
                if max(tot(fa, n), tot(fb, n)) < 0.05:
                    break
                d = tot(fb, n) - tot(fa, n)
                w("| `%s` | %s | %s | %s | %s%s |" % (n, phase_of(rules, n), fmt(tot(fa, n)), fmt(tot(fb, n)),
                                                   "+" if d > 0 else "", fmt(d)))
            w("")

# ------------------------------------------------------------ a bench run's evidence
#
# A bench run's REPORT.md and DECISION.md draw on attribution runs through
# one small committed file in the run's folder, attrib.txt, that names them
# by paths relative to the folder (so the folder may have any name).  One
# reader, used by both reports; nothing here reads what they write.

LINKS = "attrib.txt"
KINDS = ("insns", "repeat", "cache", "iommu", "iommu-repeat", "contiguous")
HERE = os.path.dirname(os.path.abspath(__file__))
PHASES = os.path.join(HERE, "attrib-phases.txt")
RESIDUE = os.path.join(HERE, "attrib-residue.txt")
CLASSES = ("inherent", "incidental", "measurement")
CACHE_MISSES = (("l1i_miss", "L1I"), ("l1d_miss", "L1D"), ("l2_miss", "L2"))


def read_info(path):
    """A boot-<plugin>.info of bench/attrib.sh ('key value' lines, read by
    model.read_kv): {key: the first value}."""
    return {k: v[0] for k, v in model.read_kv(path).items()}


def read_residue_classes(path=RESIDUE):
    """attrib-residue.txt: why the designs differ, item by item: [(class,
    label, [functions], reason)].  A line is CLASS<TAB>LABEL<TAB>FUNCTIONS
    <TAB>REASON, CLASS inherent, incidental (then REASON says what would
    remove it: "removable by ...") or measurement (not a cost of either
    kernel: an artefact of the counting), FUNCTIONS comma-separated; a
    function is in one item only."""
    items, seen = [], {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#") or line.startswith("points\t"):
                continue
            w = [x.strip() for x in line.rstrip("\n").split("\t")]
            if len(w) != 4 or w[0] not in CLASSES or not w[1] or not w[3]:
                die("%s:%d: want CLASS<TAB>LABEL<TAB>FUNCTIONS<TAB>REASON with CLASS one of %s" %
                    (path, lineno, " ".join(CLASSES)))
            if w[0] == "incidental" and "removable by" not in w[3]:
                die("%s:%d: an incidental cost says what would remove it ('removable by ...')" % (path, lineno))
            fns = [x.strip() for x in w[2].split(",") if x.strip()]
            if not fns:
                die("%s:%d: the item names no function" % (path, lineno))
            for fn in fns:
                if fn in seen:
                    die("%s:%d: %s is already in the item of line %d" % (path, lineno, fn, seen[fn]))
                seen[fn] = lineno
            items.append((w[0], w[1], fns, w[3]))
    return items


def read_residue_points(path=RESIDUE):
    """The points attrib-residue.txt was made for (its "points<TAB>POINT..."
    line): the reports give the item by item table at those only, since at
    another point other functions may differ for reasons no item gives."""
    with open(path) as f:
        for line in f:
            if line.startswith("points\t"):
                return line.split()[1:]
    die("%s has no 'points<TAB>POINT...' line: say which points the classification was made for" % path)


def phase_sums(rules, pio):
    """{phase: instructions per I/O} of one kernel's {function: per I/O}."""
    out = dict.fromkeys(PHASE_ORDER, 0.0)
    for name, x in sorted(pio.items()):
        out[phase_of(rules, name)] += x
    return out


def dma_and_busy(rules, pio):
    """(DMA map/unmap phase, total without the idle phase) per I/O of one
    kernel's {function: per I/O}: the two figures of the IOMMU class."""
    ph = phase_sums(rules, pio)
    return ph["dma"], sum(x for k, x in ph.items() if k != "idle")


def residue(a, b, items):
    """The difference B - A of one point ({function: per I/O} each), item
    by item of ITEMS (read_residue_classes): {"items": [(class, label,
    reason, [(function, a, b, b - a)], net)] for the items with a function
    that ran, "classified": their sum, "remainder": [(b - a, function)] of
    every other function that differs, largest first, "rest": its sum,
    "total": the whole difference}.  classified + rest = total."""
    listed = set()
    out = {"items": []}
    for cls, label, fns, reason in items:
        rows = [(fn, a.get(fn, 0.0), b.get(fn, 0.0), b.get(fn, 0.0) - a.get(fn, 0.0))
                for fn in fns if fn in a or fn in b]
        listed.update(fns)
        if rows:
            out["items"].append((cls, label, reason, rows, sum(r[3] for r in rows)))
    out["classified"] = sum(it[4] for it in out["items"])
    out["remainder"] = [(d, n) for d, n in differences(a, b) if n not in listed and d != 0]
    out["rest"] = sum(d for d, _ in out["remainder"])
    # functions whose count per I/O is negative in a kernel: no work done
    # per I/O can be, so their share is a difference of the runs' states
    out["negative"] = sum(d for d, n in out["remainder"] if a.get(n, 0.0) < 0 or b.get(n, 0.0) < 0)
    out["total"] = sum(b.values()) - sum(a.values())
    return out


def sfmt(x):
    return ("+" if x > 0 else "") + fmt(x)


def residue_summary(res, base, resolution):
    """A residue() in one sentence: the items by class, the remainder, the
    sum, and the remainder against RESOLUTION ((% at 4k, where measured)
    of Evidence, or None) of BASE (the control's instructions per I/O)."""
    by = {c: sum(it[4] for it in res["items"] if it[0] == c) for c in CLASSES}
    out = ("The items sum to %s (inherent %s, incidental %s, measurement %s); the remainder is %s; together %s, "
           "the whole difference." % (sfmt(res["classified"]), sfmt(by["inherent"]), sfmt(by["incidental"]),
                                      sfmt(by["measurement"]), sfmt(res["rest"]),
                                      sfmt(res["classified"] + res["rest"])))
    if resolution:
        bound = base * resolution[0] / 100.0
        out += (" The resolution at this size, %g %% of %s, is %s instructions per I/O: the remainder is %s." %
                (resolution[0], fmt(base), fmt(bound),
                 "within it" if abs(res["rest"]) <= bound else
                 "%.1f times that: this boot's N and 2N runs differed in state more than the plan that measured "
                 "the resolution" % (abs(res["rest"]) / bound)))
    if res["negative"]:
        out += (" Of the remainder, %s is in functions whose count per I/O is negative in one of the kernels, "
                "which no work done per I/O can be." % sfmt(res["negative"]))
    return out


class Evidence:
    """The attribution evidence RUN/attrib.txt names, one line each:

      insns PATH           an attribution run (bench/attrib.sh) whose
                           <point>.tsv give instructions per I/O by function
      repeat PATH          another insncount measurement of the same kernels
                           (its <point>.tsv): which part of a difference
                           comes back in a second boot and which does not
      cache PATH           a run whose <point>.cache.tsv give cache misses
                           per I/O under its stated model
      iommu PATH           an attribution run of the IOMMU class (devices
                           behind QEMU's intel-iommu, bench/attrib.sh
                           IOMMU_KERNEL=iommu): instructions and the DMA
                           and IOMMU calls (IOMMU_CALLS) per I/O
      iommu-repeat PATH    another run of the same IOMMU points: which
                           difference comes back in a second boot
      contiguous PATH      instructions per I/O as insns, with fio's buffers
                           in runs of contiguous pages (bench/attrib.sh
                           FILL_BS larger than 4k): multi-page bvecs, as the
                           bench's malloc()'d buffers have
      resolution PCT TEXT  the within-boot resolution of a per-I/O figure at
                           4k in % (the N and 2N runs of a boot differ in
                           state), and where it was measured

    PATHs are relative to RUN.  Only points in POINTS (the bench run's
    matrix) are kept.  insns[(device, point)][variant] = {function:
    instructions per I/O}; repeat, iommu, iommu_repeat and contiguous the
    same;
    calls[(kind, device, point)][variant] = {function: entries per I/O}
    of the iommu runs; cache[(device, point)][variant] = {function:
    {field: per I/O}}; n[(kind, device, point, variant)] = N;
    bvecs[(kind, device, point)][variant] = bvecs_per_io() (where
    counted); page_cross[(kind, device, point)][variant] =
    page_cross_per_io() (None: folded without the vmlinux);
    devices[device] = the run's description of a device (its meta.txt);
    boots: [(kind, path, device, variant, the boot's .info)]."""

    def __init__(self, run, points=None, control=None):
        self.run = run
        # default: the variant table's control (variants/<name>/variant)
        self.control = control or variant_table.control(sorted(variant_table.load()))
        self.links = []
        self.resolution = None
        self.model = None
        self.insns, self.repeat, self.cache, self.contiguous = {}, {}, {}, {}
        self.iommu, self.iommu_repeat, self.calls = {}, {}, {}
        self.n = {}
        self.bvecs = {}
        self.page_cross = {}
        self.devices = {}
        self.boots = []
        path = os.path.join(run, LINKS)
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                w = line.split(None, 1)
                if len(w) != 2 or w[0] not in KINDS + ("resolution",):
                    die("%s:%d: want '%s PATH' or 'resolution PCT TEXT'" % (path, lineno, "|".join(KINDS)))
                if w[0] == "resolution":
                    r = w[1].split(None, 1)
                    try:
                        self.resolution = (float(r[0]), r[1].strip() if len(r) > 1 else "")
                    except ValueError:
                        die("%s:%d: resolution wants a percentage first" % (path, lineno))
                    continue
                rel = w[1].strip()
                src = os.path.normpath(os.path.join(run, rel))
                if not os.path.isdir(os.path.join(src, "raw")):
                    die("%s:%d: %s (%s) is not an attribution run: no raw/" % (path, lineno, rel, src))
                self.links.append((w[0], rel))
                self._add(w[0], rel, src, points)

    def _add(self, kind, rel, src, points):
        data, cdata, _, _ = load(src)
        table = {"insns": self.insns, "repeat": self.repeat, "cache": self.cache,
                 "iommu": self.iommu, "iommu-repeat": self.iommu_repeat,
                 "contiguous": self.contiguous}[kind]
        got = cdata if kind == "cache" else data
        plugin = "cachesim" if kind == "cache" else "insncount"
        for dev in sorted(got):
            for point in sorted(got[dev]):
                if points is not None and point not in points:
                    continue
                for var, (meta, funcs) in sorted(got[dev][point].items()):
                    slot = table.setdefault((dev, point), {})
                    if var in slot:
                        die("%s: %s %s %s is in two %s runs of %s" % (self.run, dev, point, var, kind, LINKS))
                    if kind == "cache":
                        slot[var] = funcs
                        self.n[(kind, dev, point, var)] = meta["n_ios"]
                        self.model = self.model or meta.get("model")
                    else:
                        slot[var] = per_io(meta, funcs)
                        self.n[(kind, dev, point, var)] = meta["n_ios"][0]
                        self.page_cross.setdefault((kind, dev, point), {})[var] = page_cross_per_io(meta)
                        bv = bvecs_per_io(meta, funcs)
                        if bv:
                            self.bvecs.setdefault((kind, dev, point), {})[var] = bv
                    if kind.startswith("iommu"):
                        self.calls.setdefault((kind, dev, point), {})[var] = entries_per_io(meta, funcs)
        if kind.startswith("iommu") and os.path.exists(os.path.join(src, "meta.txt")):
            for k, v in model.read_kv(os.path.join(src, "meta.txt")).items():
                if k.startswith("device_") and k[7:] in got:
                    self.devices.setdefault(k[7:], v[0])
        for dev in sorted(got):
            for var in sorted({v for p in got[dev].values() for v in p}):
                info = os.path.join(src, "raw", dev, var, "boot-%s.info" % plugin)
                if os.path.exists(info):
                    self.boots.append((kind, rel, dev, var, read_info(info)))

    def other(self, table):
        """The variant compared with the control in TABLE, or None."""
        vs = sorted({v for p in table.values() for v in p} - {self.control})
        return vs[0] if len(vs) == 1 else None

    def pairs(self, table, devices):
        """[(device, point)] of TABLE where both kernels were attributed, in
        the order of DEVICES and of point size."""
        o = self.other(table)
        keys = [k for k in table if o and self.control in table[k] and o in table[k]]
        order = {d: i for i, d in enumerate(devices)}
        return sorted(keys, key=lambda k: (order.get(k[0], len(order)), point_key(k[1])))

    def kernels(self, meta):
        """Per attribution boot's kernel against the bench run's (META: its
        meta.txt as model.read_kv gives it): [(variant, series_sha256,
        system_map_sha256, [kind path device], verdict)], verdict "this
        run's series", "the same System.map as the boots of this run's
        series" or "another kernel"."""
        run_series = {}
        for k, v in meta.items():
            if k.startswith("kernel_"):
                w = v[0].split()
                run_series[k[7:]] = dict(zip(w[::2], w[1::2])).get("series_sha256")
        groups = {}
        for kind, rel, dev, var, info in self.boots:
            key = (var, info.get("series_sha256", "?"), info.get("system_map_sha256", "?"))
            groups.setdefault(key, []).append("%s %s %s" % (kind, rel, dev))
        good_maps = {(var, sm) for (var, se, sm) in groups if se == run_series.get(var)}
        out = []
        for (var, se, sm), where in sorted(groups.items()):
            if se == run_series.get(var):
                verdict = "this run's series"
            elif (var, sm) in good_maps:
                verdict = "the same System.map as the boots of this run's series"
            else:
                verdict = "another kernel"
            out.append((var, se, sm, where, verdict))
        return out


def objdump_insns(binary, function=None, keep=None):
    """[(address, bytes, text)] of BINARY's instructions (FUNCTION's only,
    if given; of the whole binary only those whose address, as objdump's
    hex string, KEEP accepts), from objdump -d: the one reader of its
    '<address>:<TAB><bytes><TAB><text>' lines, an instruction longer than
    a line's bytes continued on lines of bytes alone (-w, for the whole
    binary, puts them on one line)."""
    import subprocess
    args = ["objdump", "-d", "-w"] if function is None else ["objdump", "-d", "--disassemble=" + function]
    p = subprocess.run(args + [binary], capture_output=True, text=True)
    if p.returncode != 0:
        die("objdump -d %s failed: %s" % (binary, p.stderr.strip()[:400]))
    insns, inside = [], function is None
    for line in p.stdout.splitlines():
        if function is not None:
            if re.match(r"^[0-9a-f]+ <%s>:$" % re.escape(function), line):
                inside = True
                continue
            if inside and not line.strip():
                break
        elif keep is not None and not keep(line.partition(":")[0].strip()):
            continue
        m = re.match(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$", line) if inside else None
        if m:
            n = len(m.group(2).split())
            if m.group(3).strip():
                insns.append([int(m.group(1), 16), n, m.group(3).strip()])
            elif insns:
                insns[-1][1] += n
    return [tuple(i) for i in insns]


# The longest x86 instruction is 15 bytes: only one that starts in the last
# 14 bytes of a 4 KiB page can end on the next.
LAST_BYTES = 14


def near_page_end(address):
    return address % 4096 >= 4096 - LAST_BYTES


def page_crossers(binary):
    """{address: bytes} of the instructions of BINARY (a vmlinux) whose
    first and last byte lie on different 4 KiB pages."""
    out = {}
    for a, n, _ in objdump_insns(binary, keep=lambda h: len(h) >= 3 and h[-3:] >= "%03x" % (4096 - LAST_BYTES)):
        if crosses_page(a, n):
            out[a] = n
    return out


def crosses_page(address, nbytes):
    return address // 4096 != (address + nbytes - 1) // 4096


def page_cross(binary, functions):
    """[(function, start, [(address, bytes, text)])]: each function's
    instructions whose first and last byte lie on different 4 KiB pages."""
    out = []
    for fn in functions:
        insns = objdump_insns(binary, fn)
        if not insns:
            die("%s has no function %s" % (binary, fn))
        out.append((fn, insns[0][0], [(a, n, t) for a, n, t in insns if crosses_page(a, n)]))
    return out


def main(argv):
    if len(argv) in (7, 8) and argv[1] == "fold":
        fold(*argv[2:])
    elif len(argv) == 7 and argv[1] == "fold-cache":
        fold_cache(*argv[2:])
    elif len(argv) >= 4 and argv[1] == "page-cross":
        for fn, start, hits in page_cross(argv[2], argv[3:]):
            print("%s at %#x: %s" % (fn, start, "; ".join("+%d %s (%d bytes, from %#x)" % (a - start, t, n, a)
                                                          for a, n, t in hits) or "no instruction crosses a page"))
    elif len(argv) in (3, 4) and argv[1] == "report":
        here = os.path.dirname(os.path.abspath(__file__))
        report(argv[2], argv[3] if len(argv) == 4 else os.path.join(here, "attrib-phases.txt"))
    elif len(argv) in (4, 5) and argv[1] == "compare":
        here = os.path.dirname(os.path.abspath(__file__))
        compare(argv[2], argv[3], argv[4] if len(argv) == 5 else os.path.join(here, "attrib-phases.txt"))
    else:
        die("usage: attrib.py fold COUNTS SYSTEM_MAP KALLSYMS POINTS OUTDIR [VMLINUX] | "
            "attrib.py fold-cache COUNTS SYSTEM_MAP KALLSYMS POINTS OUTDIR | "
            "attrib.py page-cross BINARY FUNCTION... | attrib.py report RUNDIR [PHASES] | "
            "attrib.py compare RUNDIR_A RUNDIR_B [PHASES]")


if __name__ == "__main__":
    main(sys.argv)
