"""REPORT.md's plots (RUN/plots/): the paired differences and the latency
CDFs."""
import math
import os

from bench import readers
from bench.readers import lat_bins


class ReportPlots:
    """Report's plots."""

    # -- plots
    def plots(self):
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        m = self.m
        os.makedirs(os.path.join(self.run, 'plots'), exist_ok=True)
        sizes = []
        for p in m.points:
            if readers.size_class(p) not in sizes:
                sizes.append(readers.size_class(p))
        for o in m.others:
            # one panel per size class, side by side; the axis is fitted to
            # the resolved effects (an interval wider than the axis is
            # clipped and marked), unresolved points are hollow
            fam = self.fam[o]
            lim = [abs(c.mean) + c.pm for c in fam.values() if c.significant] or \
                [abs(c.mean) + c.pm for c in fam.values() if c.resolved and c.pm < 1]
            lim = max([0.5] + lim) * 1.3
            rows = [(d, p) for d in m.devices for p in m.points]
            fig, axes = plt.subplots(1, len(sizes), figsize=(2.6 * len(sizes) + 1.5, 0.16 * len(rows) / len(sizes) + 1.2),
                                     sharey=False, squeeze=False)
            for ax, s in zip(axes[0], sizes):
                sel = [(d, p) for d, p in rows if readers.size_class(p) == s]
                for y, (d, p) in enumerate(sel):
                    c = fam.get((d, p))
                    if c is None:
                        continue
                    col = ('tab:red' if c.mean > 0 else 'tab:green') if c.significant else 'tab:gray'
                    half = 0 if math.isnan(c.pm) else min(c.pm, lim)
                    x = max(-lim, min(lim, c.mean))
                    ax.errorbar([x], [y], xerr=[[half], [half]], fmt='o', color=col, ms=3.5, capsize=1.5,
                                mfc=col if c.resolved else 'white', lw=0.8)
                    if c.pm > lim:
                        ax.annotate(f'±{c.pm:.0f}', (lim, y), fontsize=5, ha='right', va='center')
                ax.set_yticks(range(len(sel)))
                ax.set_yticklabels([f'{d} {p.split("-")[0]}-qd{readers.split_point(p)[2]}' for d, p in sel],
                                   fontsize=5.5)
                ax.invert_yaxis()
                ax.set_xlim(-lim, lim)
                ax.axvline(0, color='black', lw=0.6)
                ax.set_title(s, fontsize=8)
                ax.tick_params(axis='x', labelsize=6)
                ax.grid(axis='x', lw=0.3)
            fig.supxlabel(f'guest ns per I/O, {o} vs {m.control}, % (95 % interval, at least the floor; '
                          'red/green: significant, hollow: not resolved or one observation)', fontsize=7)
            fig.tight_layout()
            fig.savefig(os.path.join(self.run, 'plots', f'diff-{o}.png'), dpi=100, metadata={'Software': None})
            plt.close(fig)
        for d in m.devices:
            pts = self.cdf_points(d)
            if not pts:
                continue
            fig, axes = plt.subplots(1, len(pts), figsize=(3.4 * len(pts), 3), squeeze=False)
            for ax, p in zip(axes[0], pts):
                span = []
                for v in m.variants:
                    kind, bins = lat_bins(os.path.join(m.out(d, v), p + '.json'))
                    total = sum(c for _, c in bins)
                    if not bins or not total:
                        continue
                    xs, ys, acc = [bins[0][0] / 1000.0], [0.0], 0
                    for ns, c in bins:
                        acc += c
                        xs.append(ns / 1000.0)
                        ys.append(acc / total)
                    ax.step(xs, ys, where='post', label=v)
                    span.extend([xs[0], xs[-1]])
                # log scale only where the latencies span more than a decade;
                # plain labels on the major ticks only, so they cannot overlap
                if span and max(span) > 10 * min(span):
                    ax.set_xscale('log')
                    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f'{x:g}'))
                    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
                else:
                    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(5))
                ax.set_title(p, fontsize=8)
                ax.set_xlabel('latency, us' if kind == 'lat' else 'completion latency (clat), us', fontsize=7)
                ax.tick_params(labelsize=7)
            axes[0][0].set_ylabel('fraction of I/Os', fontsize=7)
            if axes[0][-1].get_legend_handles_labels()[0]:
                axes[0][-1].legend(fontsize=7)
            fig.tight_layout()
            fig.savefig(os.path.join(self.run, 'plots', f'lat-cdf-{d}.png'), dpi=90, metadata={'Software': None})
            plt.close(fig)

    def cdf_points(self, d):
        """The points of a device whose latency CDF is plotted: queue depth 1
        of the first random direction, every block size, where every variant
        has a first repeat."""
        if any((d, v) not in self.m.boots for v in self.m.variants):
            return []
        qd1 = [p for p in self.m.points if p.endswith('-qd1')]
        rws = [p.split('-')[0] for p in qd1]
        rw = next((r for r in ('randread', 'read', 'randwrite', 'write') if r in rws), None)
        return [p for p in qd1 if p.split('-')[0] == rw]
