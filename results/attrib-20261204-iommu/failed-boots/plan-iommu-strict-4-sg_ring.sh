#!/bin/sh
. "$SGB_LIB"
set -e
disk=$(qdisk pvscsi)
q=/sys/block/$disk/queue
for f in max_sectors_kb max_hw_sectors_kb max_segments max_segment_size logical_block_size; do echo "$f $(cat $q/$f)"; done >"$SGB_OUT/queue-limits"
pci=$(readlink -f /sys/block/$disk/device)
pci=${pci%%/host*}
type=$(cat $pci/iommu_group/type)
{ echo "pci_device ${pci##*/}"; echo "iommu_group_type $type"; echo "cmdline $(cat /proc/cmdline)"; dmesg | grep -E "DMAR|iommu|IOMMU" || true; } >"$SGB_OUT/iommu-state"
[ "$type" = DMA ] || { echo "the HBA's IOMMU domain is '$type', iommu-strict wants DMA" >&2; exit 1; }
cp /proc/kallsyms "$SGB_OUT/kallsyms"
settle
fio --name=randread-4k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --randseed=1 --output-format=json --number_ios=125 --output=/tmp/randread-4k-qd1-warm1.json
fio --name=randread-4k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --randseed=1 --output-format=json --number_ios=125 --output=/tmp/randread-4k-qd1-warm2.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-4k-qd1-stat
fio --name=randread-4k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --randseed=1 --output-format=json --number_ios=500 --output=$SGB_OUT/randread-4k-qd1-n.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-4k-qd1-stat
fio --name=randread-4k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --randseed=1 --output-format=json --number_ios=1000 --output=$SGB_OUT/randread-4k-qd1-2n.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-4k-qd1-stat
echo 'randread-4k-qd1 500' >>"$SGB_OUT/attrib-points"
fio --name=randread-64k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=64k --iodepth=1 --randseed=1 --output-format=json --number_ios=63 --output=/tmp/randread-64k-qd1-warm1.json
fio --name=randread-64k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=64k --iodepth=1 --randseed=1 --output-format=json --number_ios=63 --output=/tmp/randread-64k-qd1-warm2.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-64k-qd1-stat
fio --name=randread-64k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=64k --iodepth=1 --randseed=1 --output-format=json --number_ios=250 --output=$SGB_OUT/randread-64k-qd1-n.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-64k-qd1-stat
fio --name=randread-64k-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=64k --iodepth=1 --randseed=1 --output-format=json --number_ios=500 --output=$SGB_OUT/randread-64k-qd1-2n.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-64k-qd1-stat
echo 'randread-64k-qd1 250' >>"$SGB_OUT/attrib-points"
fio --name=randread-1M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=1M --iodepth=1 --randseed=1 --output-format=json --number_ios=13 --output=/tmp/randread-1M-qd1-warm1.json
fio --name=randread-1M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=1M --iodepth=1 --randseed=1 --output-format=json --number_ios=13 --output=/tmp/randread-1M-qd1-warm2.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-1M-qd1-stat
fio --name=randread-1M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=1M --iodepth=1 --randseed=1 --output-format=json --number_ios=50 --output=$SGB_OUT/randread-1M-qd1-n.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-1M-qd1-stat
fio --name=randread-1M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=1M --iodepth=1 --randseed=1 --output-format=json --number_ios=100 --output=$SGB_OUT/randread-1M-qd1-2n.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-1M-qd1-stat
echo 'randread-1M-qd1 50' >>"$SGB_OUT/attrib-points"
fio --name=randread-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4M --iodepth=1 --randseed=1 --output-format=json --number_ios=7 --output=/tmp/randread-4M-qd1-warm1.json
fio --name=randread-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4M --iodepth=1 --randseed=1 --output-format=json --number_ios=7 --output=/tmp/randread-4M-qd1-warm2.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-4M-qd1-stat
fio --name=randread-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4M --iodepth=1 --randseed=1 --output-format=json --number_ios=25 --output=$SGB_OUT/randread-4M-qd1-n.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-4M-qd1-stat
fio --name=randread-4M-qd1 --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=4M --iodepth=1 --randseed=1 --output-format=json --number_ios=50 --output=$SGB_OUT/randread-4M-qd1-2n.json
sync
echo "$(block_stat $disk)" >>$SGB_OUT/randread-4M-qd1-stat
echo 'randread-4M-qd1 25' >>"$SGB_OUT/attrib-points"
