# guest-lib.sh - helpers for plans, copied into every run's share as lib.sh
# (sourced by plans in the guest: . "$SGB_SHARE/lib.sh"; busybox sh).

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
