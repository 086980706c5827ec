#!/bin/bash
# tests/plugin.sh [VARIANT] - the insncount TCG plugin on a known kernel path.
#
# Boots VARIANT (default sg_table) twice in icount mode with the plugin and
# the same plan: scsi_debug fake_rw=1, then `sync`, fio for N 4k random
# reads, `sync`, fio for 2N, `sync` (the plugin snapshots when the guest
# enters sync(2)).  Checks, on the counts folded by bench/attrib.py:
#   known-path: scsi_queue_rq was entered exactly N more times in the 2N
#       run than in the N run (one SCSI command per 4k read), and
#       __x64_sys_sync exactly once in each run (the mark itself);
#   deterministic: the second boot gives the same count for every function;
#   slowdown: the plugin's cost, as the wall time of the same boot without
#       the plugin against with it (printed; not asserted: the host is
#       shared).
# Prints one "name<TAB>passed|failed<TAB>why" line per check (the format of
# tests/run.sh's results_from) and exits 1 if any failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"

v=${1:-sg_table}
n=${N:-100}
check_variant "$v"
[ -f "$top/build/$v/.built" ] && [ -f "$top/build/$v/initramfs.cpio" ] || die "$v is not built: run 'make image'"
"$top/qemu/plugin/build.sh"
work=$top/build/test-runs/plugin-$v
rm -rf "$work"
mkdir -p "$work"
map=$top/build/$v/obj/System.map
mark=$(awk '$3 == "__x64_sys_sync" { print "0x" $1 }' "$map")
[ -n "$mark" ] || die "$map has no __x64_sys_sync (the mark)"

fio="fio --name=p --filename=/dev/\$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --randseed=1 --output-format=json"
cat >"$work/plan.sh" <<EOF
#!/bin/sh
. "\$SGB_LIB"
set -e
disk=\$(sd_load dev_size_mb=64 delay=0 fake_rw=1)
cp /proc/kallsyms "\$SGB_OUT/kallsyms"
$fio --number_ios=10 --output=/tmp/warm.json
sync
$fio --number_ios=$n --output=/tmp/n.json
sync
$fio --number_ios=$((2 * n)) --output=/tmp/2n.json
sync
echo 'randread-4k-qd1 $n' >"\$SGB_OUT/attrib-points"
EOF

failed=0
line() {
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}"
	[ "$2" = passed ] || failed=1
}

wall() { awk '$1 == "wall_seconds" { print $2 }' "$1/run.info"; }

for r in 1 2; do
	b=$work/boot$r
	if ! "$top/qemu/run.sh" -v "$v" -p "$work/plan.sh" -o "$b" -m icount -t 900 \
		-P "insncount,out=$b/insncount.txt,mark=$mark" >"$work/boot$r.log" 2>&1; then
		line "plugin/$v/boot$r" failed "$(cat "$b/RESULT" 2>/dev/null || echo 'no result') (see $work/boot$r.log)"
		exit 1
	fi
	/usr/bin/python3 "$top/bench/attrib.py" fold "$b/insncount.txt" "$map" "$b/share/out/kallsyms" \
		"$b/share/out/attrib-points" "$b/fold"
done
tsv=randread-4k-qd1.tsv

# entries FUNCTION: "<entries in the N run> <entries in the 2N run>"
entries() { awk -F '\t' -v f="$1" '$1 == f { print $4, $5 }' "$work/boot1/fold/$tsv"; }
read -r e1 e2 <<<"$(entries scsi_queue_rq)"
if [ -n "${e1:-}" ] && [ $((e2 - e1)) -eq "$n" ]; then
	line "plugin/$v/known-path-scsi_queue_rq-once-per-io" passed
else
	line "plugin/$v/known-path-scsi_queue_rq-once-per-io" failed "entered ${e1:-?} and ${e2:-?} times in the runs of $n and $((2 * n)) I/Os (want a difference of $n)"
fi
read -r s1 s2 <<<"$(entries __x64_sys_sync)"
if [ "${s1:-}" = 1 ] && [ "${s2:-}" = 1 ]; then
	line "plugin/$v/known-path-one-sync-per-run" passed
else
	line "plugin/$v/known-path-one-sync-per-run" failed "__x64_sys_sync entered ${s1:-?} and ${s2:-?} times (want 1 and 1)"
fi
if cmp -s "$work/boot1/fold/$tsv" "$work/boot2/fold/$tsv"; then
	line "plugin/$v/deterministic-rerun" passed "$(awk -F '\t' 'NR > 6 { n++ } END { print n " functions" }' "$work/boot1/fold/$tsv"), identical"
else
	line "plugin/$v/deterministic-rerun" failed "the two boots' counts differ: diff $work/boot1/fold/$tsv $work/boot2/fold/$tsv"
fi

if [ "${SLOWDOWN:-0}" = 1 ]; then
	b=$work/noplugin
	"$top/qemu/run.sh" -v "$v" -p "$work/plan.sh" -o "$b" -m icount -t 900 >"$work/noplugin.log" 2>&1 ||
		die "the boot without the plugin failed: see $work/noplugin.log"
	note "plugin slowdown ($v, icount, this plan): $(wall "$b") s without, $(wall "$work/boot1") s and $(wall "$work/boot2") s with"
fi
exit $failed
