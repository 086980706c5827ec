#!/bin/sh
# bench/guest.sh - the bench's guest script: runs one boot's job.  It is in
# the guest image as /usr/lib/sgbench/bench.sh (common/image/build.sh), and
# the guest's init runs it when the host handed in a job file
# ($SGB_SHARE/job: qemu/run.sh -j) instead of a plan.  busybox sh.
#
# The job file is written by bench/run.sh (job()), one "KEY VALUE..." line
# each; this script is its only reader.  Settings (any order, once each):
#   device NAME, variant NAME, repeat N, mode M, kernel ...   what the boot
#                         is (the host compares job files to resume; this
#                         script does not use them)
#   seed N                fio's random seed
#   engine E              fio's ioengine
#   ramp D                fio's ramp_time (a fio duration, e.g. 100ms)
#   disk scsi_debug ARGS  modprobe scsi_debug ARGS and use its disk
#   disk qemu HBA         the QEMU disk on HBA (qemu/run.sh -d HBA=null)
#   perf_delay_ms N       perf record -D: sampling starts N ms after fio
#   microbench            run the sg_api_bench module first
# Actions, run in the order they appear:
#   point NAME WINDOW_MS [slab] [perf]
#                         NAME is <rw>-<bs>-qd<depth>; fio json+ to
#                         NAME.json with the disk's block stat before and
#                         after (NAME.blockstat0, NAME.blockstat); then, with
#                         slab, an extra run polled for /proc/slabinfo
#                         (NAME.slabinfo); with perf, an extra run under
#                         perf record (NAME.perf.data, NAME.perf.txt)
#   inflight NAME WINDOW_MS NDELAY_NS
#                         memory with commands really in flight (scsi_debug
#                         disks): scsi_debug's completion delay set to
#                         NDELAY_NS, so that a queue depth of 32 holds 32
#                         commands, and an unmeasured fio run of NAME
#                         traced (inflight_trace: the sg pool objects
#                         allocated and freed and the SCSI commands
#                         dispatched and done, in the tracefs copy
#                         NAME.inflight/); then delay=0 again
#   ceil NAME WINDOW_MS   the same fio run on null_blk (ceil-null-NAME.json)
#   memcpy                perf bench mem memcpy (ceil-memcpy.txt) and the
#                         CPU flags (ceil-cpuflags.txt)
# Anything else in the job is an error: the boot fails saying which line.
#
# Results: the files above in $SGB_OUT, and $SGB_OUT/results.ktap, KTAP
# version 1 with one test per step, in job order: "disk", "microbench",
# each point's NAME, NAME.slab and NAME.perf for its extras,
# "inflight.NAME", "ceil.NAME", "memcpy".  A failed step is "not ok" after
# a diagnostic line naming what failed; the remaining steps still run (a
# failed disk ends the boot), and the script exits 1 if any step failed.  The host reads it with the
# kernel tree's kunit_parser.py (bench/model.py).
. "$SGB_LIB"
job=$SGB_SHARE/job
[ -f "$job" ] || { echo "bench: no job file $job (qemu/run.sh -j)" >&2; exit 1; }

seed='' engine='' ramp='' disk_kind='' disk_args='' perf_delay=0 microbench=0 nsteps=1
while read -r key a b rest <&3; do
	case $key in
	'' | '#'*) ;;
	device | variant | repeat | mode | kernel) ;;
	seed) seed=$a ;;
	engine) engine=$a ;;
	ramp) ramp=$a ;;
	disk) disk_kind=$a disk_args="$b${rest:+ $rest}" ;;
	perf_delay_ms) perf_delay=$a ;;
	microbench) microbench=1 nsteps=$((nsteps + 1)) ;;
	point)
		nsteps=$((nsteps + 1))
		for x in $rest; do
			case $x in
			slab | perf) nsteps=$((nsteps + 1)) ;;
			*) echo "bench: unknown extra '$x' of point $a in the job: slab or perf" >&2; exit 1 ;;
			esac
		done
		;;
	ceil | memcpy | inflight) nsteps=$((nsteps + 1)) ;;
	*) echo "bench: unknown line in the job: '$key $a $b${rest:+ $rest}'" >&2; exit 1 ;;
	esac
done 3<"$job"
for v in seed engine ramp disk_kind; do
	eval "[ -n \"\$$v\" ]" || { echo "bench: the job sets no ${v%_kind} ($job)" >&2; exit 1; }
done
case $disk_kind in
scsi_debug | qemu) ;;
*) echo "bench: unknown disk '$disk_kind' in the job: scsi_debug or qemu" >&2; exit 1 ;;
esac

ktap=$SGB_OUT/results.ktap
printf 'KTAP version 1\n1..%d\n' $nsteps >"$ktap"
n=0 failed=0
# step NAME CMD...: run CMD as the next test of the KTAP, NAME
step() {
	local test=$1 st
	shift
	n=$((n + 1))
	"$@"
	st=$?
	if [ $st = 0 ]; then
		echo "ok $n $test" >>"$ktap"
	else
		echo "# $test: $1 failed with status $st (see plan.log)" >>"$ktap"
		echo "not ok $n $test" >>"$ktap"
		failed=$((failed + 1))
	fi
	return $st
}

load_disk() {
	case $disk_kind in
	scsi_debug) disk=$(sd_load $disk_args) ;;
	qemu) disk=$(qdisk $disk_args) ;;
	esac
}
step disk load_disk || exit 1
cp /proc/kallsyms "$SGB_OUT/kallsyms" || exit 1

run_microbench() {
	modprobe sg_api_bench &&
		cp /sys/kernel/debug/sg_api_bench/results.json "$SGB_OUT/microbench.json" &&
		rmmod sg_api_bench
}

# fio_args NAME DEV WINDOW_MS: fio's arguments for point NAME on /dev/DEV
fio_args() {
	rw=${1%%-*} bs=${1#*-} bs=${bs%-qd*} qd=${1##*-qd}
	echo "--filename=/dev/$2 --direct=1 --ioengine=$engine --rw=$rw --bs=$bs --iodepth=$qd" \
		"--time_based --runtime=${3}ms --ramp_time=$ramp --randseed=$seed"
}

run_point() {
	block_stat "$disk" >"$SGB_OUT/$name.blockstat0" &&
		fio $args --output="$SGB_OUT/$name.json" &&
		block_stat "$disk" >"$SGB_OUT/$name.blockstat"
}

run_perf() {
	# perf.data goes to tmpfs first: writing it to the 9p share while
	# recording would put 9p in the profile
	perf record -q -a -g -e cpu-clock -F 4999 -D "$perf_delay" -o "/tmp/$name.perf.data" \
		-- fio $args --output=/dev/null >"$SGB_OUT/$name.perf.log" 2>&1 &&
		perf report -q -i "/tmp/$name.perf.data" --stdio --no-children --sort sym \
			-F overhead,sym -g none --percent-limit 0.3 -t '|' >"$SGB_OUT/$name.perf.txt" &&
		mv "/tmp/$name.perf.data" "$SGB_OUT/$name.perf.data"
}

run_inflight() {
	local sd=${SGB_SCSI_DEBUG_SYSFS:-/sys/bus/pseudo/drivers/scsi_debug} st=0
	[ "$disk_kind" = scsi_debug ] || { echo "bench: inflight needs a scsi_debug disk" >&2; return 1; }
	echo "$ndelay" >$sd/ndelay || return 1
	inflight_trace "$SGB_OUT/$name.inflight" \
		fio --name="inflight-$name" $(fio_args "$name" "$disk" "$win") --output=/dev/null || st=1
	# back to delay=0 (writing ndelay=0 would set a delay of one jiffy)
	echo 0 >$sd/delay || st=1
	return $st
}

run_ceil() {
	{ [ -n "$nb" ] || nb=$(nullb_load); } &&
		fio --name="null-$name" $(fio_args "$name" "$nb" "$win") --output-format=json \
			--output="$SGB_OUT/ceil-null-$name.json"
}

run_memcpy() {
	perf bench mem memcpy -s 1MB -l 20 -f all >"$SGB_OUT/ceil-memcpy.txt" 2>&1 &&
		grep -m 1 "^flags" /proc/cpuinfo >"$SGB_OUT/ceil-cpuflags.txt"
}

[ $microbench = 0 ] || step microbench run_microbench
nb=''
while read -r key name win extras <&3; do
	case $key in
	point)
		args="--name=$name $(fio_args "$name" "$disk" "$win") --lat_percentiles=1 --output-format=json+"
		step "$name" run_point
		for x in $extras; do
			case $x in
			slab) step "$name.slab" slab_peak "$SGB_OUT/$name.slabinfo" fio $args --output=/dev/null ;;
			perf) step "$name.perf" run_perf ;;
			esac
		done
		;;
	inflight)
		ndelay=$extras
		step "inflight.$name" run_inflight
		;;
	ceil) step "ceil.$name" run_ceil ;;
	memcpy) step memcpy run_memcpy ;;
	esac
done 3<"$job"
[ $failed = 0 ] || { echo "bench: $failed of $nsteps steps failed: see $ktap" >&2; exit 1; }
