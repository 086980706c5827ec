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
# complete.  Variants: $VARIANTS or every directory under variants/.
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
done

[ $level = full ] || exit 0
dest=${REL_DEST:-$top/results/reliability-$(date -u +%Y%m%d-%H%M)}
tmp=$dest.partial
rm -rf "$tmp"
mkdir -p "$tmp" || die "cannot create $tmp"
ok=yes
for v in $variants; do
	[ -d "$runs/$v" ] || continue
	mkdir -p "$tmp/$v" &&
		cp "$runs/$v/run.info" "$runs/$v/RESULT" "$tmp/$v/" &&
		gzip -c "$runs/$v/console.log" >"$tmp/$v/console.log.gz" &&
		(cd "$runs/$v/share/out" && cp -- *.tsv *.json plan.log dmesg.txt $(ls kmemleak.txt complete 2>/dev/null) "$tmp/$v/") ||
		ok=no
done
/usr/bin/python3 "$top/tests/reliability/report.py" "$tmp" >"$tmp/REPORT.md.tmp" &&
	mv "$tmp/REPORT.md.tmp" "$tmp/REPORT.md" || ok=no
if [ $ok = yes ] && rm -rf "$dest" && mv "$tmp" "$dest"; then
	note "reliability report: ${dest#"$top"/}/REPORT.md"
else
	die "the reliability results could not all be written (disk full? see 'df -h $tmp'); the partial run is left in $tmp and is not a result"
fi
