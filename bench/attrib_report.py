"""An attribution run's own reports: ATTRIBUTION.md (attrib.py report) and
the comparison of two runs (attrib.py compare)."""
import os
import sys

from bench import mdtable
from bench import variants as variant_table
from bench.attrib_counts import (BVEC_FUNCTION, IOMMU_CALLS, PHASE_NAMES, PHASE_ORDER,
    bvecs_per_io, die, differences, entries_per_io, fmt, fmt2, layout_verdict, load,
    page_cross_per_io, per_io, phase_of, point_key, read_phases, stat_per_io)


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
    shown = os.path.relpath(os.path.abspath(rundir), os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    w(mdtable.prose("attrib.md", "intro", rundir=shown) + "\n")
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
    w(mdtable.prose("attrib.md", "cache-intro", model=model) + "\n")
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
