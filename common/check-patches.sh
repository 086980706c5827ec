#!/bin/bash
# check-patches.sh [--prefixes] - the patches of the series, one by one.
#
# Always: scripts/checkpatch.pl --strict (from the base tree) on every patch
# of common/series and each variant's series.  Prints one line per patch,
# "<series-dir>/<patch>\t<passed|failed>\t<errors, warnings, checks>"
# (make test reads these lines).  A patch passes with no error, a
# Signed-off-by, every checker of checkpatch run (spdxcheck.py runs under
# Debian's python3), and exactly the warnings and checks that
# <series-dir>/checkpatch.accepted lists for it, each with its reason:
# "<patch number> <TYPE> <count> <reason>" (TYPE as --show-types prints
# it, e.g. CHECK:MACRO_ARG_REUSE).  One more, or one fewer, fails: the list
# stays the exact record of what a reviewer would be asked to accept.
# SGB_CHECKPATCH and SGB_SERIES_DIRS (the series directories) replace the
# base tree's checkpatch.pl and common/ plus variants/*/ for the rig's own
# tests.
#
# With --prefixes (make check-patches): bisectability.  Every prefix of a
# candidate's series (VARIANT, default the first variant whose role is
# candidate: sg_ring today; the base plus patches 1..k) is checked out, one
# patch at a time, in build/<variant>/src (the worktree of build/git that
# common/tree.sh made, moved to the commits it writes, one per patch; back
# at the whole series at the end), and
#   - the project kernel is built (common/build.sh <variant> prefix:
#     the fragments of every kernel, incrementally in
#     build/<variant>/prefix-obj);
#   - the compile-test set of common/check-build.sh is built (x86_64
#     allmodconfig, incrementally in build/check-build/<variant>/obj, where
#     make check-build builds it) and its warnings and errors compared with
#     the control's (build/check-build/<control>, made here if missing);
#   - the prefix kernel boots: tests/guest/smoke.sh (scsi_debug, fio
#     verify 4k..4M, the KUnit suites the prefix has) and, with
#     PREFIX_BOOTS=all (the default), tests/guest/qemu-disks.sh on
#     virtio-scsi and pvscsi (also bounced through the swiotlb).
#     PREFIX_BOOTS=smoke boots only scsi_debug, PREFIX_BOOTS=none nothing.
# PREFIXES selects prefixes by their last patch's number: "9-15", "3 9",
# default all.  A table row per prefix goes to stdout and to
# build/check-patches/TABLE.md; a failing prefix names its patch.  Exits
# non-zero if any patch or prefix failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
cp=${SGB_CHECKPATCH:-$top/build/git/scripts/checkpatch.pl}
[ -x "$cp" ] || die "no base tree: run 'make base' first"
cptree=$(cd "$(dirname "$cp")/.." && pwd)
case "${1:-}" in
'' | --prefixes) ;;
*) die "usage: common/check-patches.sh [--prefixes]" ;;
esac
bad=0
# accepted_diff PATCH OUT: the warnings and checks of checkpatch's output OUT
# that $dir/checkpatch.accepted does not list for PATCH ("+TYPE xN"), and
# those it lists that OUT no longer has ("-TYPE xN"); nothing if they agree
accepted_diff() {
	local num=${1%%-*} found want
	found=$(printf '%s\n' "$2" | grep -oE '^(WARNING|CHECK):[A-Z0-9_]+' | sort | uniq -c | awk '{ print $2, $1 }')
	want=$([ -f "$dir/checkpatch.accepted" ] &&
		awk -v n="$num" '$1 == n { print $2, $3 }' "$dir/checkpatch.accepted" | sort)
	diff <(printf '%s\n' "$found" | sed '/^$/d') <(printf '%s\n' "$want" | sed '/^$/d') |
		sed -n 's/^< \(.*\) \([0-9]*\)$/+\1 x\2/p;s/^> \(.*\) \([0-9]*\)$/-\1 x\2/p' | tr '\n' ' '
}

series_dirs=${SGB_SERIES_DIRS:-"$top/common $(printf '%s ' "$vroot"/*/)"}
for dir in $series_dirs; do
	dir=${dir%/}
	series=$dir/series
	[ "$dir" = "$vroot/$(basename "$dir")" ] && series=$(variant_file "$(basename "$dir")" series)
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
		# Debian's python3 first: checkpatch runs scripts/spdxcheck.py with
		# the python3 on PATH, which needs python3-ply and python3-git
		out=$(cd "$cptree" && PATH=/usr/bin:$PATH perl "$cp" --strict --no-signoff --show-types "$dir/$p" 2>&1)
		sum=$(printf '%s\n' "$out" | sed -n 's/^total: \(.*\) lines checked$/\1/p' | tail -n 1)
		errs=$(printf '%s\n' "$sum" | sed -n 's/^\([0-9]*\) errors.*/\1/p')
		grep -q '^Signed-off-by:' "$dir/$p" || { errs=${errs:-0}; sum="no Signed-off-by; $sum"; errs=$((errs + 1)); }
		# a check that could not run (spdxcheck.py's traceback) is no pass
		if printf '%s\n' "$out" | grep -q '^Traceback'; then
			errs=$((${errs:-0} + 1))
			sum="a checker of checkpatch failed: $(printf '%s\n' "$out" | grep -m1 -E '^[A-Za-z]*Error' || echo Traceback); $sum"
		fi
		unlisted=$(accepted_diff "$p" "$out")
		if [ -n "$unlisted" ]; then
			errs=$((${errs:-0} + 1))
			sum="$sum; not as ${dir#"$top"/}/checkpatch.accepted lists: ${unlisted% }"
		elif [ -f "$dir/checkpatch.accepted" ] && printf '%s\n' "$sum" | grep -qv ' 0 warnings, 0 checks'; then
			sum="$sum (each accepted in ${dir#"$top"/}/checkpatch.accepted)"
		fi
		if [ "${errs:-1}" -eq 0 ]; then
			printf '%s\tpassed\t%s\n' "${dir#"$top"/}/$p" "$sum"
		else
			printf '%s\tfailed\t%s\n' "${dir#"$top"/}/$p" "${sum:-checkpatch did not run}"
			printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK|Traceback|[A-Za-z]*Error|#)' -A2 | head -n 30 | sed 's/^/    /' >&2
			bad=1
		fi
	done <"$series"
done
[ "${1:-}" = --prefixes ] || exit $bad

# --- every prefix of a candidate's series ---------------------------------
py=/usr/bin/python3
# VARIANT: the candidate whose series is checked (default the first)
v=${VARIANT:-$(candidate_variants | head -n 1)}
[ -n "$v" ] || die "no candidate variant to check (variants/*/variant: role candidate)"
[ "$(variant_get "$v" role)" = candidate ] || die "VARIANT=$v is the control: its series is the base plus tests; name a candidate"
control=$(control_variant)
out=$top/build/check-patches
src=$top/build/$v/src
git_dir=$top/build/git
boots=${PREFIX_BOOTS:-all}
case $boots in all | smoke | none) ;; *) die "PREFIX_BOOTS=$boots: choose all, smoke or none" ;; esac
mode=${MODE:-auto}
# the accelerator of the prefix boots, chosen here once (an empty mode
# once went on to fail every boot with "unknown mode ''")
if [ "$mode" = auto ]; then
	mode=$("$top/qemu/accel.sh") ||
		die "cannot choose QEMU's accelerator for the prefix boots (above): build a kernel first (make image) or set MODE=tcg"
fi
mkdir -p "$out"

# wanted NUMBER: is the prefix ending at patch NUMBER selected by PREFIXES?
wanted() {
	local n=$((10#$1)) sel
	[ -z "${PREFIXES:-}" ] && return 0
	for sel in $PREFIXES; do
		case $sel in
		*-*) [ "$n" -ge $((10#${sel%-*})) ] && [ "$n" -le $((10#${sel#*-})) ] && return 0 ;;
		*) [ "$n" -eq $((10#$sel)) ] && return 0 ;;
		esac
	done
	return 1
}

"$top/common/tree.sh" apply "$v" || die "the series does not apply (above)"
mapfile -t commits < <(git -C "$git_dir" rev-list --reverse base.."$v")
mapfile -t patches < <(series_files "$top/common/series"; series_files "$(variant_file "$v" series)")
[ ${#commits[@]} -eq ${#patches[@]} ] ||
	die "build/git has ${#commits[@]} commits for ${#patches[@]} patches: rerun common/tree.sh apply $v"
ncommon=$(series_files "$top/common/series" | wc -l)
baseline=$top/build/check-build/$control
if [ ! -s "$baseline/summary.txt" ]; then
	"$top/common/tree.sh" apply "$control"
	note "check-patches: the $control tree's compile-test set first (the baseline)"
	"$top/common/check-build.sh" compile "$top/build/$control/src" "$baseline" >/dev/null ||
		die "the $control tree's compile-test set did not build: see build/check-build/$control/build.log"
fi

# the KUnit suites a prefix tree defines, of those the variant must run
suites() {
	local s
	for s in $(variant_get "$v" kunit); do
		grep -rqs --include='*.c' "\.name = \"$s\"" "$src/lib" && echo "$s"
	done
}

# seg_limit: set seglim to --seg-limit=N for tests/check_guest.py when
# scsi_debug is an unconverted host of the prefix tree (the SCSI core has
# use_sg_ring and scsi_debug does not set it yet), so that it gets one
# array of at most SG_RING_CHUNK_SIZE entries a command and the smoke
# test's 1M and 4M writes are split at that limit, as the transition
# specifies.  Called in the script's shell, not in $(...), so that its die
# ends the run.
seg_limit() {
	local n
	seglim=
	grep -q 'use_sg_ring' "$src/include/scsi/scsi_host.h" || return 0
	grep -q 'use_sg_ring' "$src/drivers/scsi/scsi_debug.c" && return 0
	n=$(sed -n 's/^#define SG_RING_CHUNK_SIZE[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$src/include/linux/sg_ring.h")
	[ -n "$n" ] || die "prefix $num: scsi_host.h has use_sg_ring but include/linux/sg_ring.h defines no SG_RING_CHUNK_SIZE"
	seglim=--seg-limit=$n
}

# boot NAME PLAN [DISKS ARGS]: one boot of the prefix kernel; its results
# (name, status, why) appended to $rdir/results.tsv
boot() {
	local name=$1 plan=$2 disks=${3:-} args=${4:-} dir=$rdir/$1
	rm -rf "$dir"
	if ! nice -n 5 "$top/qemu/run.sh" -v "$v" -f prefix -p "$plan" -o "$dir" -m "$mode" -t 900 -d "$disks" -a "$args" \
		-w 'WARNING: CPU: [0-9]+ PID: [0-9]+ at [./a-z]*kernel/dma/direct.h:[0-9]+ (dma_direct_map_(page|sg)|dma_map_page_attrs)' \
		>"$dir.log" 2>&1; then
		printf '%s/boot\tfailed\t%s\n' "$name" "$([ -f "$dir/RESULT" ] && cat "$dir/RESULT" || tail -n 1 "$dir.log")" >>"$rdir/results.tsv"
	fi
	if [ "$plan" = "$top/tests/guest/smoke.sh" ]; then
		# shellcheck disable=SC2046
		PYTHONPATH="$top" "$py" -m tests.check_guest "$dir" "$name" ${seglim:+"$seglim"} $(suites) >>"$rdir/results.tsv"
	elif [ -f "$dir/share/out/results.tsv" ]; then
		sed "s|^|$name/|" "$dir/share/out/results.tsv" >>"$rdir/results.tsv"
	else
		printf '%s/results\tfailed\tno results.tsv: see %s\n' "$name" "${dir#"$top"/}" >>"$rdir/results.tsv"
	fi
}

table=$out/TABLE.md
{
	echo "| patch | project build | compile-test set (allmodconfig) | new warnings or errors | boots passed | s |"
	echo "|---|---|---|---|---|---|"
} >"$table"
head -n 2 "$table"
t_all=$(date +%s)
for ((i = ncommon; i < ${#commits[@]}; i++)); do
	p=$(basename "${patches[$i]}")
	num=${p%%-*}
	wanted "$num" || continue
	t0=$(date +%s)
	rdir=$out/$num
	rm -rf "$rdir"
	mkdir -p "$rdir"
	git -C "$src" checkout -q --detach "${commits[$i]}" || die "cannot check out prefix $num in build/$v/src"
	seg_limit
	fail=()
	# the project kernel
	if JOBS=${JOBS:-2} nice -n 5 "$top/common/build.sh" "$v" prefix >"$rdir/build.log" 2>&1; then
		pb=ok
	else
		pb=FAILED fail+=("project build (build/check-patches/$num/build.log)")
	fi
	# the compile-test set, against the control tree
	rm -f "$top/build/check-build/$v/diag.txt"
	"$top/common/check-build.sh" compile "$src" "$top/build/check-build/$v" >"$rdir/allmod.txt" 2>&1
	cp "$top/build/check-build/$v/diag.txt" "$rdir/allmod-diag.txt"
	nerr=1
	[ -f "$rdir/allmod-diag.txt" ] && nerr=$(grep -c '^error' "$rdir/allmod-diag.txt")
	set_sum=$(sed -n 's/^[^:]*: [0-9]* files in the set, \([0-9]*\) built.*, \([0-9]*\) errors.*/\1 built, \2 errors/p' "$rdir/allmod.txt")
	[ -n "$set_sum" ] || set_sum="did not run: $(tail -n 1 "$rdir/allmod.txt")"
	"$py" "$top/common/check-build.py" compare "$baseline/diag.txt" "$rdir/allmod-diag.txt" >"$rdir/new.txt"
	nnew=$(wc -l <"$rdir/new.txt")
	[ "$nerr" -eq 0 ] && [ -n "${set_sum##did not*}" ] || fail+=("compile-test set: $set_sum (build/check-patches/$num/allmod-diag.txt)")
	[ "$nnew" -eq 0 ] || fail+=("$nnew new warnings or errors (build/check-patches/$num/new.txt)")
	# the boots
	bt='-'
	if [ "$boots" != none ] && [ "$pb" = ok ]; then
		: >"$rdir/results.tsv"
		if "$top/common/image/build.sh" "$v" prefix >"$rdir/image.log" 2>&1; then
			boot smoke "$top/tests/guest/smoke.sh"
			if [ "$boots" = all ]; then
				for qd in $qdisk_boots; do
					IFS=: read -r name disks args <<<"$qd"
					boot "$name" "$top/tests/guest/qemu-disks.sh" "$disks" "$args $limits61_arg"
				done
			fi
		else
			printf 'image\tfailed\tsee build/check-patches/%s/image.log\n' "$num" >>"$rdir/results.tsv"
		fi
		np=$(cut -f2 "$rdir/results.tsv" | grep -c -x passed)
		nf=$(cut -f2 "$rdir/results.tsv" | grep -c -x failed)
		bt="$np of $((np + nf))"
		[ "$nf" -eq 0 ] && [ "$np" -gt 0 ] || fail+=("boots: $nf failed: $(grep -P '\tfailed\t' "$rdir/results.tsv" | head -n 3 | cut -f1 | tr '\n' ' ')")
	fi
	row="| $p | $pb | $set_sum | $nnew | $bt | $(($(date +%s) - t0)) |"
	echo "$row" | tee -a "$table"
	if [ ${#fail[@]} -gt 0 ]; then
		bad=1
		printf 'sgbench: prefix up to %s FAILED: %s\n' "$p" "${fail[*]}" >&2
	fi
done
git -C "$src" checkout -q --detach "${commits[-1]}" || die "cannot move build/$v/src back to the whole series"
echo "prefixes: $(($(date +%s) - t_all)) s (mode $mode, PREFIX_BOOTS=$boots, JOBS=${JOBS:-2})" | tee -a "$table"
exit $bad
