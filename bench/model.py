"""The bench's results model: what report.py and decision.py both read.

A run directory holds meta.txt (the run description: matrix, kernels,
project commit) and raw/<device>/<variant>/r<N>/ per boot (kept only when
its RESULT is "pass").  load(run) reads them into rows of (device, variant,
repeat, point, metrics), one reader per file format, and compare() gives
the paired A/B statistics every report uses.  Nothing here reads a file
that report.py or decision.py write.  The readers of the raw files are in
readers.py and tracefs.py, the statistics in stats.py.

Metrics per row (the main direction of fio's json+ output):
  ios          I/Os completed in the measured window (fio total_ios)
  window_ms    the window (fio's runtime of that direction, whole ms)
  iops         ios / window
  bw_mib       ios x block size / window, in MiB/s.  Not fio's io_bytes:
               at queue depth > 1 that also counts the I/Os in flight when
               the ramp ended, so it can exceed what was completed.
  ns_per_io    window / ios: guest ns per completed I/O (in icount mode
               guest time counts instructions, 1 instruction = 1 ns)
  lat_*_us     fio's total latency (submission to completion), mean and
               percentiles
  req_kib      mean size of the requests the disk completed (block stat
               before and after the point)
"""
import glob
import os
import re
import statistics
import sys

from bench import variants
from bench.readers import (bs_bytes, read_fio, read_kv, read_steps, request_kib, size_class,
    split_point)
from bench.stats import from_diffs, holm, paired, quantum_floor


# the metrics that are the I/O count over the window: where both kernels
# completed the same I/Os in every repeat, their repeats are one observation
IOS_METRICS = ('ns_per_io', 'iops', 'bw_mib', 'ios')
# bench/run.sh's scsi_debug devices; every other device of a run is a disk
# on a QEMU-emulated host adapter (a bench class of common/adapters.tsv:
# virtio, pvscsi, ahci), which completes in host time
SCSI_DEBUG_DEVICES = ('real', 'fake')


def is_qemu_device(device):
    """Is DEVICE a disk on a QEMU host adapter rather than scsi_debug?"""
    return device not in SCSI_DEBUG_DEVICES


# ------------------------------------------------------------ the run

class Run:
    """A bench run: meta, the kept boots and the rows."""

    def __init__(self, path):
        self.path = path.rstrip('/')
        meta = os.path.join(self.path, 'meta.txt')
        if not os.path.exists(meta):
            sys.exit(f'{self.path} is not a bench run (no meta.txt): give a results/<run-id> '
                     'directory made by make bench')
        self.meta = read_kv(meta)
        self.mode = self.meta['mode'][0]
        self.variants = self.meta['variants'][0].split()
        self.devices = self.meta['devices'][0].split()
        # every device is named by its description (bench/run.sh writes
        # device_<name>; a run of a device class it did not yet describe,
        # ahci before 2026-12-08, has none)
        undescribed = [d for d in self.devices if 'device_' + d not in self.meta]
        if undescribed:
            sys.exit(f'{meta} has no device_{undescribed[0]} line (a run of bench/run.sh from before it '
                     f'described every bench class of common/adapters.tsv): add the line, as bench/run.sh '
                     f'writes it now, or rerun with RUN_ID={os.path.basename(self.path)} to rewrite meta.txt')
        self.points = self.meta.get('point', [])
        self.repeats = int(self.meta['repeats'][0])
        # the run says which variant was its control (meta.txt control);
        # a run from before it did is read with today's variant table
        self.control = self.meta['control'][0] if 'control' in self.meta else variants.control(self.variants)
        self.others = [v for v in self.variants if v != self.control]
        self.boots = {}     # (device, variant) -> {repeat: boot dir}
        self._steps = {}    # boot dir -> its results.ktap steps
        self.rows = {}      # (device, variant, point) -> {repeat: metrics}
        for d in self.devices:
            for v in self.variants:
                for rdir in sorted(glob.glob(os.path.join(self.path, 'raw', d, v, 'r*'))):
                    m = re.match(r'r(\d+)$', os.path.basename(rdir))
                    if not m or not self._passed(rdir):
                        continue
                    r = int(m.group(1))
                    self.boots.setdefault((d, v), {})[r] = rdir
                    for p in self.points:
                        self.rows.setdefault((d, v, p), {})[r] = self._row(rdir, p)

    @staticmethod
    def _passed(rdir):
        try:
            with open(os.path.join(rdir, 'RESULT')) as f:
                return f.read().strip() == 'pass'
        except FileNotFoundError:
            return False

    def _row(self, rdir, point):
        out = os.path.join(rdir, 'share', 'out')
        path = os.path.join(out, point + '.json')
        ktap = os.path.join(out, 'results.ktap')
        if os.path.exists(ktap):    # boots from before job files have none
            if rdir not in self._steps:
                self._steps[rdir] = read_steps(ktap)[0]
            st = self._steps[rdir].get(point)
            if st != 'pass':
                sys.exit(f'{ktap}: point {point} is {st or "not reported"}, but the boot is marked '
                         'complete (its job differs from meta.txt: rerun it)')
        if not os.path.exists(path):
            sys.exit(f'{path} is missing: the boot is marked complete but has no data for this '
                     'point (its job differs from meta.txt: rerun it)')
        row = read_fio(path, bs_bytes(split_point(point)[1]))
        row['req_kib'] = request_kib(out, point)
        return row

    def out(self, device, variant, repeat=None):
        """share/out of a boot: the given repeat, else the first kept one."""
        b = self.boots.get((device, variant), {})
        if not b:
            return None
        return os.path.join(b[repeat if repeat is not None else min(b)], 'share', 'out')

    def values(self, d, v, p, key):
        return [m[key] for _, m in sorted(self.rows.get((d, v, p), {}).items()) if m.get(key) is not None]

    def complete(self):
        return all(len(self.boots.get((d, v), {})) == self.repeats
                   for d in self.devices for v in self.variants)

    # -------------------------------------------------------- comparisons

    def compare(self, d, p, other, key='ns_per_io'):
        """Paired comparison of OTHER against the control at one point."""
        a = self.rows.get((d, self.control, p), {})
        b = self.rows.get((d, other, p), {})
        reps = sorted(r for r in set(a) & set(b) if a[r].get(key) and b[r].get(key) is not None)
        if not reps:
            return None
        ios = min(min(a[r]['ios'], b[r]['ios']) for r in reps)
        win = min(min(a[r]['window_ms'], b[r]['window_ms']) for r in reps)
        # the same I/O counts in every repeat on both kernels: the repeats
        # are copies of one run (icount), whatever spread the window's
        # whole milliseconds give them
        copies = key in IOS_METRICS and all(len({x[r]['ios'] for r in reps}) == 1 for x in (a, b))
        return paired([a[r][key] for r in reps], [b[r][key] for r in reps],
                      quantum_floor(ios, win), single=copies)

    def family(self, other, key='ns_per_io'):
        """Every point of every device compared, Holm-adjusted over the lot:
        {(device, point): Comparison}."""
        out = {}
        for d in self.devices:
            for p in self.points:
                c = self.compare(d, p, other, key)
                if c:
                    out[(d, p)] = c
        holm(list(out.values()))
        return out

    def classes(self, other, key='ns_per_io'):
        """Per device and size class: the per-repeat mean of the paired
        differences over the class's points, as one comparison (its floor
        is the mean of the points' floors), plus the points of the class
        that are significant: {(device, size): (Comparison, [(point,
        Comparison)])}.  Holm over the classes."""
        fam = self.family(other, key)
        sizes = []
        for p in self.points:
            if size_class(p) not in sizes:
                sizes.append(size_class(p))
        out = {}
        for d in self.devices:
            for s in sizes:
                pts = [(p, fam[(d, p)]) for p in self.points if size_class(p) == s and (d, p) in fam]
                if not pts:
                    continue
                n = min(len(c.diffs) for _, c in pts)
                per_rep = [statistics.fmean(c.diffs[i] for _, c in pts) for i in range(n)]
                base = statistics.fmean(statistics.fmean(c.base) for _, c in pts)
                c = from_diffs(per_rep, statistics.fmean(c.floor for _, c in pts), base,
                               single=all(c.single for _, c in pts))
                out[(d, s)] = (c, pts)
        holm([c for c, _ in out.values()])
        return out
