"""What the parts of REPORT.md share: the appendix's name, the metrics and
their groups, how a number, a percentage and a paired comparison are
printed, and the mean of repeats with its interval."""
import math
import statistics

from bench import attrib_counts
from bench import mdtable
from bench import stats


# The long tables go to a file of their own beside REPORT.md.
APPENDIX = 'REPORT-appendix.md'
APPENDIX_HEADING = '## The functions behind the instruction differences'
APPENDIX_ANCHOR = mdtable.slug(APPENDIX_HEADING)

METRICS = [  # key, label, better
    ('ns_per_io', 'guest ns per I/O', 'lower'),
    ('iops', 'IOPS', 'higher'),
    ('bw_mib', 'MiB/s (completed I/Os)', 'higher'),
    ('ios', 'I/Os completed in the window', 'higher'),
    ('lat_mean_us', 'latency mean us', 'lower'),
    ('lat_p50_us', 'latency p50 us', 'lower'),
    ('lat_p99_us', 'latency p99 us', 'lower'),
    ('lat_p999_us', 'latency p99.9 us', 'lower'),
    ('req_kib', 'KiB per request at the disk', 'higher'),
]
# ------------------------------------------------------------ number format
# One format everywhere: percentages with two decimals, other figures with
# three significant digits below 1000 and as integers above.

def num(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return 'n/a'
    return f'{x:.3g}' if abs(x) < 1000 else f'{x:.0f}'


def pct(x, sign=True):
    """A percentage as every table prints it: two decimals, signed for a
    difference; an unsigned one (an interval, a resolution) that is not
    zero but rounds to it is '< 0.01 %', so a tiny interval (real 4M: the
    repeats agree to 0.003 %) never reads as the '± 0' of no spread."""
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return 'n/a'
    if not sign and 0 < abs(x) < 0.005:
        return '< 0.01 %'
    return f'{x:+.2f} %' if sign else f'{x:.2f} %'


# The columns of the IOMMU work table: (label, function of
# attrib_counts.IOMMU_CALLS counted by its entries).
IOMMU_COLUMNS = (('commands', 'scsi_queue_rq'), ('IOVA allocations', 'alloc_iova_fast'),
                 ('page-table writes', 'intel_iommu_map_pages'), ('page-table unmaps', 'intel_iommu_unmap_pages'),
                 ('invalidations waited for', 'qi_submit_sync'))


def sfmt(x):
    """An instruction or miss count difference: signed, as attrib.py prints counts."""
    return ('+' if x > 0 else '') + attrib_counts.fmt(x)


def plus_minus(c):
    """A difference with its 95 % interval, floored (stats.Comparison.pm:
    never narrower than the floor).  One observation (stats.Comparison.
    single: one repeat, or the same I/O counts in every repeat on both
    kernels) has no interval and says so; where every repeat gave the same
    difference there is no test (such a point is never called
    significant), and the cell says so too."""
    if c.single:
        return f'{pct(c.mean)}, one observation'
    if c.half == 0:
        return f'{pct(c.mean)} ± {pct(c.pm, False)}, the same in all {c.n} repeats'
    return f'{pct(c.mean)} ± {pct(c.pm, False)}'


def cell(c):
    """One comparison in a table cell: difference ± interval, its
    resolution, and the verdict where it is not 'no difference shown'."""
    if c is None:
        return 'n/a'
    if c.verdict() == 'one observation':
        return f'{plus_minus(c)} (floor {pct(c.floor, False)})'
    if not c.resolved:
        return f'not resolved (floor {pct(c.floor, False)})'
    txt = f'{plus_minus(c)} (res. {pct(c.resolution, False)})'
    return f'**{txt}**' if c.significant else txt


def ci_mean(xs):
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float('nan')
    return m, stats.t_quantile(0.975, len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
