#!/bin/bash
# tree.sh - prepare the kernel source tree of one variant.
#
#   common/tree.sh base                 unpack /usr/src/linux-source-6.1.tar.xz
#                                       once into build/git (a git repository
#                                       whose first commit is the pristine base)
#   common/tree.sh apply <variant>      apply common/series then
#                                       variants/<variant>/series onto the base
#                                       and check the result out in
#                                       build/<variant>/src
#
# Two applies of one variant wait for each other (flock on
# build/<variant>/tree.lock).
#
# Incremental by construction: the patched tree is written as commits (one per
# patch) with a private index, and build/<variant>/src is then moved to the new
# commit with "git checkout", which rewrites only the files whose content
# differs.  After editing one patch, make rebuilds only what that patch
# changes.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=common/lib.sh
. "$top/common/lib.sh"

tarball=${SGB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
git_dir=${SGB_BUILD_GIT:-$top/build/git}

base() {
	if [ -f "$git_dir/.sgb-base-ok" ]; then
		return 0
	fi
	[ -f "$tarball" ] || die "$tarball is missing: install it with 'apt-get install linux-source-6.1'"
	local t0
	t0=$(date +%s)
	rm -rf "$git_dir"
	mkdir -p "$git_dir"
	note "unpacking $tarball into build/git (once)"
	tar -xJf "$tarball" -C "$git_dir" --strip-components=1 ||
		die "cannot unpack $tarball (disk full? see 'df -h $top/build')"
	(
		cd "$git_dir"
		git init -q -b base .
		git config user.name "sgbench"
		git config user.email "sgbench@localhost"
		git config gc.auto 0
		git add -A -f .
		git commit -q -m "linux-source-6.1 $(pkg_version)"
	) || die "cannot record the base tree in build/git"
	touch "$git_dir/.sgb-base-ok"
	phase_done "base tree" "$t0"
}

# apply_series <series-file>: apply each listed patch to the private index,
# committing after each one.  Prints nothing on success; dies naming the
# patch and the file it failed on.
apply_series() {
	local series=$1 f out
	for f in $(series_files "$series"); do
		[ -f "$f" ] || die "${series#"$top"/} lists $(basename "$f"), which does not exist"
		if ! out=$(git apply --cached --whitespace=nowarn "$f" 2>&1); then
			local file
			file=$(printf '%s\n' "$out" | sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p;s/^error: \([^:]*\): does not exist in index/\1/p' | head -n 1)
			die "patch ${f#"$top"/} does not apply to the base (failing file: ${file:-see below}); rebase it on $(base_desc)
$out"
		fi
		local tree subject
		tree=$(git write-tree)
		subject=$(sed -n 's/^Subject: //p' "$f" | head -n 1)
		commit=$(git commit-tree "$tree" -p "$commit" -m "${subject:-$(basename "$f")}")
	done
}

apply() {
	local variant=$1 src
	src=$top/build/$variant/src
	check_variant "$variant"
	[ -f "$git_dir/.sgb-base-ok" ] || die "no base tree: run 'common/tree.sh base' first"
	check_base_version
	cd "$git_dir"
	export GIT_INDEX_FILE=$top/build/$variant/index
	mkdir -p "$top/build/$variant"
	# one apply of a variant at a time: two kernels of one variant built
	# at once (make bench KERNEL=os beside common/build.sh sg_ring debug)
	# share its private index and its tree, and git refused the second
	# ("Unable to create .../index.lock: File exists")
	exec 9>"$top/build/$variant/tree.lock"
	flock 9
	git read-tree base
	commit=$(git rev-parse base)
	apply_series "$top/common/series"
	apply_series "$(variant_file "$variant" series)"
	unset GIT_INDEX_FILE
	git update-ref "refs/heads/$variant" "$commit"
	if [ ! -d "$src" ]; then
		git worktree prune
		git worktree add -q --detach "$src" "$commit"
	else
		(cd "$src" && git checkout -q --detach "$commit") ||
			die "cannot move build/$variant/src to the patched tree; remove build/$variant/src and retry"
	fi
	note "$variant: $(git rev-list --count base.."$commit") patches on $(base_desc)"
}

case "${1:-}" in
base) base ;;
apply) [ $# -eq 2 ] || die "usage: common/tree.sh apply <variant>"; apply "$2" ;;
*) die "usage: common/tree.sh base | apply <variant>" ;;
esac
