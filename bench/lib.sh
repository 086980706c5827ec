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

# shuffle SEED: the lines of stdin in an order shuffled by SEED: Fisher-Yates
# driven by the Park-Miller generator (x = 16807 x mod 2^31 - 1, exact in
# any awk's doubles), so every host, whatever its awk, gives the same order
# for the same seed and lines (awk's own rand() differs between mawk and
# gawk)
shuffle() {
	awk -v s="$1" '{ l[n++] = $0 }
	END {
		x = s % 2147483647
		if (x <= 0) x += 2147483646
		for (i = n - 1; i > 0; i--) {
			x = (x * 16807) % 2147483647
			j = x % (i + 1)
			t = l[i]; l[i] = l[j]; l[j] = t
		}
		for (i = 0; i < n; i++) print l[i]
	}'
}

# disk_of DEVICE: the job's disk of a device setting (bench/guest.sh)
disk_of() {
	case $1 in
	real) echo "scsi_debug dev_size_mb=1024 delay=0" ;;
	fake) echo "scsi_debug dev_size_mb=1024 delay=0 fake_rw=1" ;;
	*)
		# a bench class of the adapter table: its adapter's disk
		local hba
		hba=$(adapter_of_class bench "$1")
		[ -n "$hba" ] || die "unknown device '$1': use real, fake or a bench class of common/adapters.tsv ($(classes_of bench | tr '\n' ' '))"
		echo "qemu $hba"
		;;
	esac
}

# kernel_id DIR: what identifies a built kernel (build/DIR: a variant's, or
# flavour_dir's for another flavour), from its BUILD-INFO
kernel_id() {
	local f=$top/build/$1/BUILD-INFO
	[ -f "$f" ] || die "$f is missing: run 'make build'"
	awk '$1 == "series_sha256" || $1 == "config_sha256" { s = s sep $1 " " $2; sep = " " } END { print s }' "$f"
}

# job DEVICE VARIANT REPEAT: the job file of one boot, which the guest's
# bench script (bench/guest.sh, its format there) reads.  From bench/run.sh's
# settings: points, perfs, inflights, inflight_ns, ceils, mode, engine,
# ramp, runtime, floor, perf_delay, microbench.
#
# The points run in an order shuffled per repeat (the same for every kernel
# and device in that repeat): the cost of an I/O depends a little on what
# ran before it (the physical layout of fio's buffers, slab state), and a
# fixed order would turn that into a bias; shuffled, it shows as spread.
# Per point: fio json+ and the disk's block stat around it.  Outside the
# measured runs: perf at the PERF points (every repeat), and in the first
# repeat only (in icount mode their figures do not change between boots):
# the microbenchmark, the sg pool slab objects in use at the 4M points (an
# extra fio run polled from the shell, so the measured run is not
# disturbed) and, on the fake device, the sg pool objects in use with
# commands really in flight at the INFLIGHT points (scsi_debug's completion
# delayed by inflight_ns, so a queue depth of 32 holds 32 commands; traced:
# bench/guest.sh's inflight step) and the
# ceilings: the CEIL points on null_blk (no SCSI, no scatterlist) and the
# guest's memory copy bandwidth.
job() {
	local d=$1 v=$2 r=$3 p bs extra pp seed
	# fio's seed and the points' order: the repeat's, in another range
	# for each further boot set (boot_set, bench/run.sh SEED)
	seed=$((r + 1000 * (${boot_set:-1} - 1)))
	echo "# sgbench bench job, written by bench/run.sh, read by bench/guest.sh"
	echo "device $d"
	echo "variant $v"
	echo "repeat $r"
	echo "mode $mode"
	echo "kernel $(kernel_id "$(flavour_dir "$v" "${kernel_flavour:-}")")"
	echo "seed $seed"
	echo "engine $engine"
	echo "ramp $ramp"
	echo "disk $(disk_of "$d")"
	[ ${#perfs[@]} -eq 0 ] || echo "perf_delay_ms $perf_delay"
	[ "$microbench" = 1 ] && [ "$r" = 1 ] && echo microbench
	printf '%s\n' "${points[@]}" | shuffle "$seed" | while read -r p; do
		bs=${p#*-} bs=${bs%-qd*} extra=''
		[ "$bs" = 4M ] && [ "$r" = 1 ] && extra=' slab'
		for pp in "${perfs[@]}"; do
			[ "$pp" = "$d:$p" ] && extra="$extra perf"
		done
		echo "point $p $(window "$d" "$bs" "$runtime" "$floor")$extra"
	done
	[ "$d" = fake ] && [ "$r" = 1 ] || return 0
	for p in "${inflights[@]}"; do echo "inflight $p $(ms "$runtime") $inflight_ns"; done
	[ ${#ceils[@]} -gt 0 ] || return 0
	for p in "${ceils[@]}"; do echo "ceil $p $(ms "$runtime")"; done
	echo memcpy
}

# job_state BOOTDIR JOB: "kept" when the boot in BOOTDIR passed and ran
# JOB (its share/job is the same file, byte for byte: the same points,
# order, windows, seed, extras, kernel and mode), "stale" when it passed
# another job, else "none".
job_state() {
	local dir=$1
	[ -f "$dir/RESULT" ] && [ "$(cat "$dir/RESULT")" = pass ] || { echo none; return; }
	if [ -f "$dir/share/job" ] && cmp -s "$dir/share/job" "$2"; then
		echo kept
	else
		echo stale
	fi
}

# job_diff BOOTDIR JOB: the first line where the boot's job and JOB differ,
# for the message that says why a boot is run again
job_diff() {
	[ -f "$1/share/job" ] || { echo "it has no job file: a boot from before job files"; return 0; }
	local d
	d=$(diff "$1/share/job" "$2" || true)
	echo "was '$(echo "$d" | sed -n 's/^< //p' | head -n 1)', now '$(echo "$d" | sed -n 's/^> //p' | head -n 1)'"
}
