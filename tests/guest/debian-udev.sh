#!/bin/bash
# Debian userspace (guest plan, debian image): systemd-udevd runs, a
# scsi_debug disk gets its persistent /dev/disk links from udev's own rules,
# and util-linux sees it.  Judged by tests/run.sh from the files in $SGB_OUT.
set -e
/lib/systemd/systemd-udevd --daemon
modprobe scsi_debug dev_size_mb=16 delay=0
udevadm trigger --action=add
udevadm settle --timeout=60
ls -l /dev/disk/by-id/ /dev/disk/by-path/ >"$SGB_OUT/disk-links" 2>&1 || true
lsblk -d -n -o NAME,SIZE,MODEL >"$SGB_OUT/lsblk"
bash --version | head -n 1 >"$SGB_OUT/bash-version"
udevadm info --query=property --name=/dev/sda >"$SGB_OUT/udev-sda"
