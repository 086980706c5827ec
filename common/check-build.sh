#!/bin/bash
# check-build.sh - the compile test: every variant's tree builds,
# allmodconfig-style, every file that the series' accessor changes can
# reach, and no candidate adds an error or warning to the control's.
#
#   common/check-build.sh                  every variant (build/<v>/src, made
#                                          by common/tree.sh apply) side by
#                                          side, JOBS split between them,
#                                          each candidate compared with the
#                                          control
#   common/check-build.sh compile SRC OUT  one tree, into OUT (used by
#                                          common/check-patches.sh per prefix)
#
# The set: every object of drivers/scsi, drivers/ata, drivers/usb/storage and
# drivers/message/fusion, every other .c file of the tree that uses an
# accessor whose contract patch 0012 changes or that the series adds
# ($accessors below, found with git grep in the tree itself), and every .c
# file the tree's patches change (git diff from the base commit: e.g.
# drivers/iommu/dma-iommu.c, which the project kernel does not build and no
# accessor reaches).  The config:
# x86_64 allmodconfig with common/check-build.config merged in
# (KCONFIG_ALLCONFIG: no sanitizers, debug info or -Werror), in OUT/obj.
# Every object of the set is deleted and compiled again on each run, so that
# the log holds every warning; ccache (which replays a cached compile's
# warnings) makes the unchanged ones cheap.  A file of the set that gets no
# object is listed with the Makefile line and config options that leave it
# out (common/check-build.py reason).
#
# OUT gets: obj/, build.log, set.txt (the .c files), users.txt, changed.txt, built.txt,
# not-built.txt (file, reason), diag.txt (common/check-build.py diag) and
# summary.txt.  The comparison writes build/check-build/new-<candidate>.txt
# and build/check-build/SUMMARY.  Exit status: non-zero on any error in a
# candidate's tree, any diagnostic it has more often than the control's
# tree, any file the control's tree built and it did not, or any of the
# five files that the first sg_ring series' 0009 once broke not built.  JOBS (default 2) is make's -j.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
py=/usr/bin/python3
jobs=${JOBS:-2}
dirs=(drivers/usb/storage drivers/message/fusion drivers/ata drivers/scsi)
# The accessors whose contract 0012 changes (the scatterlist view an
# unconverted host keeps, struct scsi_data_buffer and scsi_eh_save, the
# copy helpers, the host template) and the ring accessors the series adds.
accessors='\<(scsi_sglist|scsi_sg_count|scsi_for_each_sg|scsi_dma_map|scsi_dma_unmap|scsi_prot_sglist|scsi_prot_sg_count|scsi_for_each_prot_sg|scsi_sg_copy_from_buffer|scsi_sg_copy_to_buffer|scsi_bufflen|scsi_data_buffer|prot_sdb|scsi_eh_prep_cmnd|scsi_eh_restore_cmnd|scsi_eh_save|use_sg_ring|scsi_sgring|scsi_sgring_count|scsi_prot_sgring|scsi_prot_sgring_count|scsi_dma_map_ring|scsi_dma_unmap_ring)\>|\<sdb(\.|->)table\>'
# the files 0009 of the first sg_ring series stopped from building (issue 13)
once_broken=(drivers/scsi/cxgbi/libcxgbi.c drivers/scsi/iscsi_tcp.c drivers/scsi/libiscsi_tcp.c
	drivers/usb/storage/isd200.c drivers/usb/storage/uas.c)

# compile SRC OUT: build the set of tree SRC in OUT/obj; prints one summary line
compile() {
	local src=$1 out=$2 obj cc=gcc t0 rc=0
	t0=$(date +%s)
	[ -d "$src/.git" ] || [ -f "$src/.git" ] || die "$src is not a kernel tree made by common/tree.sh (no .git)"
	# absolute paths: make -C runs in SRC, where a relative O= would
	# name a directory inside the tree
	src=$(cd "$src" && pwd) && mkdir -p "$out/obj" && out=$(cd "$out" && pwd) ||
		die "cannot make the output directory $out"
	obj=$out/obj
	export CCACHE_BASEDIR=$top/build
	command -v ccache >/dev/null && cc="ccache gcc"
	local mkargs=(-C "$src" O="$obj" CC="$cc" HOSTCC="$cc" -j"$jobs")
	# allmodconfig every time (seconds): a prefix may add Kconfig symbols,
	# and kconfig rewrites only the options that changed, so make still
	# rebuilds only what depends on them
	KCONFIG_ALLCONFIG=$top/common/check-build.config make -s "${mkargs[@]}" allmodconfig >"$out/config.log" 2>&1 ||
		die "make allmodconfig failed in $src: see ${out#"$top"/}/config.log"
	"$top/common/check-config.py" "$obj/.config" "$top/common/check-build.config" ||
		die "allmodconfig did not take common/check-build.config (above): fix the fragment"

	git -C "$src" ls-files -- "${dirs[@]/%//*.c}" >"$out/set.txt"
	git -C "$src" grep -l -E "$accessors" -- '*.c' >"$out/users.txt" ||
		die "git grep found no user of the accessors in $src: is it a kernel tree?"
	local base
	base=$(git -C "$src" rev-list --max-parents=0 HEAD) ||
		die "no base commit in $src: make it with common/tree.sh apply"
	git -C "$src" diff --name-only --diff-filter=AM "$base" HEAD -- '*.c' >"$out/changed.txt" ||
		die "git diff of $src against its base commit failed (above)"
	# the users and changed files elsewhere: those the config builds are
	# goals (kbuild compiles a single-object goal even when its config is off)
	local users=() extra=()
	mapfile -t users < <(sort -u "$out/users.txt" "$out/changed.txt" |
		grep -v -E "^($(IFS='|'; echo "${dirs[*]}"))/")
	printf '%s\n' "${users[@]}" >>"$out/set.txt"
	[ ${#users[@]} -eq 0 ] ||
		mapfile -t extra < <("$py" "$top/common/check-build.py" configured "$src" "$obj/.config" "${users[@]}")
	sort -u -o "$out/set.txt" "$out/set.txt"

	# compile every object of the set again (ccache replays the warnings)
	sed "s|^|$obj/|;s|\\.c\$|.o|" "$out/set.txt" | xargs rm -f
	# the small groups first: a run cut short has compiled whole groups
	local goals=("${extra[@]/%.c/.o}" drivers/usb/storage/ drivers/message/fusion/ drivers/ata/ drivers/scsi/)
	nice -n 5 make -k "${mkargs[@]}" "${goals[@]}" >"$out/build.log" 2>&1 || rc=$?

	: >"$out/built.txt"
	local f missing=()
	while read -r f; do
		if [ -f "$obj/${f%.c}.o" ]; then echo "$f" >>"$out/built.txt"; else missing+=("$f"); fi
	done <"$out/set.txt"
	"$py" "$top/common/check-build.py" diag "$out/build.log" >"$out/diag.txt"
	: >"$out/not-built.txt"
	if [ ${#missing[@]} -gt 0 ]; then
		"$py" "$top/common/check-build.py" reason "$src" "$obj/.config" "${missing[@]}" >"$out/not-built.txt"
	fi
	local nerr nwarn
	nerr=$(grep -c '^error' "$out/diag.txt" || true)
	nwarn=$(grep -c '^warning' "$out/diag.txt" || true)
	# make's own failures with no compiler message (e.g. a missing tool)
	if [ "$rc" -ne 0 ] && [ "$nerr" -eq 0 ]; then
		grep -v -E "No rule to make target '[^']*\\.o'" "$out/build.log" | grep -q -E '\*\*\*|Error [0-9]' &&
			nerr=1 && echo "error	(make)	make failed without a compiler error: see build.log" >>"$out/diag.txt"
	fi
	printf '%s: %d files in the set, %d built, %d without an object on x86_64 allmodconfig, %d warnings, %d errors (%d s)\n' \
		"${out#"$top"/}" "$(wc -l <"$out/set.txt")" "$(wc -l <"$out/built.txt")" "${#missing[@]}" \
		"$nwarn" "$nerr" $(($(date +%s) - t0)) | tee "$out/summary.txt"
}

# the files of the set that use the accessors and got no object, with why
print_not_built() {
	local out=$1
	grep -F -x -f "$out/users.txt" <(cut -f1 "$out/not-built.txt") | while read -r f; do
		printf '  not built: %s\n' "$(grep -F "$f	" "$out/not-built.txt" | head -n 1 | sed 's/\t/: /')"
	done
}

both() {
	local d=$top/build/check-build v t0 bad=0 control pid
	local -a all cands
	t0=$(date +%s)
	mkdir -p "$d"
	control=$(control_variant)
	mapfile -t cands < <(candidate_variants)
	all=("$control" "${cands[@]}")
	# the trees side by side, each with its share of the jobs, so that they
	# progress alike (and ccache's misses of one do not wait for the other)
	local pids=() share=$(((jobs + ${#all[@]} - 1) / ${#all[@]}))
	for v in "${all[@]}"; do
		"$top/common/tree.sh" apply "$v"
	done
	for v in "${all[@]}"; do
		note "check-build: $v: allmodconfig compile of the set in build/check-build/$v/obj (make -j$share)"
		jobs=$share compile "$top/build/$v/src" "$d/$v" >/dev/null &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || die "the compile of the set stopped (above)"
	done
	{
		echo "check-build: x86_64 allmodconfig + common/check-build.config, gcc $(gcc -dumpfullversion), $(base_desc)"
		for v in "${all[@]}"; do cat "$d/$v/summary.txt"; done
		for v in "${cands[@]}"; do
			echo "$v: accessor users outside the four directories: $(grep -c -v -E "^($(IFS='|'; echo "${dirs[*]}"))/" "$d/$v/users.txt")"
			print_not_built "$d/$v"
			if "$py" "$top/common/check-build.py" compare "$d/$control/diag.txt" "$d/$v/diag.txt" >"$d/new-$v.txt"; then
				echo "new in $v: none (warnings and errors compared by file and message)"
			else
				echo "new in $v: $(wc -l <"$d/new-$v.txt") (FAILED):"
				sed 's/^/  /' "$d/new-$v.txt"
				bad=1
			fi
			if grep -q '^error' "$d/$v/diag.txt"; then
				echo "errors in $v (FAILED):"
				grep '^error' "$d/$v/diag.txt" | sort | uniq -c | sed 's/^/  /'
				bad=1
			fi
			local lost
			lost=$(comm -23 <(sort "$d/$control/built.txt") <(sort "$d/$v/built.txt"))
			if [ -n "$lost" ]; then
				echo "built in $control, not in $v (FAILED):"
				sed 's/^/  /' <<<"$lost"
				bad=1
			fi
			local f
			for f in "${once_broken[@]}"; do
				if grep -q -x -F "$f" "$d/$v/built.txt"; then
					echo "once broken (issue 13, the first sg_ring series' 0009), builds on $v: $f"
				else
					echo "once broken (issue 13, the first sg_ring series' 0009), NOT built on $v (FAILED): $f"
					bad=1
				fi
			done
		done
		echo "check-build: $( [ $bad -eq 0 ] && echo passed || echo FAILED) in $(($(date +%s) - t0)) s"
	} >"$d/SUMMARY"
	cat "$d/SUMMARY"
	tail -n 1 "$d/SUMMARY" | grep -q ': passed in '
}

case "${1:-}" in
'') both ;;
compile) [ $# -eq 3 ] || die "usage: common/check-build.sh compile SRC OUT"; compile "$2" "$3" ;;
*) die "usage: common/check-build.sh [compile SRC OUT]" ;;
esac
