#!/bin/sh
. "$SGB_LIB"
set -e
disk=$(qdisk pvscsi)
pci=$(readlink -f /sys/block/$disk/device)
pci=${pci%%/host*}
echo "iommu_group_type $(cat $pci/iommu_group/type)" >"$SGB_OUT/iommu-state"
fio --name=v --filename=/dev/$disk --direct=1 --ioengine=io_uring --rw=randread --bs=64k --iodepth=1 --number_ios=50 --output-format=json --output=$SGB_OUT/smoke.json
echo ok >"$SGB_OUT/smoke-ok"
