#!/bin/sh
# Protection information and SCSI error paths (guest plan).  Writes one line
# per check to $SGB_OUT/results.tsv: "name<TAB>passed|failed<TAB>why";
# tests/run.sh also fails any expected check that has no line.
. "$SGB_LIB"
res=$SGB_OUT/results.tsv
: >"$res"
check() { # check NAME STATUS WHY
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$res"
}
fio_verify() { # fio_verify DISK BS NAME: write + crc32c verify of 8 MiB
	fio --name=$3 --filename=/dev/$1 --direct=1 --ioengine=io_uring --iodepth=4 \
		--rw=write --bs=$2 --size=8M --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output-format=json --output="$SGB_OUT/$3.json" >/dev/null 2>&1
}
slab() { # active sg pool objects (mempool reserves included)
	awk '/^sg(pool|ring)-/ {n += $2} END {print n + 0}' /proc/slabinfo
}

# T10 protection information: DIF types 1 and 3, with and without DIX (the
# integrity payload travels in the protection ring)
for pi in "dif=1" "dif=3" "dif=1 dix=1" "dif=3 dix=1"; do
	tag=$(echo "$pi" | tr ' =' '_-')
	if ! disk=$(sd_load dev_size_mb=32 delay=0 $pi); then
		check "pi/$tag/load" failed "scsi_debug $pi did not load"
		continue
	fi
	prot=$(cat /sys/block/$disk/integrity/format 2>/dev/null)
	for bs in 4k 1M 4M; do
		if fio_verify "$disk" $bs "pi-$tag-$bs"; then
			check "pi/$tag/verify-$bs" passed "integrity format ${prot:-none}"
		else
			check "pi/$tag/verify-$bs" failed "fio verify failed (see pi-$tag-$bs.json)"
		fi
	done
	case $pi in *dix=1*)
		[ "$prot" != none ] && [ -n "$prot" ] &&
			check "pi/$tag/integrity-enabled" passed "$prot" ||
			check "pi/$tag/integrity-enabled" failed "block layer integrity format '$prot'" ;;
	esac
	rmmod scsi_debug
done

# Medium error: sectors 4660..4669 fail on read (scsi_debug opts=2)
base=$(slab)
disk=$(sd_load dev_size_mb=32 delay=0 opts=2)
if fio --name=me-4k --filename=/dev/$disk --direct=1 --rw=read --bs=4k --offset=2383872 --size=4k \
	--output-format=json --output="$SGB_OUT/medium-4k.json" >/dev/null 2>&1; then
	check errors/medium-error-4k-read-fails failed "a read of sector 4656+8 succeeded"
else
	check errors/medium-error-4k-read-fails passed "fio saw the error"
fi
# ... also inside a 1 MiB (256-segment) request
if fio --name=me-1M --filename=/dev/$disk --direct=1 --rw=read --bs=1M --offset=2M --size=1M \
	--output-format=json --output="$SGB_OUT/medium-1M.json" >/dev/null 2>&1; then
	check errors/medium-error-1M-read-fails failed "a 1M read over sector 4660 succeeded"
else
	check errors/medium-error-1M-read-fails passed "fio saw the error"
fi
if fio --name=ok --filename=/dev/$disk --direct=1 --rw=read --bs=1M --offset=8M --size=8M \
	--output-format=json --output="$SGB_OUT/medium-elsewhere.json" >/dev/null 2>&1; then
	check errors/medium-error-elsewhere-reads-fine passed
else
	check errors/medium-error-elsewhere-reads-fine failed "a read away from the bad sectors failed"
fi
dmesg | grep -q -i 'medium error' &&
	check errors/medium-error-logged passed || check errors/medium-error-logged failed "no Medium Error in dmesg"
rmmod scsi_debug

# Timeouts: every 7th command is dropped (opts=4); the error handler aborts
# it and the command is retried; the data must still verify.  The drops
# start once the disk is up and its timeout is 2 s: loaded with opts=4, two
# of the scan's commands were dropped and each waited about a minute for
# its timeout (two idle minutes a boot).
disk=$(sd_load dev_size_mb=32 delay=0 every_nth=7)
echo 2 >/sys/block/$disk/device/timeout
echo 4 >/sys/bus/pseudo/drivers/scsi_debug/opts
if fio --name=timeout-1M --filename=/dev/$disk --direct=1 --ioengine=io_uring --iodepth=4 \
	--rw=write --bs=1M --size=4M --verify=crc32c --do_verify=1 --verify_fatal=1 \
	--output-format=json --output="$SGB_OUT/timeout-1M.json" >/dev/null 2>&1; then
	check errors/timeouts-recovered-data-verifies passed
else
	check errors/timeouts-recovered-data-verifies failed "fio verify failed after timeouts (see timeout-1M.json)"
fi
tmo=$(cat /sys/block/$disk/device/iotmo_cnt)
[ $((tmo)) -gt 0 ] &&
	check errors/timeouts-went-through-error-handler passed "$((tmo)) commands timed out (iotmo_cnt)" ||
	check errors/timeouts-went-through-error-handler failed "no command timed out (iotmo_cnt $tmo)"
echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
rmmod scsi_debug
sleep 1
after=$(slab)
[ "$after" -le "$base" ] && check errors/sg-pool-objects-back-to-baseline passed "$base before, $after after" ||
	check errors/sg-pool-objects-back-to-baseline failed "$base before, $after after"
exit 0
