"""The paired A/B statistics every report uses: per point the mean of the
per-repeat differences, its t interval and the point's quantisation floor,
the minimum detectable effect, Holm's step-down rule over all points."""
import math
import statistics


ALPHA = 0.05          # family-wise error rate, Holm's step-down rule
POWER_T = 0.80        # power of the minimum detectable effect
SD_RTOL = 1e-9        # a spread this small (of 100 % + |mean|) is float noise


# ------------------------------------------------------------ statistics

def quantum_floor(ios, window_ms):
    """The smallest difference (%) one repeat can show: one I/O over the
    completed I/Os, plus fio's clock (the window is reported in whole ms)."""
    return 100.0 / ios + 100.0 / window_ms if ios else float('inf')


def t_quantile(q, dof):
    from scipy import stats
    return float(stats.t.ppf(q, dof))


class Comparison:
    """Paired differences in % of the control, per repeat.

    mean, half: the mean and the half-width of its 95 % t interval; floor:
    the quantisation floor (%); pm: what the reports print after the ±,
    max(half, floor): no interval is narrower than the smallest difference
    one repeat can show; mde: the minimum detectable effect (two-sided 5 %,
    power 80 %) from the paired spread; resolution = max(floor, mde); p:
    the paired t test's p value; significant: Holm-adjusted p < ALPHA and
    |mean| above the floor; resolved: the interval is at least the floor
    wide or the difference exceeds the floor (else the rig cannot tell).

    single: the comparison is one observation: one repeat, or repeats that
    are copies of one run (the same I/O counts in every repeat on both
    kernels, Run.compare: under icount the repeats then differ only by
    fio's whole-millisecond clock and float rounding).  It has no interval
    (half, pm, mde and resolution are nan), no p, is never significant and
    is not resolved; its verdict is 'one observation' where the difference
    exceeds the floor, else 'not resolved'.

    No spread: a standard deviation within SD_RTOL of 100 % + |mean| (the
    scale of the ratios the differences come from, so the rounding of
    100 (y - x) / x) is float noise and counts as 0: half = mde = 0, pm =
    floor, no p (never significant)."""

    def __init__(self, diffs, floor, base, mean_abs=None, single=False):
        self.diffs = diffs
        self.n = len(diffs)
        self.single = single or self.n < 2
        self.floor = floor
        self.base = base
        self.mean = statistics.fmean(diffs)
        self.mean_abs = mean_abs   # the mean difference in the metric's unit
        self.p = None
        self.half = self.mde = float('nan')
        if not self.single:
            sd = statistics.stdev(diffs)
            if sd <= SD_RTOL * (100.0 + abs(self.mean)):
                sd = 0.0
            se = sd / math.sqrt(self.n)
            self.half = t_quantile(0.975, self.n - 1) * se
            self.mde = (t_quantile(0.975, self.n - 1) + t_quantile(POWER_T, self.n - 1)) * se
            if sd > 0:
                from scipy import stats
                self.p = float(2 * stats.t.sf(abs(self.mean) / se, self.n - 1))
        self.pm = max(self.half, floor) if not math.isnan(self.half) else float('nan')
        self.resolution = max(floor, self.mde) if not math.isnan(self.mde) else float('nan')
        self.p_holm = None
        self.significant = False

    @property
    def resolved(self):
        """False where the rig cannot tell the kernels apart at this point:
        one observation, or a difference and an interval both under the
        floor."""
        if self.single:
            return False
        return abs(self.mean) > self.floor or self.half >= self.floor

    def resolves(self, target):
        """Whether the point resolves a difference of TARGET %: its
        resolution is at most TARGET (never for one observation)."""
        return not self.single and self.resolution <= target

    def verdict(self):
        if self.significant:
            return 'significant'
        if self.single and abs(self.mean) > self.floor:
            return 'one observation'
        if not self.resolved:
            return 'not resolved'
        return 'no difference shown'


def paired(a, b, floor, single=False):
    """Comparison of B against A, paired by position (repeat); SINGLE: the
    repeats are copies of one run (Comparison.single)."""
    diffs = [100.0 * (y - x) / x for x, y in zip(a, b)]
    return Comparison(diffs, floor, a, statistics.fmean(y - x for x, y in zip(a, b)), single)


def from_diffs(diffs, floor, base, single=False):
    return Comparison(diffs, floor, [base], base * statistics.fmean(diffs) / 100.0, single)


def holm(comps):
    """Holm's step-down rule over COMPS (Comparisons with a p value): sets
    p_holm and significant on each."""
    tested = sorted((c for c in comps if c.p is not None), key=lambda c: c.p)
    m = len(tested)
    running = 0.0
    for i, c in enumerate(tested):
        running = max(running, min(1.0, (m - i) * c.p))
        c.p_holm = running
        c.significant = running < ALPHA and abs(c.mean) > c.floor and not c.single
    return comps


def resolving(comps, target=0.5):
    """How many of COMPS resolve a difference of TARGET % (Comparison.
    resolves: their resolution, the larger of the floor and the minimum
    detectable effect, is at most TARGET), and why the others do not, in
    this order: 'floor' (the window holds too few I/Os), 'one' (one
    observation: no interval), 'spread' (the repeats spread).  {'resolve',
    'floor', 'one', 'spread'}: counts that add up to len(COMPS); the one
    count REPORT.md and DECISION.md both give."""
    out = {'resolve': 0, 'floor': 0, 'one': 0, 'spread': 0}
    for c in comps:
        out['resolve' if c.resolves(target) else 'floor' if c.floor > target else
            'one' if c.single else 'spread'] += 1
    return out
