#!/bin/bash
# run.sh --fast|--full [-o DIR] - the reliability suite on each variant's
# debug kernel (build/<variant>-debug: common/build.sh <variant> debug).
#
# Prints one line per result, name<TAB>passed|failed<TAB>why, for
# tests/run.sh to count (--fast: make test).  With --full (make reliability)
# it also writes results/reliability-<date>/ with REPORT.md (a table per
# variant, tests/reliability/report.py) and each guest's results; the
# directory is assembled under a temporary name and renamed only when
# everything in it was written, so a partial run is never left looking
# complete.  With --full, each debug kernel also boots the QEMU-disk
# integrity plan (tests/guest/qemu-disks.sh: virtio-scsi and pvscsi, and
# pvscsi under swiotlb=force), reported as <variant>-qemu-disks*.
# Variants: $VARIANTS or every directory under variants/.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/common/lib.sh"
level='' out=''
while [ $# -gt 0 ]; do
	case $1 in
	--fast) level=fast ;;
	--full) level=full ;;
	-o) out=$2; shift ;;
	*) die "usage: tests/reliability/run.sh --fast|--full [-o DIR]" ;;
	esac
	shift
done
[ -n "$level" ] || die "say --fast (the make test subset) or --full (make reliability)"
variants=${VARIANTS:-$(variants)}
# TCG with 2 vCPUs (submit_queues=2 needs them); icount would be 1 vCPU
mode=${REL_MODE:-tcg}
tmo=$([ $level = full ] && echo 3600 || echo 1200)
runs=${out:-$top/build/reliability-$level}
rm -rf "$runs"
mkdir -p "$runs" || die "cannot create $runs"

for v in $variants; do
	check_variant "$v"
	[ -f "$top/build/$v-debug/.built" ] || {
		printf '%s\tfailed\t%s\n' "$v/rel/boot" "no debug kernel: run 'common/build.sh $v debug && common/image/build.sh $v debug'"
		continue
	}
	dir=$runs/$v
	t0=$(date +%s)
	if "$top/qemu/run.sh" -f debug -v "$v" -p "$top/tests/reliability/plan.sh" -o "$dir" \
		-m "$mode" -M 2048 -t "$tmo" -a "sgb.rel=$level slub_debug=A,sgpool-*,sgring-*" 2>/dev/null; then
		printf '%s\tpassed\t%s\n' "$v/rel/boot" "debug kernel, $level, $(( $(date +%s) - t0 )) s"
	else
		printf '%s\tfailed\t%s\n' "$v/rel/boot" "$(cat "$dir/RESULT" 2>/dev/null || echo "no RESULT in $dir")"
	fi
	echo "wall_seconds_suite $(( $(date +%s) - t0 ))" >>"$dir/run.info"
	o=$dir/share/out
	if [ ! -f "$o/complete" ]; then
		printf '%s\tfailed\t%s\n' "$v/rel/complete" "the plan did not finish: the last step was '$(grep '^== ' "$o/plan.log" 2>/dev/null | tail -n 1)' (see $o/plan.log)"
	fi
	[ -f "$o/results.tsv" ] && sed "s|^|$v/rel/|" "$o/results.tsv"
	[ $level = full ] || continue
	# the integrity part on the QEMU-emulated disks (virtio-scsi, pvscsi
	# on raw files; then pvscsi with every mapping bounced by swiotlb)
	for qd in $qdisk_boots; do
		IFS=: read -r name qdisks args <<<"$qd"
		dir=$runs/$v-$name
		t0=$(date +%s)
		if "$top/qemu/run.sh" -f debug -v "$v" -p "$top/tests/guest/qemu-disks.sh" -o "$dir" \
			-m "$mode" -M 2048 -t "$tmo" -d "$qdisks" -a "$args" 2>/dev/null; then
			printf '%s\tpassed\t%s\n' "$v/rel/$name/boot" "debug kernel, $(( $(date +%s) - t0 )) s"
		else
			printf '%s\tfailed\t%s\n' "$v/rel/$name/boot" "$(cat "$dir/RESULT" 2>/dev/null || echo "no RESULT in $dir")"
		fi
		[ -f "$dir/share/out/complete" ] ||
			printf '%s\tfailed\t%s\n' "$v/rel/$name/complete" "the plan did not finish (see $dir/share/out/plan.log)"
		[ -f "$dir/share/out/results.tsv" ] && sed "s|^|$v/rel/$name/|" "$dir/share/out/results.tsv"
	done
done

[ $level = full ] || exit 0
dest=${REL_DEST:-$top/results/reliability-$(date -u +%Y%m%d-%H%M)}
tmp=$dest.partial
rm -rf "$tmp"
mkdir -p "$tmp" || die "cannot create $tmp"
ok=yes
for v in $variants; do
	for b in $v $v-qemu-disks $v-qemu-disks-swiotlb; do
		[ -d "$runs/$b" ] || continue
		mkdir -p "$tmp/$b" &&
			cp "$runs/$b/run.info" "$runs/$b/RESULT" "$tmp/$b/" &&
			gzip -c "$runs/$b/console.log" >"$tmp/$b/console.log.gz" &&
			(cd "$runs/$b/share/out" && cp -- *.tsv *.json plan.log dmesg.txt $(ls kmemleak.txt complete 2>/dev/null) "$tmp/$b/") ||
			ok=no
	done
done
/usr/bin/python3 "$top/tests/reliability/report.py" "$tmp" >"$tmp/REPORT.md.tmp" &&
	mv "$tmp/REPORT.md.tmp" "$tmp/REPORT.md" || ok=no
if [ $ok = yes ] && rm -rf "$dest" && mv "$tmp" "$dest"; then
	note "reliability report: ${dest#"$top"/}/REPORT.md"
else
	die "the reliability results could not all be written (disk full? see 'df -h $tmp'); the partial run is left in $tmp and is not a result"
fi
