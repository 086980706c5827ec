#!/bin/sh
echo 1 >"$SGB_SHARE/seed"
. "$SGB_SHARE/lib.sh"
set -e
disk=$(sd_load dev_size_mb=1024 delay=0 fake_rw=1)
seed=$(cat "$SGB_SHARE/seed")
cp /proc/kallsyms "$SGB_OUT/kallsyms"
if [ "$seed" = 1 ] && modprobe sg_api_bench 2>/dev/null; then cp /sys/kernel/debug/sg_api_bench/results.json "$SGB_OUT/microbench.json"; rmmod sg_api_bench; fi
head -n 1 /proc/stat >$SGB_OUT/read-1M-qd1.stat0
block_stat $disk >$SGB_OUT/read-1M-qd1.blockstat0
fio --name=read-1M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=1M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/read-1M-qd1.json
head -n 1 /proc/stat >$SGB_OUT/read-1M-qd1.stat1
block_stat $disk >$SGB_OUT/read-1M-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/write-64k-qd32.stat0
block_stat $disk >$SGB_OUT/write-64k-qd32.blockstat0
fio --name=write-64k-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=64k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/write-64k-qd32.json
head -n 1 /proc/stat >$SGB_OUT/write-64k-qd32.stat1
block_stat $disk >$SGB_OUT/write-64k-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/write-64k-qd1.stat0
block_stat $disk >$SGB_OUT/write-64k-qd1.blockstat0
fio --name=write-64k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=64k --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/write-64k-qd1.json
head -n 1 /proc/stat >$SGB_OUT/write-64k-qd1.stat1
block_stat $disk >$SGB_OUT/write-64k-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/read-4M-qd1.stat0
block_stat $disk >$SGB_OUT/read-4M-qd1.blockstat0
fio --name=read-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=4M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/read-4M-qd1.json
head -n 1 /proc/stat >$SGB_OUT/read-4M-qd1.stat1
block_stat $disk >$SGB_OUT/read-4M-qd1.blockstat
[ "$seed" != 1 ] || slab_peak $SGB_OUT/read-4M-qd1.slabinfo fio --name=read-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=4M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null
head -n 1 /proc/stat >$SGB_OUT/read-64k-qd1.stat0
block_stat $disk >$SGB_OUT/read-64k-qd1.blockstat0
fio --name=read-64k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=64k --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/read-64k-qd1.json
head -n 1 /proc/stat >$SGB_OUT/read-64k-qd1.stat1
block_stat $disk >$SGB_OUT/read-64k-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/write-4k-qd1.stat0
block_stat $disk >$SGB_OUT/write-4k-qd1.blockstat0
fio --name=write-4k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=4k --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/write-4k-qd1.json
head -n 1 /proc/stat >$SGB_OUT/write-4k-qd1.stat1
block_stat $disk >$SGB_OUT/write-4k-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/randread-1M-qd32.stat0
block_stat $disk >$SGB_OUT/randread-1M-qd32.blockstat0
fio --name=randread-1M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=1M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randread-1M-qd32.json
head -n 1 /proc/stat >$SGB_OUT/randread-1M-qd32.stat1
block_stat $disk >$SGB_OUT/randread-1M-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/write-1M-qd32.stat0
block_stat $disk >$SGB_OUT/write-1M-qd32.blockstat0
fio --name=write-1M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=1M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/write-1M-qd32.json
head -n 1 /proc/stat >$SGB_OUT/write-1M-qd32.stat1
block_stat $disk >$SGB_OUT/write-1M-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/read-1M-qd32.stat0
block_stat $disk >$SGB_OUT/read-1M-qd32.blockstat0
fio --name=read-1M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=1M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/read-1M-qd32.json
head -n 1 /proc/stat >$SGB_OUT/read-1M-qd32.stat1
block_stat $disk >$SGB_OUT/read-1M-qd32.blockstat
perf record -q -a -g -e cpu-clock -F 4999 -o /tmp/read-1M-qd32.perf.data -- fio --name=read-1M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=1M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null >/dev/null 2>&1
perf report -q -i /tmp/read-1M-qd32.perf.data --stdio --no-children --sort sym -g none --percent-limit 0.3 >$SGB_OUT/read-1M-qd32.perf.txt 2>/dev/null
mv /tmp/read-1M-qd32.perf.data $SGB_OUT/read-1M-qd32.perf.data
head -n 1 /proc/stat >$SGB_OUT/randwrite-4k-qd1.stat0
block_stat $disk >$SGB_OUT/randwrite-4k-qd1.blockstat0
fio --name=randwrite-4k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=4k --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randwrite-4k-qd1.json
head -n 1 /proc/stat >$SGB_OUT/randwrite-4k-qd1.stat1
block_stat $disk >$SGB_OUT/randwrite-4k-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/randread-4M-qd1.stat0
block_stat $disk >$SGB_OUT/randread-4M-qd1.blockstat0
fio --name=randread-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randread-4M-qd1.json
head -n 1 /proc/stat >$SGB_OUT/randread-4M-qd1.stat1
block_stat $disk >$SGB_OUT/randread-4M-qd1.blockstat
[ "$seed" != 1 ] || slab_peak $SGB_OUT/randread-4M-qd1.slabinfo fio --name=randread-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null
head -n 1 /proc/stat >$SGB_OUT/randwrite-1M-qd1.stat0
block_stat $disk >$SGB_OUT/randwrite-1M-qd1.blockstat0
fio --name=randwrite-1M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=1M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randwrite-1M-qd1.json
head -n 1 /proc/stat >$SGB_OUT/randwrite-1M-qd1.stat1
block_stat $disk >$SGB_OUT/randwrite-1M-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/randread-4k-qd32.stat0
block_stat $disk >$SGB_OUT/randread-4k-qd32.blockstat0
fio --name=randread-4k-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randread-4k-qd32.json
head -n 1 /proc/stat >$SGB_OUT/randread-4k-qd32.stat1
block_stat $disk >$SGB_OUT/randread-4k-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/write-4k-qd32.stat0
block_stat $disk >$SGB_OUT/write-4k-qd32.blockstat0
fio --name=write-4k-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=4k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/write-4k-qd32.json
head -n 1 /proc/stat >$SGB_OUT/write-4k-qd32.stat1
block_stat $disk >$SGB_OUT/write-4k-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/randwrite-64k-qd1.stat0
block_stat $disk >$SGB_OUT/randwrite-64k-qd1.blockstat0
fio --name=randwrite-64k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=64k --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randwrite-64k-qd1.json
head -n 1 /proc/stat >$SGB_OUT/randwrite-64k-qd1.stat1
block_stat $disk >$SGB_OUT/randwrite-64k-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/write-4M-qd1.stat0
block_stat $disk >$SGB_OUT/write-4M-qd1.blockstat0
fio --name=write-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=4M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/write-4M-qd1.json
head -n 1 /proc/stat >$SGB_OUT/write-4M-qd1.stat1
block_stat $disk >$SGB_OUT/write-4M-qd1.blockstat
[ "$seed" != 1 ] || slab_peak $SGB_OUT/write-4M-qd1.slabinfo fio --name=write-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=4M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null
head -n 1 /proc/stat >$SGB_OUT/randwrite-1M-qd32.stat0
block_stat $disk >$SGB_OUT/randwrite-1M-qd32.blockstat0
fio --name=randwrite-1M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=1M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randwrite-1M-qd32.json
head -n 1 /proc/stat >$SGB_OUT/randwrite-1M-qd32.stat1
block_stat $disk >$SGB_OUT/randwrite-1M-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/randwrite-4k-qd32.stat0
block_stat $disk >$SGB_OUT/randwrite-4k-qd32.blockstat0
fio --name=randwrite-4k-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=4k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randwrite-4k-qd32.json
head -n 1 /proc/stat >$SGB_OUT/randwrite-4k-qd32.stat1
block_stat $disk >$SGB_OUT/randwrite-4k-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/read-64k-qd32.stat0
block_stat $disk >$SGB_OUT/read-64k-qd32.blockstat0
fio --name=read-64k-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=64k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/read-64k-qd32.json
head -n 1 /proc/stat >$SGB_OUT/read-64k-qd32.stat1
block_stat $disk >$SGB_OUT/read-64k-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/randwrite-64k-qd32.stat0
block_stat $disk >$SGB_OUT/randwrite-64k-qd32.blockstat0
fio --name=randwrite-64k-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=64k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randwrite-64k-qd32.json
head -n 1 /proc/stat >$SGB_OUT/randwrite-64k-qd32.stat1
block_stat $disk >$SGB_OUT/randwrite-64k-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/read-4k-qd1.stat0
block_stat $disk >$SGB_OUT/read-4k-qd1.blockstat0
fio --name=read-4k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=4k --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/read-4k-qd1.json
head -n 1 /proc/stat >$SGB_OUT/read-4k-qd1.stat1
block_stat $disk >$SGB_OUT/read-4k-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/read-4k-qd32.stat0
block_stat $disk >$SGB_OUT/read-4k-qd32.blockstat0
fio --name=read-4k-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=4k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/read-4k-qd32.json
head -n 1 /proc/stat >$SGB_OUT/read-4k-qd32.stat1
block_stat $disk >$SGB_OUT/read-4k-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/randread-4M-qd32.stat0
block_stat $disk >$SGB_OUT/randread-4M-qd32.blockstat0
fio --name=randread-4M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randread-4M-qd32.json
head -n 1 /proc/stat >$SGB_OUT/randread-4M-qd32.stat1
block_stat $disk >$SGB_OUT/randread-4M-qd32.blockstat
[ "$seed" != 1 ] || slab_peak $SGB_OUT/randread-4M-qd32.slabinfo fio --name=randread-4M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null
head -n 1 /proc/stat >$SGB_OUT/randread-64k-qd1.stat0
block_stat $disk >$SGB_OUT/randread-64k-qd1.blockstat0
fio --name=randread-64k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=64k --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randread-64k-qd1.json
head -n 1 /proc/stat >$SGB_OUT/randread-64k-qd1.stat1
block_stat $disk >$SGB_OUT/randread-64k-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/randread-64k-qd32.stat0
block_stat $disk >$SGB_OUT/randread-64k-qd32.blockstat0
fio --name=randread-64k-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=64k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randread-64k-qd32.json
head -n 1 /proc/stat >$SGB_OUT/randread-64k-qd32.stat1
block_stat $disk >$SGB_OUT/randread-64k-qd32.blockstat
head -n 1 /proc/stat >$SGB_OUT/read-4M-qd32.stat0
block_stat $disk >$SGB_OUT/read-4M-qd32.blockstat0
fio --name=read-4M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/read-4M-qd32.json
head -n 1 /proc/stat >$SGB_OUT/read-4M-qd32.stat1
block_stat $disk >$SGB_OUT/read-4M-qd32.blockstat
[ "$seed" != 1 ] || slab_peak $SGB_OUT/read-4M-qd32.slabinfo fio --name=read-4M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=read --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null
head -n 1 /proc/stat >$SGB_OUT/write-4M-qd32.stat0
block_stat $disk >$SGB_OUT/write-4M-qd32.blockstat0
fio --name=write-4M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/write-4M-qd32.json
head -n 1 /proc/stat >$SGB_OUT/write-4M-qd32.stat1
block_stat $disk >$SGB_OUT/write-4M-qd32.blockstat
[ "$seed" != 1 ] || slab_peak $SGB_OUT/write-4M-qd32.slabinfo fio --name=write-4M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null
head -n 1 /proc/stat >$SGB_OUT/randread-4k-qd1.stat0
block_stat $disk >$SGB_OUT/randread-4k-qd1.blockstat0
fio --name=randread-4k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randread-4k-qd1.json
head -n 1 /proc/stat >$SGB_OUT/randread-4k-qd1.stat1
block_stat $disk >$SGB_OUT/randread-4k-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/randread-1M-qd1.stat0
block_stat $disk >$SGB_OUT/randread-1M-qd1.blockstat0
fio --name=randread-1M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=1M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randread-1M-qd1.json
head -n 1 /proc/stat >$SGB_OUT/randread-1M-qd1.stat1
block_stat $disk >$SGB_OUT/randread-1M-qd1.blockstat
head -n 1 /proc/stat >$SGB_OUT/randwrite-4M-qd32.stat0
block_stat $disk >$SGB_OUT/randwrite-4M-qd32.blockstat0
fio --name=randwrite-4M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randwrite-4M-qd32.json
head -n 1 /proc/stat >$SGB_OUT/randwrite-4M-qd32.stat1
block_stat $disk >$SGB_OUT/randwrite-4M-qd32.blockstat
[ "$seed" != 1 ] || slab_peak $SGB_OUT/randwrite-4M-qd32.slabinfo fio --name=randwrite-4M-qd32 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null
head -n 1 /proc/stat >$SGB_OUT/randwrite-4M-qd1.stat0
block_stat $disk >$SGB_OUT/randwrite-4M-qd1.blockstat0
fio --name=randwrite-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=4M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/randwrite-4M-qd1.json
head -n 1 /proc/stat >$SGB_OUT/randwrite-4M-qd1.stat1
block_stat $disk >$SGB_OUT/randwrite-4M-qd1.blockstat
[ "$seed" != 1 ] || slab_peak $SGB_OUT/randwrite-4M-qd1.slabinfo fio --name=randwrite-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randwrite --bs=4M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=/dev/null
head -n 1 /proc/stat >$SGB_OUT/write-1M-qd1.stat0
block_stat $disk >$SGB_OUT/write-1M-qd1.blockstat0
fio --name=write-1M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=write --bs=1M --iodepth=1 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --lat_percentiles=1 --output-format=json+ --output=$SGB_OUT/write-1M-qd1.json
head -n 1 /proc/stat >$SGB_OUT/write-1M-qd1.stat1
block_stat $disk >$SGB_OUT/write-1M-qd1.blockstat
[ "$seed" = 1 ] || exit 0
nb=$(nullb_load)
fio --name=null-read-4k-qd32 --filename=/dev/$nb --direct=1 --ioengine=io_uring --rw=read --bs=4k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --output-format=json --output=$SGB_OUT/ceil-null-read-4k-qd32.json
fio --name=null-read-64k-qd32 --filename=/dev/$nb --direct=1 --ioengine=io_uring --rw=read --bs=64k --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --output-format=json --output=$SGB_OUT/ceil-null-read-64k-qd32.json
fio --name=null-read-1M-qd32 --filename=/dev/$nb --direct=1 --ioengine=io_uring --rw=read --bs=1M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --output-format=json --output=$SGB_OUT/ceil-null-read-1M-qd32.json
fio --name=null-read-4M-qd32 --filename=/dev/$nb --direct=1 --ioengine=io_uring --rw=read --bs=4M --iodepth=32 --time_based --runtime=300ms --ramp_time=100ms --randseed=$seed --output-format=json --output=$SGB_OUT/ceil-null-read-4M-qd32.json
perf bench mem memcpy -s 1MB -l 20 -f all >$SGB_OUT/ceil-memcpy.txt 2>&1
grep -m 1 "^flags" /proc/cpuinfo >$SGB_OUT/ceil-cpuflags.txt
