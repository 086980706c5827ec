# guest-lib.sh - helpers for plans, in the guest images as
# /usr/lib/sgbench/lib.sh (sourced by plans in the guest: . "$SGB_LIB";
# busybox sh, or bash in the Debian image).

# sd_load ARGS...: load scsi_debug with ARGS, wait for its disk, raise
# max_sectors_kb to 4096 (sd starts at 512) and print the disk's name.
sd_load() {
	modprobe scsi_debug "$@" || return 1
	local i=0 d=
	while [ $i -lt 100 ]; do
		for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
			[ -e "$d" ] && break 2
		done
		i=$((i + 1))
		sleep 0.1
	done
	[ -e "$d" ] || { echo "scsi_debug disk did not appear" >&2; return 1; }
	d=$(basename "$d")
	i=0
	while [ ! -b /dev/$d ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	echo 4096 >/sys/block/$d/queue/max_sectors_kb || return 1
	echo "$d"
}

# block_stat DISK: "read_ios read_sectors write_ios write_sectors"
block_stat() {
	awk '{print $1, $3, $5, $7}' /sys/block/$1/stat
}

# nullb_load: load null_blk as one blk-mq disk completing in the submitting
# context (queue_mode=2 irqmode=0), taking requests of up to 4 MiB, and
# print its name.
nullb_load() {
	modprobe null_blk queue_mode=2 irqmode=0 nr_devices=1 gb=1 max_sectors=8192 || return 1
	local i=0
	while [ ! -b /dev/nullb0 ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	[ -b /dev/nullb0 ] || { echo "null_blk disk did not appear" >&2; return 1; }
	echo 4096 >/sys/block/nullb0/queue/max_sectors_kb || return 1
	echo nullb0
}

# slab_peak FILE CMD...: run CMD, reading /proc/slabinfo while it runs, and
# keep in FILE the snapshot with the most sg pool objects (sgpool-*,
# sgring-*) in use.  Fails if CMD fails or no snapshot was taken.
slab_peak() {
	local file=$1 pid n best=-1
	shift
	"$@" &
	pid=$!
	while [ -d /proc/$pid ]; do
		cat /proc/slabinfo >"$file.cur" || break
		n=$(awk '$1 ~ /^sg(pool|ring)-/ {s += $2} END {print s + 0}' "$file.cur")
		if [ "$n" -gt "$best" ]; then best=$n; mv "$file.cur" "$file"; fi
		sleep 0.02
	done
	rm -f "$file.cur"
	wait $pid || return 1
	[ -f "$file" ]
}

# inflight_peak PREFIX DISK CMD...: run CMD, reading the disk's commands in
# flight (/sys/block/DISK/inflight: reads and writes) around each copy of
# /proc/slabinfo while it runs, and keep the snapshot with the most
# commands in flight as PREFIX.slabinfo, that count (the lower of the two
# reads around it) as PREFIX.inflight.  Fails if CMD fails or no snapshot
# was taken.
inflight_peak() {
	local pre=$1 disk=$2 pid r w n m best=-1
	shift 2
	"$@" &
	pid=$!
	while [ -d /proc/$pid ]; do
		read -r r w </sys/block/$disk/inflight || break
		n=$((r + w))
		cat /proc/slabinfo >"$pre.cur" || break
		read -r r w </sys/block/$disk/inflight || break
		m=$((r + w))
		[ $m -lt $n ] && n=$m
		if [ $n -gt $best ]; then best=$n; mv "$pre.cur" "$pre.slabinfo"; echo $n >"$pre.inflight"; fi
		sleep 0.02
	done
	rm -f "$pre.cur"
	wait $pid || return 1
	[ -f "$pre.slabinfo" ]
}

# qdisk HBA [cd]: wait for the disk (or, with cd, the CD-ROM) qemu/run.sh -d
# attached to HBA (found by its SCSI host's driver, and for megasas and
# megasas-gen2 by the PCI device id), raise its max_sectors_kb to 4096 (or
# the HBA's max_hw_sectors_kb if lower) and print the disk's name.
qdisk() {
	local drv i=0 h d= hw pci= pat=sd
	[ "${2:-}" = cd ] && pat=sr
	case $1 in
	virtio) drv=virtio_scsi ;;
	pvscsi) drv=vmw_pvscsi ;;
	megasas) drv=megaraid_sas pci=0x0060 ;;
	megasas-gen2) drv=megaraid_sas pci=0x0079 ;;
	mptsas) drv=mptsas ;;
	lsi) drv=sym53c8xx ;;
	am53c974) drv="(null)" pci=0x2020 ;; # esp_scsi sets no proc_name
	ahci) drv=ahci ;;
	ide) drv=ata_piix ;;
	usb) drv=usb-storage ;;
	*) echo "qdisk: unknown HBA '$1' (see qemu/run.sh -d)" >&2; return 1 ;;
	esac
	while [ $i -lt 300 ]; do
		for h in /sys/class/scsi_host/host*; do
			[ "$(cat $h/proc_name 2>/dev/null)" = "$drv" ] || continue
			[ -z "$pci" ] || [ "$(cat $h/device/../device 2>/dev/null)" = "$pci" ] || continue
			for d in $h/device/target*/*/block/$pat*; do
				[ -e "$d" ] && break 3
			done
		done
		d=
		i=$((i + 1))
		sleep 0.1
	done
	[ -n "$d" ] || { echo "no $drv ${2:-disk} appeared within 30 s (did qemu/run.sh get -d $1=...?)" >&2; return 1; }
	d=$(basename "$d")
	i=0
	while [ ! -b /dev/$d ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	hw=$(cat /sys/block/$d/queue/max_hw_sectors_kb)
	[ "$hw" -gt 4096 ] && hw=4096
	echo "$hw" >/sys/block/$d/queue/max_sectors_kb || return 1
	echo "$d"
}

# settle: wait until the kernel runs on its final clocksource (tsc, which it
# switches to about a second after boot, with the tick leaving periodic
# mode on the next tick).  Before that, every timer interrupt costs
# differently, so a plan that counts instructions (bench/attrib.sh,
# tests/plugin.sh) starts measuring only after it.  Under icount the wait
# itself is the same every boot.
settle() {
	local i=0 cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
	while ! grep -qx tsc $cs && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	grep -qx tsc $cs || { echo "settle: the clocksource is still $(cat $cs) after 10 s" >&2; return 1; }
	sleep 0.1
}
