#!/bin/bash
# refold.sh NAME [MAP]: fold NAME's counts with MAP (default the pre-rebuild System.map.old)
set -euo pipefail
b=/work/wt-15/build/det/$1
map=${2:-/work/wt-15/build/det/System.map.old}
rm -rf $b/fold
/usr/bin/python3 /work/wt-15/bench/attrib.py fold "$b/insncount.txt" "$map" "$b/share/out/kallsyms" "$b/share/out/attrib-points" "$b/fold"
for f in $b/fold/*.tsv; do echo "$1 $(basename $f) $(sed -n 4p $f)"; done
