"""What decision collection and rendering share: errors, commands, atomic
writes, and the small helpers of the rendering (percentages, spans,
which kernel is ahead at which sizes)."""
import os
import re
import subprocess
import sys

from bench import attrib_counts


def die(msg):
    sys.exit(f'decision.py: error: {msg}')


def write_atomic(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


# ---------------------------------------------------------------- collect

def run(cmd, cwd=None, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors='replace')
    if check and p.returncode != 0:
        die(f'{" ".join(cmd)[:200]} failed ({p.returncode}): {p.stderr.strip()[:800]}')
    return p.stdout


# ---------------------------------------------------------------- render

def read(path):
    with open(path) as f:
        return f.read()


def split_functions(text):
    """functions-<v>.c -> {(file, fn): body}."""
    out = {}
    for chunk in re.split(r'^@@ ', text, flags=re.M)[1:]:
        head, _, body = chunk.partition('\n')
        path, fn = head.split()
        out[(path, fn)] = body
    return out


def pct(a, b):
    return 100.0 * (a - b) / b if b else float('nan')


def counted_at(points, counted):
    """Where a quantity was counted, for the list of what the rig cannot
    show: 'at every point of the run (N)' when COUNTED (sorted point names)
    covers all of the run's POINTS, else 'only at' and the points."""
    if not counted:
        return 'at no point'
    if set(points) <= set(counted):
        return f'at every point of the run ({len(points)})'
    return 'only at ' + ', '.join(counted)


def ahead_by_size(signs, control, cand):
    """Who is ahead, by size class, for a summary row: SIGNS is {size:
    {CAND's count > CONTROL's, at each point of the size}}; a size is the
    kernel with fewer instructions at every point, or 'mixed'."""
    ahead = {s: control if v == {True} else cand if v == {False} else 'mixed' for s, v in signs.items()}
    return '; '.join(f'{w} at {", ".join(s for s in ahead if ahead[s] == w)}'
                     for w in (control, cand, 'mixed') if w in ahead.values())


def span_by_device(by_dev):
    """'real -0.24 % to +1.06 %, fake ...': the range of each device's
    percentages (BY_DEV: {device: [%]}), as the full rows print them."""
    return ', '.join(f'{d} ' + span(f'{min(v):+.2f} %', f'{max(v):+.2f} %') for d, v in by_dev.items())


def span(lo, hi):
    """'LO to HI', or LO where the two print the same."""
    return lo if lo == hi else f'{lo} to {hi}'


def same_layout(ev, pairs, cand, kind='insns'):
    """'; ... at K of N points': where the attribution's buffers (of
    attrib.txt's KIND runs) had one layout (bvecs per I/O,
    attrib_counts.bvecs_per_io) in both runs and on both kernels (the
    control and CAND), so a difference is not the layout's; '' if none was
    counted."""
    got = [ev.bvecs.get((kind, d, p), {}) for d, p in pairs]
    got = [b for b in got if ev.control in b and cand in b]
    if not got:
        return ''
    same = sum(1 for b in got if attrib_counts.layout_verdict({v: b[v] for v in (ev.control, cand)}) == 'same')
    return (f'; the same buffer layout (bvecs per I/O) in both runs and on both kernels at {same} of the '
            f'{len(pairs)} (device, point) pairs')
