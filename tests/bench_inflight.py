#!/usr/bin/python3
"""bench_inflight.py RUN POINT: check the sg pool memory a bench run
measured with commands in flight at POINT (its INFLIGHT step, first fake
boot of each kernel), one result line per kernel (name<TAB>passed|failed<TAB>
detail): most of the queue depth was in flight (at least 3/4 of it: the
completion delay holds each command INFLIGHT_NS), and the pools gained
memory for them, at least one pool object of the largest size (a 1M or 4M
request needs more than the inline head) and at most what the commands in
flight could hold.  With delay=0 a command completes inside its
submission, so a measurement that saw one or two commands is the defect
this catches."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench'))
import model  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    run = model.Run(sys.argv[1])
    point = sys.argv[2]
    qd = model.split_point(point)[2]
    segs = model.bs_bytes(model.split_point(point)[1]) // 4096
    for v in run.variants:
        name = f'bench/memory-in-flight/{v}/{point}'
        out = run.out('fake', v, 1)
        x = model.read_inflight(out, point) if out else None
        if x is None:
            print(f'{name}\tfailed\tno inflight measurement of {point} in {sys.argv[1]} (fake {v} r1)')
            continue
        held = ', '.join(f'{k} +{a} x {sz} B' for k, (a, sz, _) in sorted(x['caches'].items())) or 'nothing'
        largest = max((sz for _, sz, _ in x['caches'].values()), default=0)
        # the most a command can hold: one 32-byte entry per segment, each
        # pool object holding at least 7 of them, one slab of slack per cache
        most = segs * 32 * 2 + sum(sz * per for _, sz, per in x['caches'].values()) / max(x['inflight'], 1)
        ok = x['inflight'] >= qd * 3 // 4 and x['per_command'] and largest >= 4096 and x['per_command'] <= most
        print(f"{name}\t{'passed' if ok else 'failed'}\t{x['inflight']} of {qd} in flight, "
              f"pools gained {held}: {x['per_command'] or 0:.0f} B per command")


main()
