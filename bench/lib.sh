# bench/lib.sh - functions of bench/run.sh that tests call on their own
# (tests/host/test_bench_lib.py); sourced after common/lib.sh (die).

# ms DURATION: a fio duration (300ms, 1s) in milliseconds
ms() {
	case $1 in
	*ms) echo "${1%ms}" ;;
	*s) echo $((${1%s} * 1000)) ;;
	*) die "use a duration with a unit, e.g. 300ms or 1s, not '$1'" ;;
	esac
}

# bs_kib BS: a block size (4k, 1M) in KiB
bs_kib() {
	case $1 in
	*[kK]) echo "${1%?}" ;;
	*[mM]) echo $((${1%?} * 1024)) ;;
	*) die "bad block size '$1'" ;;
	esac
}

# window DEVICE BS RUNTIME FLOOR: the measured window of a point, in ms:
# RUNTIME, or longer where the point completes too few I/Os in it for its
# quantisation floor, 100/I/Os + 100/window_ms <= FLOOR (%).  With E ms
# per I/O that needs window >= 100 (E + 1) / FLOOR.  E is an upper
# estimate, the same for both kernels (so the design stays paired), from
# the guest time per I/O measured in results/ref-icount-2 (icount): 25 us
# plus, per MiB, 2.2 ms with the copy (real), 0.21 ms without (fake),
# 0.17 ms on the QEMU disks.  The report states each point's real floor
# from the I/Os it completed.
window() {
	local rate
	case $1 in real) rate=2200 ;; fake) rate=210 ;; *) rate=170 ;; esac
	awk -v rt="$(ms "$3")" -v bs="$(bs_kib "$2")" -v rate="$rate" -v fl="$4" 'BEGIN {
		e = (25 + bs / 1024 * rate) / 1000; w = 100 * (e + 1) / fl
		w = int(w) + (w > int(w)); print (w > rt ? w : rt) }'
}

# job_state BOOTDIR PLAN MODE: "kept" when the boot in BOOTDIR passed and
# ran this run's job (the same PLAN, so the same points, order, windows
# and seed, in the same MODE), "stale" when it passed another job, else
# "none".
job_state() {
	local dir=$1
	[ -f "$dir/RESULT" ] && [ "$(cat "$dir/RESULT")" = pass ] || { echo none; return; }
	if [ -f "$dir/share/plan.sh" ] && cmp -s "$dir/share/plan.sh" "$2" &&
		grep -qx "mode $3" "$dir/run.info"; then
		echo kept
	else
		echo stale
	fi
}
