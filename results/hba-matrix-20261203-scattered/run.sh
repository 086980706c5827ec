#!/bin/bash
# The host-adapter matrix of make test (tests/run.sh's block "QEMU's other
# storage host adapters", hba_boots in common/lib.sh) on both kernels, its
# results copied here.  Needs make image.
# Usage: run.sh [MODE [VARIANT...]] (default: tcg, sg_table and sg_ring)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/common/lib.sh"
mode=${1:-tcg}
shift || true
[ $# -gt 0 ] || set -- sg_table sg_ring
out=$top/build/hba-out
mkdir -p "$out"
for v in "$@"; do
	while IFS='|' read -r name disks hbas cds; do
		t0=$(date +%s)
		rc=0
		"$top/qemu/run.sh" -v $v -p "$top/tests/guest/qemu-hba.sh" -o "$out/$v-$name" -m "$mode" -t 900 \
			-d "$disks" -a "$hba_args sgb.hbas=$hbas sgb.cds=$cds" >"$out/$v-$name.log" 2>&1 || rc=$?
		echo "$v $name rc=$rc $(($(date +%s) - t0)) s $(cat "$out/$v-$name/RESULT")"
		mkdir -p "$here/$v-$name"
		cp "$out/$v-$name/RESULT" "$out/$v-$name/run.info" "$here/$v-$name/"
		cp "$out/$v-$name/share/out/results.tsv" "$out/$v-$name/share/out/dmesg.txt" "$here/$v-$name/" ||
			echo "$v $name: the guest left no results.tsv or dmesg.txt (see $out/$v-$name/console.log)"
	done <<<"$hba_boots"
done
