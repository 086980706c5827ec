#!/bin/sh
# Reliability suite (guest plan, busybox sh), run on a debug kernel
# (KASAN, kmemleak, lockdep, DEBUG_SG/LIST, fault injection) by
# tests/reliability/run.sh.  The level comes from the kernel command line:
# sgb.rel=fast (make test) or sgb.rel=full (make reliability).
#
# Writes, in $SGB_OUT:
#   results.tsv   name<TAB>passed|failed<TAB>why, one line per check
#   figures.tsv   scenario<TAB>key<TAB>value (injected, handled, slab_before,
#                 slab_after, ...), rendered by tests/reliability/report.py
#   int-*.json    fio JSON of every data-integrity run (GiB written/verified)
#   kmemleak.txt  what kmemleak reports after the suite (judged on the host)
#   complete      written last: without it the run is not complete
. "$SGB_LIB"
level=fast
grep -q 'sgb.rel=full' /proc/cmdline && level=full
res=$SGB_OUT/results.tsv fig=$SGB_OUT/figures.tsv
: >"$res"
: >"$fig"
check() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$res"; }
figure() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$fig"; }
ok_if() { # ok_if NAME WHY-IF-FAILED CONDITION...: passed when CONDITION holds
	local n=$1 why=$2
	shift 2
	if "$@"; then check "$n" passed ""; else check "$n" failed "$why"; fi
}
log() { echo "== $(cut -d' ' -f1 /proc/uptime)s $*"; }

# sg pool objects in use, exact: shrinking a cache empties KASAN's
# quarantine of it and flushes the per-CPU slabs (kmem_cache_shrink)
slab() {
	local c
	for c in /sys/kernel/slab/sgpool-* /sys/kernel/slab/sgring-*; do
		[ -e "$c/shrink" ] && echo 1 >"$c/shrink"
	done
	awk '/^sg(pool|ring)-/ {n += $2} END {print n + 0}' /proc/slabinfo
}
# commands in flight: every scsi_debug disk's inflight plus host_busy
inflight() {
	local n=0 d a b h
	for d in $disks; do
		read -r a b <"/sys/block/$d/inflight"
		n=$((n + a + b))
	done
	for h in /sys/class/scsi_host/host*/host_busy; do
		[ -e "$h" ] && n=$((n + $(cat "$h")))
	done
	echo $n
}
# load scsi_debug with ARGS; wait for all its disks; $disks lists them
load() {
	disks=
	modprobe scsi_debug "$@" || return 1
	local want=1 a i=0 d n
	for a in "$@"; do
		case $a in add_host=*) want=$((want * ${a#*=})) ;; max_luns=*) want=$((want * ${a#*=})) ;; esac
	done
	while [ $i -lt 200 ]; do
		n=0
		for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
			[ -e "$d" ] && [ -b /dev/$(basename "$d") ] && n=$((n + 1))
		done
		[ $n -ge $want ] && break
		i=$((i + 1))
		sleep 0.1
	done
	for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
		[ -e "$d" ] || continue
		d=$(basename "$d")
		echo 4096 >/sys/block/$d/queue/max_sectors_kb
		disks="$disks $d"
	done
	set -- $disks
	[ $# -ge $want ] || { echo "scsi_debug: $# of $want disks appeared" >&2; return 1; }
	disk=$1
}
# unload and check that nothing stayed in flight or allocated
unload() { # unload SCENARIO
	local f
	f=$(inflight)
	figure "$1" inflight_after "$f"
	[ "$f" -eq 0 ] || check "$1/nothing-in-flight" failed "$f commands still in flight"
	echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts 2>/dev/null
	echo 0 >/sys/bus/pseudo/drivers/scsi_debug/every_nth 2>/dev/null
	rmmod scsi_debug || check "$1/rmmod" failed "rmmod scsi_debug failed"
	sleep 0.5
	f=$(slab)
	figure "$1" slab_before "$slab0"
	figure "$1" slab_after "$f"
	[ "$f" -eq "$slab0" ] && check "$1/sg-pool-objects-back-to-baseline" passed "$slab0 objects" ||
		check "$1/sg-pool-objects-back-to-baseline" failed "$slab0 before, $f after"
}
# requests the SCSI core dispatched more than once (requeued or retried):
# iorequest_cnt counts every dispatch, the disk's stat every completed request
dispatches() { echo $(($(cat /sys/block/$1/device/iorequest_cnt))); }
ios() { awk '{print $1 + $5}' /sys/block/$1/stat; }
sdproc() { # sdproc FIELD: a counter from /proc/scsi/scsi_debug/<host>
	cat /proc/scsi/scsi_debug/* 2>/dev/null | tr ',' '\n' | sed -n "s/^ *$1=\([0-9]*\).*/\1/p" |
		awk '{n += $1} END {print n + 0}'
}
dmesg_count() { dmesg | grep -c -E "$1"; }
# sense keys as sd prints them without SCSI_CONSTANTS: "Sense Key : 0x3"
SK_RECOVERED='Sense Key : 0x1 ' SK_MEDIUM='Sense Key : 0x3 ' SK_PI='protection error, dev'

# fio_v NAME ARGS...: write + crc32c verify with headers; JSON in NAME.json
fio_v() {
	local n=$1
	shift
	fio --name=$n --direct=1 --ioengine=io_uring --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output-format=json \
		--output="$SGB_OUT/$n.json" "$@" >"$SGB_OUT/$n.err" 2>&1
}
fio_all() { # fio_all NAME SIZE ARGS...: one job per disk, each in its own region
	local n=$1 size=$2 i=0 d jobs=
	shift 2
	for d in $disks; do
		jobs="$jobs --name=$n-$d --filename=/dev/$d --offset=$((i * size)) --size=$size"
		i=$((i + 1))
	done
	fio --direct=1 --ioengine=io_uring --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=json --output="$SGB_OUT/$n.json" \
		"$@" $jobs >"$SGB_OUT/$n.err" 2>&1
}

if [ $level = full ]; then
	# twice the data of fast, and iodepth up to 64 (TCG with KASAN writes
	# and verifies about 1.6 MiB/s here: fast's integrity part takes 160 s)
	bss="512 4k 64k 1M 4M" qds="1 16 64" mib=8 hosts=2 luns=2
	pis="dif=1 dif=3 dix=1_dif=1 dix=1_dif=3"
else
	bss="512 4k 1M 4M" qds="1 32" mib=8 hosts=2 luns=2
	pis="dif=1 dix=1_dif=3"
fi

# kmemleak: forget what boot left, so the final scan reports the suite's leaks
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	echo clear >/sys/kernel/debug/kmemleak
else
	check debug/kmemleak-present failed "no /sys/kernel/debug/kmemleak: not a debug kernel"
fi
slab0=$(slab)
figure suite slab_baseline "$slab0"

# --- data integrity ---------------------------------------------------------
# several hosts and LUNs, two submit queues on two vCPUs, every block size
# from one sector to max_sectors (4 MiB = 1024 segments: scsi_debug's
# clustering=0 keeps each page its own segment), iodepth 1..64
log integrity
if load add_host=$hosts num_tgts=1 max_luns=$luns submit_queues=2 dev_size_mb=$((mib * hosts * luns + 8)) delay=0; then
	figure integrity disks "$(echo $disks | wc -w)"
	for bs in $bss; do
		size=$((mib * 1048576))
		[ $bs = 512 ] && size=$((mib * 1048576 / 8))
		for qd in $qds; do
			rw=write
			case $bs in 512|4k|16k) rw=randwrite ;; esac
			before=$(block_stat $disk)
			if fio_all int-bs$bs-qd$qd $size --rw=$rw --bs=$bs --iodepth=$qd; then
				check integrity/bs-$bs-qd$qd passed "$(echo $disks | wc -w) disks"
			else
				check integrity/bs-$bs-qd$qd failed "fio verify failed (see int-bs$bs-qd$qd.err)"
			fi
			if [ $bs = 4M ] && [ $qd = 1 ]; then
				set -- $before $(block_stat $disk)
				w=$(($7 - $3)) s=$(($8 - $4))
				[ $w -gt 0 ] && [ $((s / w)) -eq 8192 ] &&
					check integrity/4M-requests-carry-1024-segments passed "$w writes of $((s / w)) sectors" ||
					check integrity/4M-requests-carry-1024-segments failed "$w writes, $s sectors"
			fi
		done
	done
	if fio_all int-bssplit $((mib * 1048576)) --rw=randwrite --iodepth=16 \
		--bssplit=512/10:4k/20:16k/10:64k/20:1M/20:4M/20; then
		check integrity/bssplit-randwrite-qd16 passed
	else
		check integrity/bssplit-randwrite-qd16 failed "fio verify failed (see int-bssplit.err)"
	fi
	unload integrity
else
	check integrity/load failed "scsi_debug with $hosts hosts x $luns LUNs did not come up"
fi
for pi in $pis; do
	log "pi $pi"
	if ! load dev_size_mb=32 delay=0 $(echo $pi | tr _ ' '); then
		check pi/$pi/load failed "scsi_debug $pi did not load"
		continue
	fi
	fmt=$(cat /sys/block/$disk/integrity/format 2>/dev/null)
	case $pi in dix*) [ -n "$fmt" ] && [ "$fmt" != none ] &&
		check pi/$pi/integrity-enabled passed "$fmt" ||
		check pi/$pi/integrity-enabled failed "integrity format '$fmt'" ;; esac
	r0=$(sdproc dix_reads) w0=$(sdproc dix_writes)
	for bs in 4k 1M 4M; do
		fio_v int-$pi-$bs --filename=/dev/$disk --rw=write --bs=$bs --iodepth=8 --size=$((mib * 2))M &&
			check pi/$pi/verify-$bs passed "${fmt:-no integrity}" ||
			check pi/$pi/verify-$bs failed "fio verify failed (see int-$pi-$bs.err)"
	done
	case $pi in dix*)
		r=$(($(sdproc dix_reads) - r0)) w=$(($(sdproc dix_writes) - w0))
		figure pi/$pi dix_commands $((r + w))
		[ $r -gt 0 ] && [ $w -gt 0 ] && check pi/$pi/protection-ring-reached-the-driver passed "$w dix writes, $r dix reads" ||
			check pi/$pi/protection-ring-reached-the-driver failed "dix_writes $w, dix_reads $r" ;;
	esac
	unload pi/$pi
done

# --- SCSI error paths --------------------------------------------------------
sdopts() { echo $2 >/sys/bus/pseudo/drivers/scsi_debug/every_nth; echo $1 >/sys/bus/pseudo/drivers/scsi_debug/opts; }
# medium error: sectors 4660..4669 (opts=2) fail on read
log "errors: medium"
load dev_size_mb=32 delay=0 opts=2
m0=$(dmesg_count "$SK_MEDIUM")
fio --name=me --filename=/dev/$disk --direct=1 --rw=read --bs=4k --offset=2383872 --size=4k >/dev/null 2>&1 &&
	check errors/medium/4k-read-fails failed "a read of sectors 4656..4663 succeeded" ||
	check errors/medium/4k-read-fails passed "fio saw the error"
fio --name=me --filename=/dev/$disk --direct=1 --rw=read --bs=4M --offset=0 --size=4M >/dev/null 2>&1 &&
	check errors/medium/4M-read-fails failed "a 4M (1024-segment) read over sector 4660 succeeded" ||
	check errors/medium/4M-read-fails passed "fio saw the error"
fio --name=me --filename=/dev/$disk --direct=1 --rw=read --bs=1M --offset=8M --size=8M >/dev/null 2>&1 &&
	check errors/medium/elsewhere-reads-fine passed || check errors/medium/elsewhere-reads-fine failed "a read away from the bad sectors failed"
m=$(($(dmesg_count "$SK_MEDIUM") - m0))
figure errors/medium injected $m
figure errors/medium handled 2
[ $m -gt 0 ] && check errors/medium/logged passed "$m sense reports" || check errors/medium/logged failed "no Medium Error in dmesg"
unload errors/medium

# errors that must be invisible to fio: the data verifies, and the driver
# counters prove the fault was injected.  NAME OPTS EVERY_NTH FIO-ARGS
retry_case() {
	local n=$1 o=$2 nth=$3 d0 i0 d i k
	shift 3
	log "errors: $n"
	load dev_size_mb=32 delay=0 || { check errors/$n/load failed "scsi_debug did not load"; return; }
	echo 2 >/sys/block/$disk/device/timeout
	# sd offlines a disk once max_medium_access_timeouts (2) medium-access
	# commands time out with no success between, and two dropped
	# commands in flight together time out into one error-handler pass
	# (iodepth 4, every 3rd dropped: seen on one run of sg_ring, timing
	# dependent).  This case checks abort and retry, not that policy.
	# It runs at iodepth 1: with 4 in flight, which command is the 3rd
	# scsi_debug counts depended on timing, and on a loaded host a 1M
	# read of sg_table was the dropped one in 5 error-handler passes in a
	# row (each with a device reset, as two timed out together) until sd's
	# 5 retries ran out: DID_TIME_OUT, cmd_age 19 s, fio's verify failed
	# (results/reliability-20261205b/README.md).  One at a time, a timed
	# out command is aborted alone (scsi_abort_command) and its retry is
	# the next command counted, which every_nth 3 never drops.
	if [ $n = timeout-abort ]; then
		for k in /sys/block/$disk/device/scsi_disk/*/max_medium_access_timeouts; do
			echo 1000 >"$k" ||
				check errors/$n/medium-access-timeouts failed "cannot raise sd's $k"
		done
	fi
	d0=$(dispatches $disk) i0=$(ios $disk) a0=$(sdproc 'command aborts') t0=$(dmesg_count "$SK_RECOVERED") c0=$(sdproc cmnd_count)
	sdopts $o $nth
	if fio_v err-$n --filename=/dev/$disk "$@"; then
		check errors/$n/data-verifies passed
	else
		check errors/$n/data-verifies failed "fio saw an error or a mismatch (see err-$n.err)"
	fi
	sdopts 0 0
	d=$(($(dispatches $disk) - d0)) i=$(($(ios $disk) - i0)) c=$(($(sdproc cmnd_count) - c0))
	figure errors/$n driver_calls $c
	figure errors/$n dispatches $d
	figure errors/$n requests $i
	case $n in
	timeout-abort) inj=$(($(sdproc 'command aborts') - a0)); what="commands aborted by the error handler" ;;
	recovered) inj=$(($(dmesg_count "$SK_RECOVERED") - t0)); what="recovered-error sense reports" ;;
	# scsi_debug counts every queuecommand call, the disk every completed
	# request: the difference was answered busy or partly and requeued
	*) inj=$((c - i)); what="driver calls beyond the $i completed requests (requeued)" ;;
	esac
	figure errors/$n injected $inj
	figure errors/$n handled $inj
	[ $inj -gt 0 ] && check errors/$n/injected passed "$inj $what" ||
		check errors/$n/injected failed "nothing injected: $inj $what"
	unload errors/$n
}
retry_case recovered 8 10 --rw=write --bs=64k --iodepth=4 --size=4M
retry_case timeout-abort 4 3 --rw=write --bs=1M --iodepth=1 --size=4M
retry_case host-busy 0x8000 5 --rw=write --bs=1M --iodepth=8 --size=8M
retry_case short-transfer 0x100 5 --rw=write --bs=1M --iodepth=8 --size=8M
# TASK SET FULL (opts 0x800): scsi_debug answers it when the LUN's queue
# is one short of full, every every_nth time; every_nth 1 makes it the
# first such time, and random 4k writes keep the block layer from merging
# them into fewer, larger requests (sequential 64k writes at every_nth 4
# injected 1 or 2 times per run: one short of nothing; fio stops at the
# first error anyway).  6.1's scsi_debug sets
# DID_ABORT with it (device_qfull_result), and scsi_decide_disposition()
# reports DID_ABORT without an abort scheduled to the upper layer: the
# command fails, it is not retried, on either kernel.  So fio must see
# errors, sd must log the DID_ABORT results (hostbyte=0x05), and the disk
# must work afterwards.
log "errors: task-set-full"
tsf_case() {
	load dev_size_mb=32 delay=1 || { check errors/task-set-full/load failed "scsi_debug did not load"; return; }
	echo 4 >/sys/block/$disk/device/queue_depth
	fio_v err-tsf --filename=/dev/$disk --rw=write --bs=64k --iodepth=16 --size=4M ||
		check errors/task-set-full/clean-write failed "the write before injection failed"
	t0=$(dmesg_count "\\[$disk\\].*Result: hostbyte=0x05")
	sdopts 0x800 1
	fio --name=tsf --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=4k \
		--iodepth=16 --size=4M >"$SGB_OUT/err-tsf-write.err" 2>&1 &&
		check errors/task-set-full/write-fails failed "writes with TASK SET FULL injected all succeeded" ||
		check errors/task-set-full/write-fails passed "fio saw the error"
	sdopts 0 0
	t=$(($(dmesg_count "\\[$disk\\].*Result: hostbyte=0x05") - t0))
	figure errors/task-set-full injected $t
	figure errors/task-set-full handled $t
	[ $t -gt 0 ] && check errors/task-set-full/logged passed "$t commands failed with DID_ABORT" ||
		check errors/task-set-full/logged failed "no DID_ABORT result in dmesg: nothing was injected"
	fio_v err-tsf-after --filename=/dev/$disk --rw=write --bs=64k --iodepth=16 --size=4M &&
		check errors/task-set-full/disk-works-afterwards passed ||
		check errors/task-set-full/disk-works-afterwards failed "a clean write and verify failed (see err-tsf-after.err)"
	unload errors/task-set-full
}
tsf_case

# resets while I/O runs: device then host reset (sg_reset); a host reset
# drops scsi_debug's queued commands, which then time out and are retried
log "errors: reset"
if load dev_size_mb=32 delay=1; then
	echo 2 >/sys/block/$disk/device/timeout
	fio_v err-reset --filename=/dev/$disk --rw=write --bs=1M --iodepth=8 --size=16M --loops=2 &
	pid=$!
	sleep 1
	sg_reset -d /dev/$disk
	sleep 1
	sg_reset -H /dev/$disk
	wait $pid && check errors/reset/data-verifies passed ||
		check errors/reset/data-verifies failed "fio saw an error or a mismatch (see err-reset.err)"
	r=$(cat /proc/scsi/scsi_debug/* | sed -n 's/RESETs: device=\([0-9]*\), target=[0-9]*, bus=[0-9]*, host=\([0-9]*\)/\1 \2/p')
	set -- $r 0 0
	figure errors/reset injected $(($1 + $2))
	figure errors/reset handled $(($1 + $2))
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ] && check errors/reset/went-through-reset-handlers passed "device $1, host $2" ||
		check errors/reset/went-through-reset-handlers failed "device resets $1, host resets $2"
	unload errors/reset
fi

# DIF and DIX errors: the data is written cleanly, read with every 3rd
# command failing its guard check (fio must see it), then verified again
for e in dif:0x20 dix:0x40; do
	n=${e%%:*} o=${e#*:}
	log "errors: $n"
	load dev_size_mb=32 delay=0 dif=1 dix=1 || continue
	fio_v err-$n --filename=/dev/$disk --rw=write --bs=64k --iodepth=4 --size=4M ||
		check errors/$n-error/clean-write failed "the write before injection failed"
	g0=$(dmesg_count "$SK_PI")
	sdopts $o 3
	fio --name=pierr --filename=/dev/$disk --direct=1 --rw=read --bs=64k --size=4M >"$SGB_OUT/err-$n-read.err" 2>&1 &&
		check errors/$n-error/read-fails failed "a read with $n errors injected succeeded" ||
		check errors/$n-error/read-fails passed "fio saw the error"
	sdopts 0 0
	g=$(($(dmesg_count "$SK_PI") - g0))
	figure errors/$n-error injected $g
	figure errors/$n-error handled 1
	[ $g -gt 0 ] && check errors/$n-error/logged passed "$g sense reports" || check errors/$n-error/logged failed "no protection error in dmesg"
	fio_v err-$n --filename=/dev/$disk --rw=write --bs=64k --iodepth=4 --size=4M --verify_only=1 &&
		check errors/$n-error/data-intact-afterwards passed ||
		check errors/$n-error/data-intact-afterwards failed "verify after the injection failed"
	unload errors/$n-error
done

# --- allocation failure ------------------------------------------------------
# failslab aimed at the sg pool caches only (per-cache failslab flag and
# cache-filter): mempool_alloc(GFP_ATOMIC) drains its reserve, returns NULL,
# and the SCSI core answers BLK_STS_RESOURCE, so the request is requeued.
# Run twice: on the data buffer alone, and with DIF/DIX, where the
# protection buffer is a scatterlist (sg_table) or ring (sg_ring) from the
# same pools on every design.  sgb.sgmem= (tests/reliability/run.sh, the
# variant file's "memory") says whether the data buffer takes pool memory
# at all: with "none" (dma_iter: no data scatterlist) the first run must
# inject nothing, and the second tests the unwind of a failed protection
# allocation after a data buffer that has no table.
fs=/sys/kernel/debug/failslab
sgmem=$(sed -n 's/.*sgb\.sgmem=\([a-z]*\).*/\1/p' /proc/cmdline)
# failslab_case NAME LOAD-ARGS...: random writes of 512k-4M under failslab
failslab_case() {
	local n=$1 marked st inj
	shift
	log "alloc: $n"
	if ! [ -d $fs ] || ! load "$@"; then
		check alloc/$n/setup failed "no $fs or scsi_debug did not load with $*"
		return
	fi
	# the caches' failslab flag is read-only at run time: the kernel
	# was booted with slub_debug=A,sgpool-*,sgring-* (run.sh)
	marked=$(cat /sys/kernel/slab/sgpool-*/failslab /sys/kernel/slab/sgring-*/failslab 2>/dev/null | grep -c 1)
	figure alloc/$n caches_marked $marked
	echo Y >$fs/cache-filter
	echo N >$fs/ignore-gfp-wait
	echo 0 >$fs/verbose
	echo 1 >$fs/interval
	echo 100000 >$fs/times
	echo 25 >$fs/probability
	fio_v int-$n --filename=/dev/$disk --rw=randwrite --bsrange=512k-4M --iodepth=32 --size=32M
	st=$?
	echo 0 >$fs/probability
	inj=$((100000 - $(cat $fs/times)))
	[ $st -eq 0 ] && check alloc/$n/data-verifies passed ||
		check alloc/$n/data-verifies failed "fio failed under sg allocation failure (see int-$n.err)"
	figure alloc/$n injected $inj
	figure alloc/$n handled $inj
	if [ "$n" = failslab-sg-pools ] && [ "$sgmem" = none ]; then
		[ $inj -eq 0 ] && check alloc/$n/no-data-allocation passed "a design without a data scatterlist: no sg pool allocation to fail" ||
			check alloc/$n/no-data-allocation failed "$inj sg pool allocations failed, but sgb.sgmem=none says the data buffer takes no pool memory"
	else
		[ $inj -gt 0 ] && check alloc/$n/injected passed "$inj sg pool allocations failed" ||
			check alloc/$n/injected failed "no allocation failed ($marked sg pool caches marked for failslab): nothing was tested"
	fi
	unload alloc/$n
}
case $sgmem in
chained | ring | none)
	failslab_case failslab-sg-pools dev_size_mb=64 delay=0
	failslab_case failslab-sg-pools-prot dev_size_mb=64 delay=0 dif=1 dix=1
	;;
*) check alloc/failslab/setup failed "sgb.sgmem='$sgmem' on the kernel command line: want chained, ring or none (tests/reliability/run.sh passes the variant's memory)" ;;
esac
# fail_page_alloc: non-sleeping page allocations made in fio's own context
# (task-filter), after emptying the sg caches so that the pools must grow
fp=/sys/kernel/debug/fail_page_alloc
if [ $level = full ] && [ -d $fp ] && load dev_size_mb=64 delay=0; then
	log "alloc: fail_page_alloc"
	echo Y >$fp/task-filter
	echo Y >$fp/ignore-gfp-wait
	echo N >$fp/ignore-gfp-highmem
	echo 0 >$fp/verbose
	echo 1 >$fp/interval
	echo 100000 >$fp/times
	echo 20 >$fp/probability
	slab >/dev/null
	sh -c 'echo 1 >/proc/self/make-it-fail; exec fio --name=int-fail_page_alloc --filename=/dev/'$disk' \
		--direct=1 --ioengine=io_uring --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--rw=randwrite --bsrange=512k-4M --iodepth=32 --size=32M --output-format=json \
		--output='$SGB_OUT'/int-fail_page_alloc.json' >"$SGB_OUT/int-fail_page_alloc.err" 2>&1
	st=$?
	echo 0 >$fp/probability
	inj=$((100000 - $(cat $fp/times)))
	figure alloc/fail_page_alloc injected $inj
	figure alloc/fail_page_alloc handled $inj
	[ $st -eq 0 ] && check alloc/fail_page_alloc/data-verifies passed "$inj page allocations failed" ||
		check alloc/fail_page_alloc/data-verifies failed "fio failed ($inj page allocations failed; see int-fail_page_alloc.err)"
	unload alloc/fail_page_alloc
fi
# fail_make_request: the first 16 bios to the disk fail; fio must see it
fm=/sys/kernel/debug/fail_make_request
log "alloc: fail_make_request"
if [ -d $fm ] && load dev_size_mb=32 delay=0; then
	fio_v err-fmr --filename=/dev/$disk --rw=write --bs=64k --iodepth=4 --size=4M ||
		check errors/fail_make_request/clean-write failed "the write before injection failed"
	echo 1 >$fm/interval
	echo 16 >$fm/times
	echo 100 >$fm/probability
	echo 1 >/sys/block/$disk/make-it-fail
	fio --name=fmr --filename=/dev/$disk --direct=1 --rw=read --bs=64k --size=4M >"$SGB_OUT/err-fmr-read.err" 2>&1 &&
		check errors/fail_make_request/read-fails failed "reads with failing bios succeeded" ||
		check errors/fail_make_request/read-fails passed "fio saw the error"
	echo 0 >/sys/block/$disk/make-it-fail
	echo 0 >$fm/probability
	inj=$((16 - $(cat $fm/times)))
	figure errors/fail_make_request injected $inj
	figure errors/fail_make_request handled 1
	[ $inj -gt 0 ] && check errors/fail_make_request/injected passed "$inj bios failed" ||
		check errors/fail_make_request/injected failed "no bio failed"
	fio_v err-fmr --filename=/dev/$disk --rw=write --bs=64k --iodepth=4 --size=4M --verify_only=1 &&
		check errors/fail_make_request/data-intact-afterwards passed ||
		check errors/fail_make_request/data-intact-afterwards failed "verify after the injection failed"
	unload errors/fail_make_request
fi

# --- passthrough: SG_IO through /dev/sg* and bsg -----------------------------
# sg_dd with large and odd blocks-per-transfer, direct I/O on user pages
# (each page its own segment: 8191 blocks = 1024 segments), then bsg
log passthrough
if load dev_size_mb=32 delay=0; then
	sgd=/dev/$(ls /sys/block/$disk/device/scsi_generic/)
	bsg=/dev/bsg/$(basename "$(readlink /sys/block/$disk/device)")
	echo 1 >/proc/scsi/sg/allow_dio
	dd if=/dev/urandom of=/tmp/src bs=1M count=16 2>/dev/null
	blocks=32768
	sg_dd if=/tmp/src of=$sgd bs=512 bpt=8192 count=$blocks >"$SGB_OUT/sg_dd-write.log" 2>&1 &&
		check passthrough/sg_dd-write-bpt8192 passed || check passthrough/sg_dd-write-bpt8192 failed "see sg_dd-write.log"
	for bpt in 8191 2047 127 1; do
		[ $bpt = 1 ] && [ $level = fast ] && continue
		rm -f /tmp/back
		if sg_dd if=$sgd of=/tmp/back bs=512 bpt=$bpt count=$blocks dio=1 >"$SGB_OUT/sg_dd-$bpt.log" 2>&1 &&
			cmp -s /tmp/src /tmp/back; then
			check passthrough/sg_dd-read-dio-bpt$bpt passed "16 MiB read back equal"
		else
			check passthrough/sg_dd-read-dio-bpt$bpt failed "sg_dd failed or the data differs (see sg_dd-$bpt.log)"
		fi
	done
	rm -f /tmp/back
	# bsg: READ(10) of 2048 blocks (1 MiB, the most sg_raw transfers) at
	# LBA 0 and of 2047 at LBA 4096
	if [ -c "$bsg" ] && sg_raw -r 1048576 -o /tmp/back $bsg 28 00 00 00 00 00 00 08 00 00 >"$SGB_OUT/sg_raw.log" 2>&1 &&
		dd if=/tmp/src bs=1M count=1 2>/dev/null | cmp -s - /tmp/back; then
		check passthrough/bsg-read-1M passed "$bsg"
	else
		check passthrough/bsg-read-1M failed "sg_raw on '$bsg' failed or the data differs (see sg_raw.log)"
	fi
	rm -f /tmp/back
	if sg_raw -r 1048064 -o /tmp/back $bsg 28 00 00 00 10 00 00 07 ff 00 >>"$SGB_OUT/sg_raw.log" 2>&1 &&
		dd if=/tmp/src bs=512 skip=4096 count=2047 2>/dev/null | cmp -s - /tmp/back; then
		check passthrough/bsg-read-odd-2047-blocks passed
	else
		check passthrough/bsg-read-odd-2047-blocks failed "sg_raw failed or the data differs (see sg_raw.log)"
	fi
	rm -f /tmp/back /tmp/src
	unload passthrough
fi

# --- leaks: kmemleak over the whole suite ------------------------------------
log kmemleak
if [ -e /sys/kernel/debug/kmemleak ]; then
	sleep 6 # kmemleak reports only objects older than 5 s
	echo scan >/sys/kernel/debug/kmemleak
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak >"$SGB_OUT/kmemleak.txt"
	n=$(grep -c 'unreferenced object' "$SGB_OUT/kmemleak.txt")
	figure suite kmemleak_objects $n
	[ "$n" -eq 0 ] && check debug/kmemleak-no-leaks passed ||
		check debug/kmemleak-no-leaks failed "$n unreferenced objects (see kmemleak.txt)"
fi
log done
echo "$level" >"$SGB_OUT/complete"
exit 0
