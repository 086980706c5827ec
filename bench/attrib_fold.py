"""Folding the TCG plugins' output onto kernel functions: the insncount
and cachesim snapshots, the kernel's symbols (System.map and the guest's
kallsyms), the instructions counted twice where a block crosses a page
(objdump of the kernel's vmlinux), and the per-point tsv files they give."""
import bisect
import os
import re

from bench.attrib_counts import CACHE_FIELDS, die


USER_TOP = 0x0000800000000000


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
