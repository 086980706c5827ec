#!/bin/sh
# QEMU's other storage host adapters (guest plan; the host boots it with
# qemu/run.sh -d HBA=file,...,HBA=cd -a "sgb.hbas=... sgb.cds=..."):
# every SCSI, ATA and USB-storage adapter QEMU 7.2 emulates besides
# virtio-scsi and pvscsi (tests/guest/qemu-disks.sh), each with a raw-file
# disk, and CD-ROMs read back whole.
#
# Per disk, with max_sectors_kb raised to the hardware limit (qdisk), at
# 4k, 64k, 1M and 4M: scatterio (common/image/scatterio.c) writes a pattern
# with O_DIRECT from a buffer of separate physical pages, no two
# neighbours adjacent (checked in /proc/self/pagemap), reads it back into a
# second such buffer and compares (verify-BS); so every page of a command
# is a segment of its own, and the scsi:scsi_dispatch_cmd_start tracepoint
# (data_sgl=, the segments the driver received) must show commands of
# exactly min(pages per command, max_segments, max_sectors_kb / 4)
# segments (segments-BS): the most a host takes, on sg_table a chain, on
# sg_ring a ring (converted host) or one array (any other host).  Then fio
# (io_uring, iodepth 4, crc32c) writes and verifies 4 MiB at 1M, with
# commands in flight together (fio-verify-1M).  Then SCSI passthrough:
# scatterio --sg-io writes and reads back, with one WRITE(10) and one
# READ(10) through SG_IO on the disk's block device, L pages of such
# buffers, L = min(max_segments, max_hw_sectors_kb / 4) of 6.1 (the
# sg_table kernel), not of the running kernel: sgb.limits61, hba_limits61
# in common/lib.sh.  A passthrough command cannot be split, so SG_IO fails
# where the kernel takes fewer segments than 6.1; it must pass and the
# driver must get one command of L segments (sg-io-scattered-L; the check
# says the running kernel's max_segments).  Per CD-ROM (sgb.cds), dd
# reads it whole with direct I/O at 2k, 64k and 1M and its SHA-256 must be
# the image's (qemu/run.sh writes it in the share).
# One line per check in $SGB_OUT/results.tsv: "name<TAB>passed|failed<TAB>why";
# $SGB_OUT/complete is written last.
. "$SGB_LIB"
res=$SGB_OUT/results.tsv
: >"$res"
check() { # check NAME STATUS WHY
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$res"
}
arg() { # arg NAME: the value of sgb.NAME= on the kernel command line
	tr ' ' '\n' </proc/cmdline | sed -n "s/^sgb\.$1=//p" | tr , ' '
}
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
echo 8192 >$T/buffer_size_kb
echo 1 >$T/events/scsi/scsi_dispatch_cmd_start/enable
for hba in $(arg hbas); do
	echo "$(date +%T) $hba: waiting for its disk"
	if ! disk=$(qdisk $hba 2>"$SGB_OUT/$hba.err"); then
		check "$hba/disk-appears" failed "$(cat "$SGB_OUT/$hba.err")"
		continue
	fi
	q=/sys/block/$disk/queue
	host=$(basename "$(readlink /sys/block/$disk/device)" | cut -d: -f1)
	maxseg=$(cat $q/max_segments) maxkb=$(cat $q/max_sectors_kb)
	limits="max_segments $maxseg, max_hw_sectors_kb $(cat $q/max_hw_sectors_kb), max_sectors_kb $maxkb, max_segment_size $(cat $q/max_segment_size)"
	check "$hba/disk-appears" passed "$disk on host$host ($(cat /sys/class/scsi_host/host$host/proc_name)): $limits"
	off=0
	for bs in 4k 64k 1M 4M; do
		case $bs in
		4k) pages=1 total=256k ;;
		64k) pages=16 total=1M ;;
		1M) pages=256 total=4M ;;
		4M) pages=1024 total=8M ;;
		esac
		echo "$(date +%T) $hba scatterio $bs"
		echo >$T/trace
		if out=$(scatterio /dev/$disk $bs $total ${off}M 2>&1); then
			check "$hba/verify-$bs" passed "scatterio: $out"
		else
			check "$hba/verify-$bs" failed "scatterio: $out"
		fi
		off=$((off + 8))
		want=$pages
		[ "$maxseg" -lt $want ] && want=$maxseg
		[ $((maxkb / 4)) -lt $want ] && want=$((maxkb / 4))
		set -- $(scsi_segs $host)
		why="$1 commands, at most $2 segments; want $want = min($pages pages, max_segments $maxseg, max_sectors_kb $maxkb / 4)"
		if [ "$1" -gt 0 ] && [ "$2" -eq $want ]; then
			check "$hba/segments-$bs" passed "$why"
		else
			check "$hba/segments-$bs" failed "$why"
		fi
	done
	echo "$(date +%T) $hba fio"
	if fio --name=hba-$hba --filename=/dev/$disk --direct=1 --ioengine=io_uring \
		--iodepth=4 --rw=write --bs=1M --offset=${off}M --size=4M --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output-format=json \
		--output="$SGB_OUT/hba-$hba-1M.json" >"$SGB_OUT/hba-$hba-1M.err" 2>&1; then
		check "$hba/fio-verify-1M" passed "fio io_uring iodepth 4: 4 MiB written and read back, crc32c"
	else
		check "$hba/fio-verify-1M" failed "fio verify failed (see hba-$hba-1M.json, hba-$hba-1M.err)"
	fi
	# SG_IO of 6.1's most pages per command, each page a segment
	sgio_scattered $hba $disk $host >>"$res"
done
for hba in $(arg cds); do
	if ! cd=$(qdisk $hba cd 2>"$SGB_OUT/$hba-cd.err"); then
		check "$hba-cd/appears" failed "$(cat "$SGB_OUT/$hba-cd.err")"
		continue
	fi
	host=$(basename "$(readlink /sys/block/$cd/device)" | cut -d: -f1)
	want=$(cat "$SGB_SHARE/$hba-cd.sha256")
	for bs in 2k 64k 1M; do
		echo "$(date +%T) $hba-cd dd $bs"
		echo >$T/trace
		got=$(dd if=/dev/$cd bs=$bs iflag=direct 2>"$SGB_OUT/$hba-cd-$bs.err" | sha256sum | cut -d' ' -f1)
		set -- $(scsi_segs $host)
		why="16 MiB in $1 commands of at most $2 segments"
		if [ "$got" = "$want" ]; then
			check "$hba-cd/read-$bs" passed "$why, SHA-256 of the image"
		else
			check "$hba-cd/read-$bs" failed "$why: SHA-256 $got, not the image's $want ($(tail -n 1 "$SGB_OUT/$hba-cd-$bs.err"))"
		fi
	done
done
echo 0 >$T/events/scsi/scsi_dispatch_cmd_start/enable
echo done >"$SGB_OUT/complete"
