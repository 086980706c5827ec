#!/usr/bin/python3
"""rounddiff.py A.tsv B.tsv: per function, instructions per I/O
((2N run - N run) / N) in two folds of bench/attrib.py, largest difference
first."""
import sys


def rd(p):
    d, n = {}, None
    for line in open(p):
        if line.startswith('# n_ios'):
            n = int(line.split()[2])
        if line.startswith('#') or line.startswith('function\t'):
            continue
        w = line.rstrip('\n').split('\t')
        d[w[0]] = [int(x) for x in w[1:]]
    return d, n


(a, n), (b, _) = rd(sys.argv[1]), rd(sys.argv[2])
rows = []
for k in set(a) | set(b):
    x, y = a.get(k, [0] * 4), b.get(k, [0] * 4)
    pa, pb = (x[1] - x[0]) / n, (y[1] - y[0]) / n
    if pa != pb:
        rows.append((pb - pa, k, pa, pb, x, y))
rows.sort(key=lambda r: -abs(r[0]))
print('%d functions differ; per I/O, B - A: %+.2f (N = %d)' % (len(rows), sum(r[0] for r in rows), n))
print('difference function per-I/O-A per-I/O-B [A: insns_n insns_2n entries_n entries_2n] [B: ...]')
for r in rows[:30]:
    print('%9.2f %-40s %9.2f %9.2f  %s %s' % r)
