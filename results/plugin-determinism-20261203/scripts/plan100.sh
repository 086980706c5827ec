#!/bin/sh
. "$SGB_SHARE/lib.sh"
set -e
disk=$(sd_load dev_size_mb=64 delay=0 fake_rw=1)
cp /proc/kallsyms "$SGB_OUT/kallsyms"
fio --name=p --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --randseed=1 --output-format=json --number_ios=10 --output=/tmp/warm.json
sync
fio --name=p --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --randseed=1 --output-format=json --number_ios=100 --output=/tmp/n.json
sync
fio --name=p --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --randseed=1 --output-format=json --number_ios=200 --output=/tmp/2n.json
sync
echo 'randread-4k-qd1 100' >"$SGB_OUT/attrib-points"
