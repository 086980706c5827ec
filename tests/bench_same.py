"""bench_same.py SERIAL PARALLEL [TOLERANCE_PCT]: compare two bench runs of
the same matrix in icount mode, point by point, and print one result line
per variant and point (name<TAB>passed|failed<TAB>detail): guest time counts
instructions there, so the IOPS of a run with several guests at once must
match a run with one guest at a time to within the tolerance or one I/O,
whichever is larger (a short point completes few large I/Os).  The default
tolerance is 0.25 %: the guest is deterministic only up to its 9p I/O,
which QEMU completes in host time; FACTS.md measured repeats within about
0.1 %, and a CI run on a host busy with other QEMUs saw 0.151 % at fake
randread-1M-qd1 (1986 I/Os) while the 4k points agreed within 0.03 %.  The
detail also gives the A/B difference, so a reader can set the tolerance
against the effect."""
import glob
import os
import sys

from bench import readers  # noqa: E402


def iops(run):
    out = {}
    for path in sorted(glob.glob(os.path.join(run, 'raw', '*', '*', 'r*', 'share', 'out', '*.json'))):
        parts = path.split(os.sep)
        dev, var, rep, point = parts[-6], parts[-5], parts[-4], os.path.basename(path)[:-5]
        if point == 'microbench' or point.startswith('ceil-'):
            continue
        row = readers.read_fio(path, readers.bs_bytes(readers.split_point(point)[1]))
        out[(dev, var, rep, point)] = (row['iops'], row['ios'])
    return out


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    tol = float(sys.argv[3]) if len(sys.argv) == 4 else 0.25
    a, b = iops(sys.argv[1]), iops(sys.argv[2])
    if not a:
        print(f'bench/parallel-equals-serial\tfailed\tno fio results in {sys.argv[1]}')
        return
    for key in sorted(set(a) | set(b)):
        name = 'bench/parallel-equals-serial/' + '/'.join(key)
        if key not in a or key not in b:
            print(f'{name}\tfailed\tonly in {"the serial" if key in a else "the parallel"} run')
            continue
        dev, var, rep, point = key
        (ia, na), (ib, nb) = a[key], b[key]
        dpct = 100 * (ib - ia) / ia
        allowed = max(tol, 100.0 / na) if na else tol
        ab = [a[k][0] for k in a if k[0] == dev and k[2] == rep and k[3] == point and k[1] != var]
        abtxt = f', {var} against the other kernel {100 * (ia - ab[0]) / ab[0]:+.2f} %' if ab else ''
        st = 'passed' if abs(dpct) <= allowed * 1.0001 else 'failed'
        print(f'{name}\t{st}\tserial {ia:.0f} IOPS ({na} I/Os), parallel {ib:.0f} ({dpct:+.3f} %, '
              f'allowed {allowed:.3f} %){abtxt}')


main()
