"""REPORT.md's difference plot (RUN/plots/diff-<candidate>.png): per
device class (a row of panels with its own axis) and size class (a
panel), every point's paired difference with its interval, drawn over
its resolution band; colours from the Okabe-Ito palette, so that they
stay apart for colour-blind readers, and the verdict also in the
marker's fill and shape."""
import math
import os

from bench import readers

# Okabe & Ito, "Color Universal Design" (2008): blue and vermillion stay
# apart in every common form of colour blindness; grey is neither
FASTER, SLOWER, NEITHER, BAND = '#0072B2', '#D55E00', '#555555', '#dddddd'


def axis_limit(comps):
    """Half-width of a device row's axis: the largest resolved effect with
    its interval, or the largest resolution band, at least 0.5 %, plus
    room for the markers."""
    ext = [abs(c.mean) + c.pm for c in comps if c.significant]
    ext += [abs(c.mean) for c in comps if c.single and abs(c.mean) > c.floor]
    ext += [c.resolution for c in comps if not math.isnan(c.resolution) and c.resolution < 5]
    ext += [c.floor for c in comps]
    return max([0.5] + ext) * 1.25


def style(c):
    """(colour, marker, filled) of a comparison: significant, filled circle
    in the colour of its sign; one observation beyond its floor, hollow
    square in that colour; otherwise a hollow grey circle."""
    if c.significant:
        return (SLOWER if c.mean > 0 else FASTER), 'o', True
    if c.single and abs(c.mean) > c.floor:
        return (SLOWER if c.mean > 0 else FASTER), 's', False
    return NEITHER, 'o', False


class ReportPlots:
    """Report's plots."""

    def plots(self):
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        m = self.m
        os.makedirs(os.path.join(self.run, 'plots'), exist_ok=True)
        for name in os.listdir(os.path.join(self.run, 'plots')):
            if name.startswith('lat-cdf-'):   # of earlier renderings: the latency is a table now
                os.remove(os.path.join(self.run, 'plots', name))
        sizes = []
        for p in m.points:
            if readers.size_class(p) not in sizes:
                sizes.append(readers.size_class(p))
        for o in m.others:
            fam = self.fam[o]
            per_size = max(len([p for p in m.points if readers.size_class(p) == s]) for s in sizes)
            fig, axes = plt.subplots(len(m.devices), len(sizes), squeeze=False,
                                     figsize=(2.6 * len(sizes) + 1.2, (0.17 * per_size + 0.9) * len(m.devices) + 0.9))
            for row, d in zip(axes, m.devices):
                comps = [fam[(d, p)] for p in m.points if (d, p) in fam]
                lim = axis_limit(comps)
                for ax, s in zip(row, sizes):
                    sel = [p for p in m.points if readers.size_class(p) == s]
                    for y, p in enumerate(sel):
                        c = fam.get((d, p))
                        if c is None:
                            continue
                        band = c.floor if math.isnan(c.resolution) else c.resolution
                        ax.barh(y, 2 * min(band, lim), left=-min(band, lim), height=0.7, color=BAND, lw=0)
                        col, mk, filled = style(c)
                        half = 0 if math.isnan(c.pm) else min(c.pm, lim)
                        x = max(-lim, min(lim, c.mean))
                        ax.errorbar([x], [y], xerr=[[half], [half]], fmt=mk, color=col, ms=3.5, capsize=1.5,
                                    mfc=col if filled else 'white', lw=0.8)
                        if abs(c.mean) > lim:
                            ax.annotate(f'{c.mean:+.1f}', (x, y), fontsize=5, ha='right' if x > 0 else 'left',
                                        va='bottom')
                    ax.set_yticks(range(len(sel)))
                    ax.set_yticklabels([f'{p.split("-")[0]}-qd{readers.split_point(p)[2]}' for p in sel],
                                       fontsize=5.5)
                    ax.invert_yaxis()
                    ax.set_xlim(-lim, lim)
                    ax.axvline(0, color='black', lw=0.6)
                    ax.set_title(f'{d}, {s}', fontsize=8)
                    ax.tick_params(axis='x', labelsize=6)
                    ax.grid(axis='x', lw=0.3)
                row[0].set_ylabel(f'{d}: {o} vs {m.control}, %', fontsize=7)
            legend = [Line2D([], [], ls='', marker='o', color=FASTER, ms=4, label=f'significant, {o} faster'),
                      Line2D([], [], ls='', marker='o', color=SLOWER, ms=4, label=f'significant, {o} slower'),
                      Line2D([], [], ls='', marker='s', color=FASTER, mfc='white', ms=4,
                             label='one observation (no interval), beyond its floor'),
                      Line2D([], [], ls='', marker='o', color=NEITHER, mfc='white', ms=4, label='not resolved'),
                      Patch(color=BAND, label='resolution (floor for one observation)')]
            fig.legend(handles=legend, loc='lower center', ncol=5, fontsize=6, frameon=False)
            fig.suptitle(f'guest ns per I/O, {o} minus {m.control}, % of {m.control}: the mean of the paired '
                         'repeats with its 95 % interval (at least the floor); each device class on its own axis',
                         fontsize=7)
            fig.tight_layout(rect=(0, 0.05, 1, 0.96))
            fig.savefig(os.path.join(self.run, 'plots', f'diff-{o}.png'), dpi=100, metadata={'Software': None})
            plt.close(fig)
