#!/bin/bash
# compile-check.sh - run the semantic patch over the sg_ring tree and
# compile every file it changes, before and after, under x86_64
# allmodconfig (make -k): the rule's output must add no error and no
# warning.  Works in build/cocci/ (COCCI_WORK=dir for elsewhere): a copy
# of the sg_ring tree and its allmodconfig objects; needs `make build`
# first.  Prints one line per changed file and a summary; exits non-zero
# on a new diagnostic.
# About 15 minutes on 2 cores, most of it allmodconfig's `make prepare`.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/common/lib.sh"
here=$top/variants/sg_ring/cocci
work=${COCCI_WORK:-$top/build/cocci}
git -C "$top/build/git" rev-parse -q --verify sg_ring >/dev/null ||
	die "no sg_ring branch in build/git: run 'make build' first"
command -v spatch >/dev/null || die "spatch is missing: run common/deps.sh (package coccinelle)"
rev=$(git -C "$top/build/git" rev-parse sg_ring)
if [ "$(cat "$work/tree.rev" 2>/dev/null)" != "$rev" ]; then
	rm -rf "$work"
	mkdir -p "$work/tree" "$work/obj"
	git -C "$top/build/git" archive sg_ring | tar -x -C "$work/tree" ||
		die "could not copy the sg_ring tree into $work/tree"
	echo "$rev" >"$work/tree.rev"
else
	# undo a previous run's patch
	git -C "$top/build/git" archive sg_ring -- drivers | tar -x -C "$work/tree" ||
		die "could not restore $work/tree/drivers"
fi
cd "$work/tree" || exit 1
if [ ! -f "$work/obj/.prepared" ]; then
	note "cocci: allmodconfig and make prepare in $work/obj"
	make -s O=../obj allmodconfig >"$work/prepare.log" 2>&1 &&
		make -s O=../obj -j"${JOBS:-$(nproc)}" prepare >>"$work/prepare.log" 2>&1 ||
		die "allmodconfig or make prepare failed: see $work/prepare.log"
	touch "$work/obj/.prepared"
fi
/usr/bin/python3 -c "import sys; [print(' '.join(g.split())) for g in open(sys.argv[1]).read().split('\n\n') if g.split()]" \
	"$here/groups-6.1.txt" |
	while read -r files; do
		# shellcheck disable=SC2086  # one group: several paths
		spatch --very-quiet --sp-file "$here/scsi_host_use_sg_ring.cocci" -D patch $files ||
			die "spatch failed on: $files"
	done >"$work/cocci.diff" 2>"$work/spatch.err" || die "see $work/spatch.err"
mapfile -t files < <(sed -n 's/^--- //p' "$work/cocci.diff")
[ ${#files[@]} -gt 0 ] || die "the semantic patch changed nothing: see $work/cocci.diff"
objs=("${files[@]/%.c/.o}")
build() {	# build LOG: compile the changed files afresh
	(cd ../obj && rm -f "${objs[@]}")
	CCACHE_DISABLE=1 make -k O=../obj -j"${JOBS:-$(nproc)}" "${objs[@]}" >"$1" 2>&1
	return 0
}
# diagnostics of one file, without line and column numbers (the patch moves lines)
diags() {
	grep -E "^[^ ]*/$1:[0-9]+:[0-9]+: (error|warning|fatal error):" "$2" |
		sed -E 's/^[^:]*:[0-9]+:[0-9]+: //' | sort
}
build "$work/before.log"
declare -A built_before
for o in "${objs[@]}"; do [ -f "../obj/$o" ] && built_before[$o]=1; done
patch -p0 <"$work/cocci.diff" >"$work/patch.log" 2>&1 || die "the semantic patch's output does not apply: see $work/patch.log"
build "$work/after.log"
new=0 unbuilt=0
for f in "${files[@]}"; do
	o=${f%.c}.o
	if [ ! -f "../obj/$o" ] && [ -z "${built_before[$o]:-}" ]; then
		why=$(diags "$f" "$work/before.log" | head -n 1)
		printf '%s\tnot built for x86_64 allmodconfig, before or after: %s\n' "$f" "${why:-not in the config}"
		unbuilt=$((unbuilt + 1))
		continue
	fi
	added=$(comm -13 <(diags "$f" "$work/before.log") <(diags "$f" "$work/after.log"))
	if [ ! -f "../obj/$o" ]; then
		printf '%s\tBUILT BEFORE, NOT AFTER\n' "$f"
		printf '%s\n' "$added" | sed 's/^/    /'
		new=$((new + 1))
	elif [ -n "$added" ]; then
		printf '%s\tNEW DIAGNOSTICS\n' "$f"
		printf '%s\n' "$added" | sed 's/^/    /'
		new=$((new + 1))
	else
		printf '%s\tbuilt, no new diagnostic\n' "$f"
	fi
done
echo "cocci: ${#files[@]} files changed ($(grep -c '^+[^+]' "$work/cocci.diff") lines added, $(grep -c '^-[^-]' "$work/cocci.diff") removed), $unbuilt not built on x86_64, $new with new diagnostics"
[ $new -eq 0 ]
