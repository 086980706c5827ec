#!/bin/sh
# QEMU-emulated disks (guest plan; the host boots with
# qemu/run.sh -d virtio=file,pvscsi=file): a virtio-scsi and a VMware PVSCSI
# disk, each backed by a raw file.  Per disk, fio writes and verifies
# (crc32c, direct I/O, io_uring) 32 MiB at 4k, 1M and 4M, and the block
# layer's counters must show requests too large for the 2 inline entries
# (SCSI_INLINE_SG_CNT) of a command's data buffer: a request of S bytes has
# at least S / max_segment_size segments, so an average above
# 2 * max_segment_size means buffers of more than one array (sg_ring) or
# chunk (sg_table) reached the HBA.
# Booted with swiotlb=force (tests/run.sh boots this plan a second time so),
# only the pvscsi disk is tested: dma-direct then bounces every mapped
# segment through the swiotlb, so the data verifies only if scsi_dma_map()
# (dma_map_sg_ring() on sg_ring) mapped, and unmapped, every array of each
# ring; the swiotlb's slabs in use, sampled while fio runs, show that the
# bounce happened (sampling can miss, so one fio run with slabs seen is enough).  (virtio-scsi does not use the DMA API without
# VIRTIO_F_ACCESS_PLATFORM, which QEMU does not offer by default.)
# One line per check in $SGB_OUT/results.tsv: "name<TAB>passed|failed<TAB>why";
# the fio JSON of the verify runs is int-*.json (the reliability report
# sums them), and $SGB_OUT/complete is written last.
# Without swiotlb=force, each disk then takes SCSI passthrough of 6.1's
# most pages per command, each page a segment (HBA/sg-io-scattered-L,
# sgio_scattered in common/image/guest-lib.sh): both hosts are converted
# on sg_ring and pvscsi on dma_iter, so this is their passthrough path.
. "$SGB_LIB"
res=$SGB_OUT/results.tsv
: >"$res"
check() { # check NAME STATUS WHY
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$res"
}
hbas="virtio pvscsi" tag=
if grep -q 'swiotlb=force' /proc/cmdline; then
	hbas=pvscsi tag=-swiotlb
fi
tlb=/sys/kernel/debug/swiotlb/io_tlb_used
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
echo 8192 >$T/buffer_size_kb
# fio_watched NAME ARGS...: fio, and the most swiotlb slabs in use while it ran
fio_watched() {
	local name=$1 pid max=0 n
	shift
	fio --name=$name "$@" --output-format=json --output="$SGB_OUT/$name.json" >/dev/null 2>&1 &
	pid=$!
	# a busy loop of shell builtins: a fork per sample would miss most
	# commands in flight on the guest's one CPU
	while kill -0 $pid 2>/dev/null; do
		read -r n <$tlb || n=0
		[ "$n" -gt $max ] && max=$n
	done
	echo $max >"$SGB_OUT/$name.tlb-max"
	wait $pid
}
for hba in $hbas; do
	if ! disk=$(qdisk $hba 2>"$SGB_OUT/$hba.err"); then
		check "$hba$tag/disk-appears" failed "$(cat "$SGB_OUT/$hba.err")"
		continue
	fi
	q=/sys/block/$disk/queue
	{
		echo "disk $disk"
		for f in max_segments max_segment_size max_sectors_kb max_hw_sectors_kb; do
			echo "$f $(cat $q/$f)"
		done
		echo "hw_queues $(ls /sys/block/$disk/mq | wc -l)"
		sg_inq /dev/$disk
	} >"$SGB_OUT/$hba$tag.queue" 2>&1
	mss=$(cat $q/max_segment_size)
	segs=$(cat $q/max_segments)
	if grep -q 'QEMU HARDDISK' "$SGB_OUT/$hba$tag.queue"; then
		check "$hba$tag/disk-appears" passed "$disk: max_segments $segs, max_sectors_kb $(cat $q/max_sectors_kb), $(ls /sys/block/$disk/mq | wc -l) hw queue(s)"
	else
		check "$hba$tag/disk-appears" failed "$disk is not a QEMU HARDDISK (see $hba$tag.queue)"
	fi
	for bs in 4k 1M 4M; do
		before=$(block_stat "$disk")
		if fio_watched int-$hba$tag-verify-$bs --filename=/dev/$disk --direct=1 --ioengine=io_uring \
			--iodepth=4 --rw=write --bs=$bs --size=32M --verify=crc32c \
			--do_verify=1 --verify_fatal=1; then
			check "$hba$tag/verify-$bs" passed "32 MiB written and read back, crc32c"
		else
			check "$hba$tag/verify-$bs" failed "fio verify failed (see int-$hba$tag-verify-$bs.json)"
		fi
		set -- $before $(block_stat "$disk")
		rios=$(($5 - $1)) rsec=$(($6 - $2)) wios=$(($7 - $3)) wsec=$(($8 - $4))
		echo "$before $(block_stat "$disk")" >"$SGB_OUT/$hba$tag-stat-$bs"
		[ $bs = 4k ] && continue
		# average request size in bytes, reads and writes, and the
		# fewest segments such a request can have
		if [ $rios -gt 0 ] && [ $wios -gt 0 ]; then
			ravg=$((rsec * 512 / rios)) wavg=$((wsec * 512 / wios))
			why="writes $wios x $((wavg / 1024)) KiB, reads $rios x $((ravg / 1024)) KiB avg: >= $(((wavg + mss - 1) / mss)) and $(((ravg + mss - 1) / mss)) segments of <= $mss bytes"
			if [ $ravg -gt $((2 * mss)) ] && [ $wavg -gt $((2 * mss)) ]; then
				check "$hba$tag/requests-beyond-inline-sg-$bs" passed "$why"
			else
				check "$hba$tag/requests-beyond-inline-sg-$bs" failed "$why: not more than the head array's 2"
			fi
		else
			check "$hba$tag/requests-beyond-inline-sg-$bs" failed "no reads or writes counted ($rios, $wios)"
		fi
	done
	if [ -z "$tag" ]; then
		# SCSI passthrough of 6.1's most pages per command, scattered
		host=$(basename "$(readlink /sys/block/$disk/device)" | cut -d: -f1)
		echo 1 >$T/events/scsi/scsi_dispatch_cmd_start/enable
		sgio_scattered $hba $disk $host >>"$res"
		echo 0 >$T/events/scsi/scsi_dispatch_cmd_start/enable
		continue
	fi
	# and 1M reads at qd 16 for 2 s; the samples of slabs in use can miss
	# every command in flight, so any fio run of this boot counts
	fio_watched $hba$tag-load --filename=/dev/$disk --direct=1 --ioengine=io_uring \
		--iodepth=16 --rw=randread --bs=1M --size=32M --time_based --runtime=2s
	seen=$(for f in "$SGB_OUT"/*$hba$tag-*.tlb-max; do n=${f##*/}; echo "${n%.tlb-max} $(cat $f)"; done)
	why="most swiotlb slabs in use (of $(cat ${tlb%/*}/io_tlb_nslabs)) seen during $(echo $seen)"
	echo "$seen" | awk '$2 > 0 { ok = 1 } END { exit !ok }' &&
		check "$hba$tag/bounced" passed "$why" ||
		check "$hba$tag/bounced" failed "$why: none, the data was not DMA-mapped through dma-direct"
done
echo done >"$SGB_OUT/complete"
