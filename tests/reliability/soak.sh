#!/bin/sh
# Soak (guest plan, busybox sh) on a normal kernel (the one make bench
# measures), booted by tests/reliability/run.sh with qemu/run.sh
# -d virtio=file,pvscsi=file -a "sgb.soak_mib=N sgb.hbas=virtio,pvscsi".
#
# Rounds of fio write + crc32c verify (direct I/O, io_uring, verify_fatal),
# one job per disk at once: a scsi_debug disk (512 MiB in guest memory,
# two submit queues) and the QEMU disks of sgb.hbas (raw files on the host),
# each in its own 128 MiB region.  The rounds cycle through block sizes
# from 512 bytes to 4M, fixed and mixed (bssplit, bsrange), sequential and
# random, at queue depths 1 to 64, until N MiB have been written (every
# byte written is read back and checked).  Nothing may be lost: fio must
# verify every round, and the kernel log must have no I/O error.
# Writes results.tsv and figures.tsv as the other plans, int-soak-*.json
# (fio JSON: the reliability report sums it), soak.tsv (one line per round:
# round, disks, MiB written, seconds, fio arguments) and complete, last.
. "$SGB_LIB"
res=$SGB_OUT/results.tsv fig=$SGB_OUT/figures.tsv
: >"$res"
: >"$fig"
printf 'round\tdisks\tmib_written\tseconds\targs\n' >"$SGB_OUT/soak.tsv"
check() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$res"; }
figure() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$fig"; }
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^sgb\.$1=//p" | tr , ' '; }
now() { cut -d' ' -f1 /proc/uptime; }
target=$(arg soak_mib)
target=${target:-10240}

disks=
if d=$(sd_load dev_size_mb=512 delay=0 submit_queues=2 2>"$SGB_OUT/scsi_debug.err"); then
	disks=$d
	check soak/scsi_debug-disk passed "$d"
else
	check soak/scsi_debug-disk failed "$(cat "$SGB_OUT/scsi_debug.err")"
fi
for h in $(arg hbas); do
	if d=$(qdisk $h 2>"$SGB_OUT/$h.err"); then
		disks="$disks $d"
		check soak/$h-disk passed "$d, max_sectors_kb $(cat /sys/block/$d/queue/max_sectors_kb)"
	else
		check soak/$h-disk failed "$(cat "$SGB_OUT/$h.err")"
	fi
done
set -- $disks
ndisks=$#
[ $ndisks -gt 0 ] || { check soak/disks failed "no disk to soak"; echo soak >"$SGB_OUT/complete"; exit 0; }

# the rounds: MiB per disk, then fio arguments; cycled until the target
rounds='128 --rw=write --bs=4M --iodepth=64
128 --rw=randwrite --bssplit=512/5:4k/25:64k/20:1M/25:4M/25 --iodepth=16
128 --rw=write --bs=1M --iodepth=1
128 --rw=randwrite --bs=64k --iodepth=32
64 --rw=randwrite --bs=4k --iodepth=64
16 --rw=randwrite --bs=512 --iodepth=4
128 --rw=randwrite --bsrange=512-4M --iodepth=8
128 --rw=write --bs=2M --iodepth=2'
nr=$(echo "$rounds" | wc -l)
done_mib=0 r=0 failed=0 t_start=$(now)
e0=$(dmesg | grep -c -E 'I/O error|critical medium error|blk_update_request')
while [ $done_mib -lt $target ] && [ $failed -eq 0 ]; do
	line=$(echo "$rounds" | sed -n "$((r % nr + 1))p")
	mib=${line%% *} fargs=${line#* }
	jobs=
	for d in $disks; do
		jobs="$jobs --name=soak$r-$d --filename=/dev/$d --offset=0 --size=${mib}M"
	done
	t0=$(now)
	# shellcheck disable=SC2086
	if fio --direct=1 --ioengine=io_uring --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--randrepeat=0 --output-format=json --output="$SGB_OUT/int-soak-$r.json" \
		$fargs $jobs >"$SGB_OUT/soak-$r.err" 2>&1; then
		:
	else
		failed=1
		check soak/round-$r failed "fio verify failed: $fargs (see soak-$r.err, int-soak-$r.json)"
	fi
	t1=$(now)
	printf '%s\t%s\t%s\t%s\t%s\n' $r $ndisks $((mib * ndisks)) "$(echo "$t1 $t0" | awk '{print $1 - $2}')" "$fargs" >>"$SGB_OUT/soak.tsv"
	done_mib=$((done_mib + mib * ndisks))
	r=$((r + 1))
done
secs=$(echo "$(now) $t_start" | awk '{print $1 - $2}')
figure soak mib_written $done_mib
figure soak rounds $r
figure soak seconds $secs
figure soak disks $ndisks
[ $failed -eq 0 ] && check soak/every-round-verified passed "$r rounds, $done_mib MiB written and read back over $ndisks disks in $secs s" ||
	check soak/every-round-verified failed "a round failed after $done_mib MiB"
[ $done_mib -ge $target ] && check soak/target-written passed "$done_mib of $target MiB" ||
	check soak/target-written failed "$done_mib of $target MiB"
e=$(($(dmesg | grep -c -E 'I/O error|critical medium error|blk_update_request') - e0))
[ $e -eq 0 ] && check soak/no-io-errors-logged passed ||
	check soak/no-io-errors-logged failed "$e I/O error lines in dmesg (see dmesg.txt)"
echo soak >"$SGB_OUT/complete"
exit 0
