#!/bin/sh
# Functional smoke test (guest plan): scsi_debug loads, its disk appears,
# fio writes and verifies (crc32c) with direct I/O at 4k..4M; 1M and 4M
# requests carry 256 and 1024 segments (scsi_debug's clustering=0 keeps every
# page its own segment), i.e. more than one 128-entry chunk.  Results are
# files in $SGB_OUT, judged on the host by tests/check_guest.py.
. "$SGB_LIB"
set -e
# the KUnit suites of the sg_api module (a module: its DMA-failure case
# provokes a dma-direct WARN, which must not taint every other boot):
# sg_api, in the sg_ring kernel also sg_ring_blk, in the dma_iter kernel
# also sg_dma_iter and sg_dma_iter_diff.  A prefix of the
# sg_ring series before the patch that adds them has no such module
# (common/check-patches.sh); tests/check_guest.py fails every suite a kernel
# must run and did not.
mkdir -p "$SGB_OUT/kunit"
if modprobe sg_api_kunit; then
	for d in /sys/kernel/debug/kunit/sg_*/; do
		s=$(basename "$d")
		cat "$d/results" >"$SGB_OUT/kunit/$s.ktap"
	done
	rmmod sg_api_kunit
fi
disk=$(sd_load dev_size_mb=64 delay=0)
echo "$disk" >"$SGB_OUT/smoke.disk"
cat /sys/block/$disk/queue/max_sectors_kb >"$SGB_OUT/smoke.max_sectors_kb"
for bs in 4k 64k 1M 4M; do
	before=$(block_stat "$disk")
	fio --name=verify-$bs --filename=/dev/$disk --direct=1 --ioengine=io_uring \
		--iodepth=4 --rw=write --bs=$bs --size=32M --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output-format=json \
		--output="$SGB_OUT/fio-verify-$bs.json"
	echo "$before $(block_stat "$disk")" >"$SGB_OUT/stat-$bs"
done
rmmod scsi_debug
