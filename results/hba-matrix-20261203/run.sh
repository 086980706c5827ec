#!/bin/bash
# the host-adapter matrix of tests/run.sh --full (less megasas-gen2), on both
# kernels; needs make image
cd "$(dirname "$0")/../.."
out=build/hba-out; rm -rf $out; mkdir -p $out
boots="qemu-hba|mptsas=file,lsi=file,am53c974=file,ahci=file,usb=file,virtio=cd,ahci=cd,lsi=cd|mptsas,lsi,am53c974,ahci,usb|virtio,ahci,lsi
qemu-hba-megasas|megasas=file|megasas|
qemu-hba-ide|ide=file|ide|"
for v in sg_table sg_ring; do
	while IFS='|' read -r name disks hbas cds; do
		t0=$(date +%s)
		qemu/run.sh -v $v -p tests/guest/qemu-hba.sh -o $out/$v-$name -m tcg -t 900 \
			-d "$disks" -a "page_alloc.shuffle=1 sgb.hbas=$hbas sgb.cds=$cds" > $out/$v-$name.log 2>&1
		echo "$v $name rc=$? $(( $(date +%s) - t0 )) s $(cat $out/$v-$name/RESULT 2>/dev/null)"
	done <<<"$boots"
done
