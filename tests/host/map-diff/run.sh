#!/bin/bash
# run.sh [CASES] [MUTATION] - the sg_ring_blk differential test on the host:
# the mapping code of the patched block/blk-merge.c (from the sg_ring tree,
# build/sg_ring/src, prepared by 'common/tree.sh apply sg_ring') compiled
# in userspace against stubs.h, __blk_rq_map_sg() against
# blk_rq_map_sg_ring() on random requests under random limits (the same
# generator as the KUnit suite, another PRNG).  MUTATION=no-merge or
# stale-end breaks blk_rq_map_sg_ring() on purpose: the run must then fail.
# A scratch check, not part of make test: the KUnit suite is the test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
src=$top/build/sg_ring/src/block/blk-merge.c
[ -f "$src" ] || { echo "map-diff: $src is missing: run 'common/tree.sh apply sg_ring' first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{ echo '/*'; sed -n '/^ \* Where the mapping helpers below put the next segment/,/^EXPORT_SYMBOL_GPL(blk_rq_map_sg_ring);/p' "$src"; } >"$tmp/map.c"
case "${2:-}" in
'') ;;
no-merge) sed -i 's/if (!c->sg || (ring \&\& c->overflow))/if (!c->sg || ring)/' "$tmp/map.c" ;;
stale-end) /usr/bin/python3 -c "import sys; p=sys.argv[1]; s=open(p).read(); open(p,'w').write(s.replace('\t\t\t/* As below: drop a stale end marker. */\n\t\t\tsg_unmark_end(c->sg);\n', '', 1))" "$tmp/map.c" ;;
*) echo "map-diff: unknown mutation '$2': choose no-merge or stale-end" >&2; exit 1 ;;
esac
gcc -O2 -Wall -Wno-unused-function -Wno-maybe-uninitialized -I"$here" -DMAP_C="\"$tmp/map.c\"" -o "$tmp/map-diff" "$here/map-diff.c"
"$tmp/map-diff" "${1:-2000}"
