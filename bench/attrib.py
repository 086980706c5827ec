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
import os
import sys

from bench.attrib_counts import die
from bench.attrib_fold import fold, fold_cache, page_cross
from bench.attrib_report import compare, report


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
