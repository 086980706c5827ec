#!/bin/sh
# QEMU's other storage host adapters (guest plan; the host boots it with
# qemu/run.sh -d HBA=file,...,HBA=cd -a "page_alloc.shuffle=1 sgb.hbas=..."):
# every SCSI, ATA and USB-storage adapter QEMU 7.2 emulates besides
# virtio-scsi and pvscsi (tests/guest/qemu-disks.sh), each with a raw-file
# disk, and CD-ROMs read back whole.
#
# Per disk, fio writes and verifies (crc32c, direct I/O, io_uring, iodepth 4)
# 4 MiB at 4k, 64k, 1M and 4M with max_sectors_kb raised to the hardware
# limit (qdisk).  The page allocator is shuffled (page_alloc.shuffle=1), so
# fio's buffers are scattered pages; the scsi:scsi_dispatch_cmd_start
# tracepoint gives the number of data segments (data_sgl=) of every command
# the driver received, and at 1M and 4M some command must have had more
# than the 2 entries (SCSI_INLINE_SG_CNT) inline in a command: such commands
# spanned several arrays of a ring (sg_ring, converted host), one pool array
# (sg_ring, any other host) or a chain (sg_table).  Per CD-ROM (sgb.cds),
# dd reads it whole with direct I/O at 2k, 64k and 1M and its SHA-256 must
# be the image's (qemu/run.sh writes it in the share).
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
# segs HOST: "N commands, most segments M, K with more than 2" of the traced
# commands of SCSI host HOST since the last clear
segs() {
	awk -v h="host_no=$1" '
	/scsi_dispatch_cmd_start:/ {
		ok = 0
		for (i = 1; i <= NF; i++) {
			if ($i == h) ok = 1
			if (ok && $i ~ /^data_sgl=/) {
				n = substr($i, 10) + 0; cmds++
				if (n > max) max = n
				if (n > 2) over++
			}
		}
	}
	END { printf "%d %d %d\n", cmds, max, over }' $T/trace
}
for hba in $(arg hbas); do
	if ! disk=$(qdisk $hba 2>"$SGB_OUT/$hba.err"); then
		check "$hba/disk-appears" failed "$(cat "$SGB_OUT/$hba.err")"
		continue
	fi
	q=/sys/block/$disk/queue
	host=$(basename "$(readlink /sys/block/$disk/device)" | cut -d: -f1)
	limits="max_segments $(cat $q/max_segments), max_hw_sectors_kb $(cat $q/max_hw_sectors_kb), max_sectors_kb $(cat $q/max_sectors_kb), max_segment_size $(cat $q/max_segment_size)"
	check "$hba/disk-appears" passed "$disk on host$host ($(cat /sys/class/scsi_host/host$host/proc_name)): $limits"
	for bs in 4k 64k 1M 4M; do
		echo >$T/trace
		if fio --name=hba-$hba-$bs --filename=/dev/$disk --direct=1 --ioengine=io_uring \
			--iodepth=4 --rw=write --bs=$bs --size=4M --verify=crc32c \
			--do_verify=1 --verify_fatal=1 --output-format=json \
			--output="$SGB_OUT/hba-$hba-$bs.json" >/dev/null 2>&1; then
			check "$hba/verify-$bs" passed "4 MiB written and read back, crc32c"
		else
			check "$hba/verify-$bs" failed "fio verify failed (see hba-$hba-$bs.json)"
		fi
		set -- $(segs $host)
		why="$1 commands, at most $2 segments, $3 with more than 2"
		if [ "$1" -eq 0 ]; then
			check "$hba/segments-$bs" failed "no command of host$host traced"
		elif [ $bs = 4k ] || [ $bs = 64k ] || [ "$3" -gt 0 ]; then
			check "$hba/segments-$bs" passed "$why"
		else
			check "$hba/segments-$bs" failed "$why: no command beyond the 2 inline entries, so this proves nothing"
		fi
	done
done
for hba in $(arg cds); do
	if ! cd=$(qdisk $hba cd 2>"$SGB_OUT/$hba-cd.err"); then
		check "$hba-cd/appears" failed "$(cat "$SGB_OUT/$hba-cd.err")"
		continue
	fi
	host=$(basename "$(readlink /sys/block/$cd/device)" | cut -d: -f1)
	want=$(cat "$SGB_SHARE/$hba-cd.sha256")
	for bs in 2k 64k 1M; do
		echo >$T/trace
		got=$(dd if=/dev/$cd bs=$bs iflag=direct 2>"$SGB_OUT/$hba-cd-$bs.err" | sha256sum | cut -d' ' -f1)
		set -- $(segs $host)
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
