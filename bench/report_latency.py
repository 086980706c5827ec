"""REPORT.md's latency percentiles: per device, the median and the 99th
percentile of each kernel's I/O latency at queue depth 1 of one random
direction, from fio's json+ histogram, with the width of the histogram
bin each falls in.  fio's bins are about 0.8 to 1.6 % wide, so where a
point's measured difference (guest ns per I/O) is smaller than the bin,
the percentiles cannot show it: the table says so instead of giving a
difference made of bin edges."""
import os

from bench import mdtable
from bench.readers import lat_bins

PLAT_BITS = 6   # fio's FIO_IO_U_PLAT_BITS: 64 bins per power of two


def bin_width(ns):
    """Width in ns of fio's latency histogram bin whose value is NS: one ns
    below 2**7, else 2**(msb - 6) (stat.h: plat_val_to_idx())."""
    msb = int(ns).bit_length() - 1
    return 1 if msb <= PLAT_BITS else 1 << (msb - PLAT_BITS)


def percentile(bins, q):
    """The value (ns) of the first bin at which the cumulative count of
    BINS ([(ns, count)], sorted) reaches the fraction Q of all."""
    total = sum(c for _, c in bins)
    acc = 0
    for ns, c in bins:
        acc += c
        if acc >= q * total:
            return ns
    return bins[-1][0]


class ReportLatency:
    """Report's latency percentiles."""

    def latency_points(self, d):
        """The points of a device whose percentiles are given: queue depth 1
        of the first random direction, every block size, where every variant
        has a first repeat."""
        if any((d, v) not in self.m.boots for v in self.m.variants):
            return []
        qd1 = [p for p in self.m.points if p.endswith('-qd1')]
        rws = [p.split('-')[0] for p in qd1]
        rw = next((r for r in ('randread', 'read', 'randwrite', 'write') if r in rws), None)
        return [p for p in qd1 if p.split('-')[0] == rw]

    def latency(self, d):
        """REPORT.md lines: device D's latency percentiles table, or none."""
        m = self.m
        pts = self.latency_points(d)
        rows, kind = [], 'lat'
        for p in pts:
            per = {}
            for v in m.variants:
                k, bins = lat_bins(os.path.join(m.out(d, v), p + '.json'))
                if bins and sum(c for _, c in bins):
                    per[v] = (percentile(bins, 0.5), percentile(bins, 0.99))
                    kind = k if k == 'clat' else kind
            if m.control not in per:
                continue
            base = per[m.control][0]
            width = 100.0 * bin_width(base) / base
            cells = [f'{per[v][0] / 1000:.1f} / {per[v][1] / 1000:.1f}' if v in per else '-' for v in m.variants]
            for o in m.others:
                c = self.fam[o].get((d, p))
                if o not in per or c is None:
                    cells.append('-')
                elif abs(c.mean) < 2 * width:
                    cells.append(f'not shown: the difference ({c.mean:+.2f} %) is within two bins')
                else:
                    cells.append(f'{100.0 * (per[o][0] - base) / base:+.1f} % (measured {c.mean:+.2f} %)')
            rows.append(f'| {p} | ' + ' | '.join(cells) + f' | {width:.2f} % |')
        if not rows:
            return []
        head = ['point'] + [f'{v} p50 / p99, us' for v in m.variants] + \
            [f'{o} p50 vs {m.control}' for o in m.others] + [f'bin width at {m.control} p50']
        return [mdtable.prose('report.md', 'latency-intro', device=d,
                              metric='total latency (lat)' if kind == 'lat' else 'completion latency (clat)'), '',
                '| ' + ' | '.join(head) + ' |', '|---' * len(head) + '|'] + rows + ['']
