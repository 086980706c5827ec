#!/bin/bash
# boot.sh NAME PLAN "QEMU ARGS" "KERNEL ARGS"  (variant $V, default sg_ring)
set -euo pipefail
top=/work/wt-15
v=${V:-sg_ring}
name=$1 plan=$2
map=$top/build/$v/obj/System.map
mark=$(awk '$3 == "__x64_sys_sync" { print "0x" $1 }' "$map")
b=$top/build/det/$name
DET_QEMU_ARGS="$3" SGB_QEMU=$top/build/det/qemu-wrap.sh nice -n 19 "$top/qemu/run.sh" -v "$v" -p "$plan" -o "$b" -m icount -t 3600 -a "$4" ${RUNFLAGS:-} \
  -P "insncount,out=$b/insncount.txt,mark=$mark" > $top/build/det/$name.log 2>&1
/usr/bin/python3 "$top/bench/attrib.py" fold "$b/insncount.txt" "$map" "$b/share/out/kallsyms" "$b/share/out/attrib-points" "$b/fold"
head -4 $b/fold/*.tsv | tail -1
grep wall_seconds $b/run.info
