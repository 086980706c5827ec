"""The attribution evidence a bench run draws on (its attrib.txt: which
attribution runs count for it) and the residue: why each function behind
the 4k difference differs (bench/attrib-residue.txt), as REPORT.md and
DECISION.md show them."""
import os

from bench import readers
from bench import variants as variant_table
from bench.attrib_counts import (PHASE_ORDER, bvecs_per_io, die, differences, entries_per_io, fmt,
    load, page_cross_per_io, per_io, phase_of, point_key)


# ------------------------------------------------------------ a bench run's evidence
#
# A bench run's REPORT.md and DECISION.md draw on attribution runs through
# one small committed file in the run's folder, attrib.txt, that names them
# by paths relative to the folder (so the folder may have any name).  One
# reader, used by both reports; nothing here reads what they write.

LINKS = "attrib.txt"
KINDS = ("insns", "repeat", "cache", "iommu", "iommu-repeat", "contiguous", "dma")
# the phases of the scatter/gather layer (bench/attrib-phases.txt): what a
# DMA-mapping class compares where the disk completes in host time
SG_LAYER = ("allocate", "map", "dma", "copy", "free")
HERE = os.path.dirname(os.path.abspath(__file__))
PHASES = os.path.join(HERE, "attrib-phases.txt")
RESIDUE = os.path.join(HERE, "attrib-residue.txt")
CLASSES = ("inherent", "incidental", "measurement")
CACHE_MISSES = (("l1i_miss", "L1I"), ("l1d_miss", "L1D"), ("l2_miss", "L2"))


def read_info(path):
    """A boot-<plugin>.info of bench/attrib.sh ('key value' lines, read by
    readers.read_kv): {key: the first value}."""
    return {k: v[0] for k, v in readers.read_kv(path).items()}


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


def sg_layer(rules, pio):
    """(the scatter/gather layer, of it the DMA map/unmap phase) per I/O of
    one kernel's {function: per I/O}: the figures of a DMA-mapping class."""
    ph = phase_sums(rules, pio)
    return sum(ph[k] for k in SG_LAYER), ph["dma"]


def dma_rows(ev, rules, cand):
    """Per (device, point) of ev's DMA-mapping class: [(device, point,
    [(control layer, CAND layer, control DMA, CAND DMA) per boot set])]."""
    out = []
    for d, p in ev.dma_sets(cand):
        per = []
        for t in ev.dma:
            (la, da), (lb, db) = (sg_layer(rules, t[(d, p)][v]) for v in (ev.control, cand))
            per.append((la, lb, da, db))
        out.append((d, p, per))
    return out


DMA_TITLE = '## A DMA-mapping class: the scatter/gather layer per I/O, boot by boot'


def dma_heading(ev, cand):
    """REPORT.md's heading of CAND's DMA-mapping class section (the pair
    named where the class has more than one candidate)."""
    return DMA_TITLE if len(ev.dma_candidates()) <= 1 else f'{DMA_TITLE}: {cand} against {ev.control}'


def dma_summary(per):
    """One row of dma_rows(): (the per-set differences, the control's mean
    layer, the mean difference, the spread, resolved, the mean difference
    of the DMA phase, the control's mean DMA phase); resolved where the
    sign is the same in every set and the mean exceeds the spread."""
    diffs = [lb - la for la, lb, _, _ in per]
    base = sum(la for la, _, _, _ in per) / len(per)
    mean = sum(diffs) / len(diffs)
    spread = max(diffs) - min(diffs)
    resolved = (all(x > 0 for x in diffs) or all(x < 0 for x in diffs)) and abs(mean) > spread
    ddma = sum(db - da for _, _, da, db in per) / len(per)
    dbase = sum(da for _, _, da, _ in per) / len(per)
    return diffs, base, mean, spread, resolved, ddma, dbase


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
      dma PATH             a boot set of a DMA-mapping class without an
                           IOMMU (a QEMU HBA whose driver maps through
                           dma-direct, e.g. pvscsi); one line per boot set
                           (bench/attrib.sh SEED=1, 2, ...), the same points
                           in each: dma[i] is the i-th set's table, and the
                           report gives each set's difference
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
        self.dma = []
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
        if kind == "dma":
            self.dma.append({})
        table = {"insns": self.insns, "repeat": self.repeat, "cache": self.cache,
                 "iommu": self.iommu, "iommu-repeat": self.iommu_repeat,
                 "contiguous": self.contiguous, "dma": self.dma[-1] if self.dma else None}[kind]
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
        if kind in ("iommu", "iommu-repeat", "dma") and os.path.exists(os.path.join(src, "meta.txt")):
            for k, v in readers.read_kv(os.path.join(src, "meta.txt")).items():
                if k.startswith("device_") and k[7:] in got:
                    self.devices.setdefault(k[7:], v[0])
        for dev in sorted(got):
            for var in sorted({v for p in got[dev].values() for v in p}):
                info = os.path.join(src, "raw", dev, var, "boot-%s.info" % plugin)
                if os.path.exists(info):
                    self.boots.append((kind, rel, dev, var, read_info(info)))

    def dma_sets(self, cand):
        """[(device, point)] every boot set of the DMA-mapping class has for
        the control and CAND, in device and point order."""
        if not self.dma:
            return []
        keys = [k for k in self.dma[0] if all(self.control in t.get(k, {}) and cand in t.get(k, {})
                                                for t in self.dma)]
        order = {d: i for i, d in enumerate(self.devices)}
        return sorted(keys, key=lambda k: (order.get(k[0], len(order)), point_key(k[1])))

    def dma_candidates(self):
        """The candidates every boot set of the DMA-mapping class counted."""
        return sorted({v for t in self.dma for p in t.values() for v in p} - {self.control})

    def candidates(self, table):
        """The variants other than the control that TABLE holds counts of,
        sorted."""
        return sorted({v for p in table.values() for v in p} - {self.control})

    def heading(self, title, table, cand):
        """A report's heading for CAND's figures of TABLE: TITLE where the
        table holds one candidate, else TITLE and the pair (so that each
        candidate's section has an anchor of its own)."""
        return title if len(self.candidates(table)) <= 1 else f'{title}: {cand} against {self.control}'

    def other(self, table):
        """The variant compared with the control in TABLE, or None."""
        vs = sorted({v for p in table.values() for v in p} - {self.control})
        return vs[0] if len(vs) == 1 else None

    def pairs(self, table, devices, other=None):
        """[(device, point)] of TABLE where both kernels (the control and
        OTHER, by default the one other variant of TABLE) were attributed,
        in the order of DEVICES and of point size."""
        o = other or self.other(table)
        keys = [k for k in table if o and self.control in table[k] and o in table[k]]
        order = {d: i for i, d in enumerate(devices)}
        return sorted(keys, key=lambda k: (order.get(k[0], len(order)), point_key(k[1])))

    def kernels(self, meta):
        """Per attribution boot's kernel against the bench run's (META: its
        meta.txt as readers.read_kv gives it): [(variant, series_sha256,
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
