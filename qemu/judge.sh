#!/bin/bash
# judge.sh OUTDIR QEMU_EXIT TIMEOUT [ALLOWED] - decide whether a guest run
# passed and write OUTDIR/RESULT.  ALLOWED is an extended regex of kernel
# report lines the plan provokes on purpose (e.g. the WARN dma-direct gives
# when a test makes a mapping fail); any other report still fails.  A timeout, a QEMU crash, a panic, oops, BUG, WARN,
# KASAN/UBSAN report, lockdep splat, list corruption or a non-zero plan
# status is a failure; the cause names the log to read.
set -uo pipefail
out=$1 rc=$2 timeout_s=$3 allowed=${4:-}
log=$out/console.log
status_file=$out/share/out/status
fail() {
	echo "fail: $*" >"$out/RESULT"
	echo "sgbench: guest run failed: $* (logs in $out)" >&2
	exit 1
}
# the first line that marks a kernel problem, if any
bad=$(grep -a -n -E 'Kernel panic|Oops:|BUG:|WARNING:|KASAN:|UBSAN:|general protection fault|list_(add|del) corruption|possible circular locking|inconsistent lock state|unreferenced object|INFO: task .* blocked|rcu_sched self-detected stall|RCU Stall' "$log" 2>/dev/null |
	{ if [ -n "$allowed" ]; then grep -a -v -E "$allowed"; else cat; fi; } | head -n 1)
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	fail "timeout: the guest did not finish within ${timeout_s}s${bad:+, after: $bad} (see $log)"
fi
[ -n "$bad" ] && case $bad in
	*"Kernel panic"*) fail "panic: line $bad (see $log)" ;;
	*) fail "kernel report: line $bad (see $log)" ;;
	esac
[ "$rc" -eq 0 ] || fail "QEMU exited with status $rc (see $out/qemu.log and $log)"
[ -f "$status_file" ] || fail "the guest wrote no status: it died before its plan ended (see $log)"
st=$(cat "$status_file")
[ "$st" = 0 ] || fail "the plan exited with status $st (see $out/share/out/plan.log)"
echo pass >"$out/RESULT"
exit 0
