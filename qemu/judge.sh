#!/bin/bash
# judge.sh OUTDIR QEMU_EXIT TIMEOUT [ALLOWED] - decide whether a guest run
# passed and write OUTDIR/RESULT.  ALLOWED is an extended regex of kernel
# report lines the plan provokes on purpose (e.g. the WARN dma-direct gives
# when a test makes a mapping fail); any other report still fails.  A timeout, a QEMU crash, a panic, oops, BUG, WARN,
# KASAN/UBSAN report, lockdep splat, list corruption or a non-zero plan
# status is a failure; so is any DMA-API debug report (below).  The cause
# names the log to read.
set -uo pipefail
out=$1 rc=$2 timeout_s=$3 allowed=${4:-}
log=$out/console.log
status_file=$out/share/out/status
# RESULT is written atomically (temporary file, then rename); when even
# that fails (the output filesystem is full), stderr says so and the exit
# status is still non-zero, so no run without a RESULT is taken as passed.
verdict() {
	if ! { echo "$1" >"$out/RESULT.tmp" && mv "$out/RESULT.tmp" "$out/RESULT"; } 2>/dev/null; then
		rm -f "$out/RESULT.tmp" 2>/dev/null
		echo "sgbench: cannot write $out/RESULT ($(df -h --output=avail "$out" 2>/dev/null | tail -n 1 | tr -d ' ') free): the output filesystem is full or read-only" >&2
		return 1
	fi
}
full_disk() { # a note when the output filesystem has no room left
	local avail
	avail=$(df --output=avail -k "$out" 2>/dev/null | tail -n 1 | tr -d ' ')
	[ -n "$avail" ] && [ "$avail" -lt 64 ] && echo ", and the output filesystem is full (${avail} KiB free: df $out)"
}
fail() {
	local why="$*$(full_disk)"
	verdict "fail: $why"
	echo "sgbench: guest run failed: $why (logs in $out)" >&2
	exit 1
}
# the first line that marks a kernel problem, if any
bad=$(grep -a -n -E 'Kernel panic|Oops:|BUG:|WARNING:|KASAN:|UBSAN:|general protection fault|list_(add|del) corruption|possible circular locking|inconsistent lock state|unreferenced object|INFO: task .* blocked|rcu_sched self-detected stall|RCU Stall' "$log" 2>/dev/null |
	{ if [ -n "$allowed" ]; then grep -a -v -E "$allowed"; else cat; fi; } | head -n 1)
# timeout(1) exits 124 when the time ran out (137 when it then had to KILL);
# a QEMU killed from outside before its time also ends in 128+signal
wall=$(awk '$1=="wall_seconds"{print int($2)}' "$out/run.info" 2>/dev/null)
if [ "$rc" -gt 128 ] && [ "$rc" -ne 137 -o "${wall:-0}" -lt "$timeout_s" ]; then
	fail "QEMU was killed by signal $((rc - 128)) after ${wall:-?}s, before the ${timeout_s}s timeout: the run is incomplete (see $log)"
fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	fail "timeout: the guest did not finish within ${timeout_s}s${bad:+, after: $bad} (see $log)"
fi
# DMA-API debugging (debug kernels, kernel/dma/debug.c): any line it prints
# other than its boot notes is a report (an error names the driver and the
# device: "DMA-API: vmw_pvscsi 0000:00:04.0: device driver frees DMA memory
# with wrong function ..."; or it disabled itself).  It prints only its
# first error unless all_errors is set, so the guest's init also leaves
# debugfs's error_count and disabled flag in share/out/dma-api.txt.
dma_notes='DMA-API: (preallocated [0-9]+ debug entries|debugging enabled by kernel config|dma_debug_entry pool grown to [0-9]+)'
dma=$(grep -a -n 'DMA-API: ' "$log" | grep -a -v -E "$dma_notes" |
	{ if [ -n "$allowed" ]; then grep -a -v -E "$allowed"; else cat; fi; } | head -n 1)
[ -n "$dma" ] && fail "DMA-API debug report: line $dma (see $log)"
[ -n "$bad" ] && case $bad in
	*"Kernel panic"*) fail "panic: line $bad (see $log)" ;;
	*) fail "kernel report: line $bad (see $log)" ;;
	esac
dmaf=$out/share/out/dma-api.txt
if [ -f "$dmaf" ]; then
	n=$(awk '$1 == "error_count" {print $2}' "$dmaf")
	[ "${n:-x}" = 0 ] || fail "DMA-API debug counted ${n:-no} errors (error_count in $dmaf; the first is in $log)"
	grep -q '^disabled N' "$dmaf" || fail "DMA-API debugging was off ($(grep '^disabled' "$dmaf" || echo 'no disabled flag') in $dmaf): nothing was checked"
fi
# kmemleak: a plan that scanned leaves the report in share/out/kmemleak.txt
kml=$out/share/out/kmemleak.txt
if [ -s "$kml" ] && grep -q 'unreferenced object' "$kml"; then
	fail "kmemleak: $(grep -c 'unreferenced object' "$kml") unreferenced objects, first: $(grep -m 1 'unreferenced object' "$kml") (see $kml)"
fi
[ "$rc" -eq 0 ] || fail "QEMU exited with status $rc (see $out/qemu.log and $log)"
[ -f "$status_file" ] || fail "the guest wrote no status: it died before its plan ended (see $log)"
st=$(cat "$status_file")
[ "$st" = 0 ] || fail "the plan exited with status $st (see $out/share/out/plan.log)"
verdict pass || exit 1
exit 0
