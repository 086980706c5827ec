#!/bin/bash
# killed-and-full.sh RUNS-DIR [qemu/run.sh ARGS...] - two checks of the rig,
# printed as name<TAB>passed|failed<TAB>why for tests/run.sh:
#   rig/qemu-killed-mid-run-is-a-failure: QEMU is killed (SIGKILL, by the PID
#     qemu/run.sh started) while the guest runs; the verdict must be a
#     failure that says QEMU was killed, not a pass and not a timeout.
#   rig/output-disk-full-is-a-failure: the run's output directory is on a
#     4 MiB tmpfs (mounted here, removed afterwards) that the plan fills; the
#     run must fail, name the full filesystem, and leave no RESULT "pass".
# ARGS select the kernel (e.g. -v sg_table, or -v sg_ring -f debug).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
runs=$1
shift
mkdir -p "$runs"
say() { printf '%s\t%s\t%s\n' "$@"; }

# --- QEMU killed mid-run ---
dir=$runs/rig-qemu-killed
"$top/qemu/run.sh" "$@" -p "$top/tests/rig/hang.sh" -o "$dir" -m tcg -t 300 2>"$runs/rig-qemu-killed.err" &
runner=$!
qpid=
for _ in $(seq 1 100); do
	# run.sh -> timeout -> qemu: the QEMU this run started, by parentage
	for t in $(pgrep -P "$runner" -x timeout); do
		qpid=$(pgrep -P "$t" | head -n 1)
	done
	[ -n "$qpid" ] && grep -q 'Run /init\|sgbench' "$dir/console.log" 2>/dev/null && break
	sleep 0.5
done
name=rig/qemu-killed-mid-run-is-a-failure
if [ -z "$qpid" ]; then
	kill "$runner" 2>/dev/null
	say "$name" failed "could not find the QEMU process qemu/run.sh started"
else
	sleep 2
	kill -KILL "$qpid"
	if wait "$runner"; then
		say "$name" failed "qemu/run.sh exited 0 after QEMU was killed"
	elif grep -q '^fail: QEMU was killed by signal 9' "$dir/RESULT"; then
		say "$name" passed "$(cut -c1-60 "$dir/RESULT")"
	else
		say "$name" failed "wrong verdict: $(cat "$dir/RESULT" 2>/dev/null || echo none)"
	fi
fi

# --- the output filesystem fills up ---
name=rig/output-disk-full-is-a-failure
mnt=$runs/rig-full-mnt
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=4m sgb-rig-full "$mnt" 2>"$runs/rig-full.err"; then
	say "$name" skipped "cannot mount a small tmpfs (needs root): $(head -n 1 "$runs/rig-full.err")"
else
	plan=$runs/fill.sh
	cat >"$plan" <<'PLAN'
# fill the host's output filesystem, ignore the error, and "succeed"
dd if=/dev/zero of="$SGB_OUT/fill" bs=64k 2>/dev/null
echo done >"$SGB_OUT/after-fill"
exit 0
PLAN
	"$top/qemu/run.sh" "$@" -p "$plan" -o "$mnt/run" -m tcg -t 120 2>"$runs/rig-full.err"
	rc=$?
	res=$(cat "$mnt/run/RESULT" 2>/dev/null || echo none)
	if [ $rc -eq 0 ] || [ "$res" = pass ]; then
		say "$name" failed "the run passed with a full output disk (exit $rc, RESULT $res)"
	elif grep -q 'output filesystem is full' "$runs/rig-full.err"; then
		say "$name" passed "$(grep -m 1 -o 'output filesystem is full.*' "$runs/rig-full.err" | cut -c1-60)"
	else
		say "$name" failed "exit $rc but the cause does not name the full disk: $(tail -n 1 "$runs/rig-full.err")"
	fi
	umount "$mnt" && rmdir "$mnt"
fi
