"""bench_inflight.py RUN POINT: check the sg pool memory a bench run
measured with commands in flight at POINT (its INFLIGHT step, first fake
boot of each kernel, traced: bench/model.py read_inflight), one result line
per kernel (name<TAB>passed|failed<TAB>detail):

- the trace is exact: no lost events, no failed allocation, no free of an
  object it did not see allocated, no dispatch error, nothing left in
  flight at its end;
- most of the queue depth was in flight at the steady state (at least 3/4
  of it: the completion delay holds each command INFLIGHT_NS; with
  delay=0 a command completes inside its submission, so one or two in
  flight is the defect this catches);
- the bytes per command are the same at every steady moment and equal the
  pool bytes the kernel's chunk policy gives for the commands' segments
  (bench/decision.py chunks_sg_table, chunks_sg_ring: the inline head of
  SCSI_INLINE_SG_CNT = 2 entries, chunks of SG_CHUNK_SIZE = 128 entries
  with a chain link, arrays of SG_RING_CHUNK_SIZE = 127; each chunk costs
  its cache's object size as the trace saw it).  The slab growth of
  /proc/slabinfo that the step measured before gave 6144 B here against
  8192 B on both kernels (results/ref-icount-3): this check fails it."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
from bench import decision_memory  # noqa: E402
from bench import model  # noqa: E402
from bench import readers  # noqa: E402
from bench import tracefs  # noqa: E402
from bench import variants  # noqa: E402

INLINE, SG_CHUNK, RING_CHUNK = 2, 128, 127


def expected(variant, segs, sizes):
    """The pool bytes a command of SEGS segments takes, or None when a
    pool it needs is not in SIZES ({cache: object size} from the trace)."""
    policy = variants.load().get(variant, {}).get('memory', 'chained')
    if policy == 'none':
        return 0
    if policy == 'ring':
        prefix, chunks, ents = 'sgring', decision_memory.chunks_sg_ring(segs, INLINE, RING_CHUNK), (7, 15, 31, 63, 127)
    else:
        prefix, chunks, ents = 'sgpool', decision_memory.chunks_sg_table(segs, INLINE, SG_CHUNK), (8, 16, 32, 64, 128)
    pools = {k: sizes.get(f'{prefix}-{k}') for k in ents}
    need = [decision_memory.pool_for(k, pools) for k in chunks]
    if any(pools[k] is None for k in need):
        return None
    return sum(pools[k] for k in need)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    run = model.Run(sys.argv[1])
    point = sys.argv[2]
    qd = readers.split_point(point)[2]
    for v in run.variants:
        name = f'bench/memory-in-flight/{v}/{point}'
        out = run.out('fake', v, 1)
        x = tracefs.read_inflight(out, point) if out else None
        if x is None:
            print(f'{name}\tfailed\tno traced inflight measurement of {point} in {sys.argv[1]} (fake {v} r1)')
            continue
        data = sorted(n for n in x['segments'] if n > 0)
        want = expected(v, data[0], x['sizes']) if len(data) == 1 else None
        lo, hi = x['per_command_range'] or (None, None)
        why = []
        if x['problems']:
            why.append('; '.join(x['problems']))
        if x['inflight'] < qd * 3 // 4:
            why.append(f'only {x["inflight"]} of {qd} in flight at the steady state')
        if want is None:
            why.append(f'no computed figure (segments {x["segments"]}, caches {x["sizes"]})')
        elif not (lo == hi == want):
            why.append(f'measured {lo} to {hi} B per command, computed {want}')
        held = ', '.join(f'{k} {n} x {sz} B' for k, (n, sz) in sorted(x['caches'].items())) or 'nothing'
        print(f"{name}\t{'failed' if why else 'passed'}\t{x['inflight']} of {qd} in flight at "
              f"{x['moments']} steady moments, sg objects in use {held}: "
              f"{lo if lo is None else f'{lo:.0f}'} B per command, computed {want} "
              f"({x['commands']} commands of {', '.join(map(str, data))} segments)"
              + (': ' + '; '.join(why) if why else ''))


main()
