#!/bin/sh
# IOMMU run (guest plan, busybox sh) on a debug kernel booted by
# tests/reliability/run.sh with qemu/run.sh -I (q35, QEMU's intel-iommu,
# intel_iommu=on iommu.strict=1) and -d HBA=file,... for the adapters in
# sgb.hbas= (e.g. virtio,megasas,ahci,mptsas; virtio-scsi is then a modern
# device with iommu_platform=on, so it maps through the DMA API too).
#
# Per adapter: its PCI device must sit in an IOMMU group whose default
# domain translates, strictly (type "DMA", not "DMA-FQ" or "identity").
# max_sectors_kb is raised to the adapter's limit (at most 8 MiB), the page
# allocator is shuffled (page_alloc.shuffle=1), and fio writes and verifies
# (crc32c, direct I/O, io_uring, iodepth 4: commands in flight together)
# at 4k up to 8M.  fio's buffers still merge into few segments (128 at
# most in the 2026-12-04 run), so scatterio (common/image/scatterio.c:
# every page of its buffers a segment of its own) then writes and reads
# back commands of exactly 1, 2, 127, 128, 129, 256 and LIMIT segments,
# LIMIT = min(max_segments, max_sectors_kb / 4), those not above LIMIT:
# across the 128-entry boundary of a chain or ring array, up to the most
# the adapter takes (virtio-scsi 1022 with virtqueue_size=1024; megasas,
# ahci and mptsas fewer).  The scsi_dispatch_cmd_start tracepoint (data_sgl)
# must show exactly that many segments.
# After each scenario the IOVA space must be back at its baseline:
#   - the IOMMU's page table of the device's domain, read from
#     /sys/kernel/debug/iommu/intel/domain_translation_struct (one line per
#     present leaf entry: 6.1 exposes no IOVA allocator counts), and
#   - DMA-API debugging's entries in use (nr_total_entries -
#     num_free_entries in /sys/kernel/debug/dma-api), every mapping of
#     every device;
# and the iommu:map and iommu:unmap tracepoints over the run must show
# mappings (the data went through the IOMMU) and as many bytes unmapped as
# were mapped; on every adapter but virtio-scsi (which maps entry by
# entry), no more IOVA ranges unmapped than commands: one range a command.  (The page table is read only while no I/O runs: 6.1's
# debugfs walk races with the freeing of page-table pages in iommu_unmap(),
# as its own comment says.)
# One line per check in $SGB_OUT/results.tsv; figures in figures.tsv
# (scenario<TAB>key<TAB>value); fio JSON as int-iommu-*.json; $SGB_OUT/complete
# is written last.
. "$SGB_LIB"
res=$SGB_OUT/results.tsv fig=$SGB_OUT/figures.tsv
: >"$res"
: >"$fig"
check() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$res"; }
figure() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$fig"; }
log() { echo "== $(cut -d' ' -f1 /proc/uptime)s $*"; }
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^sgb\.$1=//p" | tr , ' '; }
dts=/sys/kernel/debug/iommu/intel/domain_translation_struct
dapi=/sys/kernel/debug/dma-api
# ptes PCI-DEVICE: present leaf entries of the device's page table
ptes() {
	awk -v d="Device $1 " '
	/^Device / { on = index($0, d) == 1 }
	on && /^0x[0-9a-f]+ \|/ { n++ }
	END { print n + 0 }' $dts
}
dma_in_use() { echo $(($(cat $dapi/nr_total_entries) - $(cat $dapi/num_free_entries))); }
ranges=$SGB_OUT/iova-ranges.txt
: >"$ranges"
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
echo 8192 >$T/buffer_size_kb
echo 1 >$T/events/scsi/scsi_dispatch_cmd_start/enable
echo 1 >$T/events/iommu/map/enable
echo 1 >$T/events/iommu/unmap/enable
# iova: "maps bytes_mapped unmaps bytes_unmapped" of the IOMMU since the last clear
iova() {
	awk '/ map: IOMMU:/ { for (i = 1; i <= NF; i++) if ($i ~ /^size=/) { m++; mb += substr($i, 6) } }
	/ unmap: IOMMU:/ { for (i = 1; i <= NF; i++) if ($i ~ /^unmapped_size=/) { u++; ub += substr($i, 15) } }
	END { printf "%d %d %d %d\n", m, mb, u, ub }' $T/trace
}
overruns() { cat $T/per_cpu/cpu*/stats | awk '/^overrun:/ {n += $2} END {print n + 0}'; }

# judge NAME WANT: the checks after one scenario of adapter $hba (host
# $host, PCI device $pci, baselines $pte0 and $dma0), its I/O done:
# the most segments of a command (exactly WANT, or any if WANT is -),
# bytes unmapped = bytes mapped, and the page table and DMA-API
# debugging's entries back at their baseline
judge() {
	set -- "$1" "$2" $(scsi_segs $host) $(iova)
	local name=$1 want=$2 cmds=$3 most=$4 lost pte dma why
	lost=$(overruns)
	# every IOVA range mapped in this scenario, for the DMAR fault check
	awk '/ map: IOMMU:/ { for (i = 1; i <= NF; i++) if ($i ~ /^iova=/) print substr($i, 8), substr($(i + 2), 3) }' \
		$T/trace >>"$ranges"
	n=$((n + 1))
	figure "$hba/$name" commands $cmds
	figure "$hba/$name" max_segments $most
	figure "$hba/$name" iommu_maps $5
	figure "$hba/$name" iommu_bytes_mapped $6
	figure "$hba/$name" iommu_bytes_unmapped $8
	[ "$5" -gt 0 ] && grew=$((grew + 1))
	if [ "$want" != - ]; then
		why="$cmds commands, at most $most segments; want $want"
		[ "$cmds" -gt 0 ] && [ "$most" -eq "$want" ] &&
			check "$hba/segments-$name" passed "$why" ||
			check "$hba/segments-$name" failed "$why"
	fi
	why="$5 maps of $6 bytes, $7 unmaps of $8 bytes"
	if [ "$lost" -ne 0 ]; then
		check "$hba/iova-unmapped-as-mapped-$name" failed "$why, but the trace lost $lost events: not judged"
	elif [ "$5" -gt 0 ] && [ "$6" -eq "$8" ]; then
		check "$hba/iova-unmapped-as-mapped-$name" passed "$why"
	else
		check "$hba/iova-unmapped-as-mapped-$name" failed "$why"
	fi
	# a command is one IOVA range, unmapped by one iommu_unmap() (one
	# unmap event in strict mode), on both kernels: 6.1 maps a chained
	# list at once and dma-iommu's map_sg_ring a whole ring (an sg_ring
	# that mapped array by array unmapped 2 ranges for a command of more
	# than the 2 entries of its inline head).  virtio-scsi maps each
	# entry with dma_map_page(), so it has an unmap per segment.
	if [ "$hba" != virtio ]; then
		why="$7 IOVA ranges unmapped for $cmds commands"
		[ "$7" -gt 0 ] && [ "$7" -le "$cmds" ] &&
			check "$hba/one-iova-range-per-command-$name" passed "$why" ||
			check "$hba/one-iova-range-per-command-$name" failed "$why"
	fi
	pte=$(ptes $pci) dma=$(dma_in_use)
	figure "$hba/$name" pte_after $pte
	figure "$hba/$name" dma_api_after $dma
	why="page table $pte0 -> $pte entries; DMA-API entries in use $dma0 -> $dma; at most $most segments per command"
	[ "$pte" -eq "$pte0" ] && [ "$dma" -eq "$dma0" ] &&
		check "$hba/iova-back-to-baseline-$name" passed "$why" ||
		check "$hba/iova-back-to-baseline-$name" failed "$why"
}
log iommu
if [ -d /sys/class/iommu ] && [ -n "$(ls /sys/class/iommu)" ]; then
	check iommu/active passed "$(ls /sys/class/iommu | tr '\n' ' ')"
else
	check iommu/active failed "no /sys/class/iommu/*: the kernel found no DMAR (intel_iommu=on, -I, CONFIG_INTEL_IOMMU?)"
fi
[ -r $dts ] || check iommu/debugfs failed "no $dts (CONFIG_INTEL_IOMMU_DEBUGFS)"
[ -d $dapi ] || check iommu/dma-api-debug failed "no $dapi (CONFIG_DMA_API_DEBUG)"

for hba in $(arg hbas); do
	log "$hba"
	if ! disk=$(qdisk $hba 2>"$SGB_OUT/$hba.err"); then
		check "$hba/disk-appears" failed "$(cat "$SGB_OUT/$hba.err")"
		continue
	fi
	host=$(basename "$(readlink /sys/block/$disk/device)" | cut -d: -f1)
	# the PCI device: the nearest ancestor of the SCSI host in an IOMMU group
	p=$(readlink -f /sys/class/scsi_host/host$host/device)
	while [ "$p" != / ] && [ ! -e "$p/iommu_group" ]; do p=${p%/*}; done
	if [ ! -e "$p/iommu_group" ]; then
		check "$hba/iommu-group" failed "no ancestor of host$host has an iommu_group: its DMA bypasses the IOMMU"
		continue
	fi
	pci=${p##*/}
	type=$(cat "$p/iommu_group/type")
	[ "$type" = DMA ] && check "$hba/iommu-group" passed "$pci in group $(basename "$(readlink "$p/iommu_group")"), type $type (strict)" ||
		check "$hba/iommu-group" failed "$pci: domain type '$type', not DMA (strict translation)"
	q=/sys/block/$disk/queue
	hw=$(cat $q/max_hw_sectors_kb)
	[ "$hw" -gt 8192 ] && hw=8192
	echo "$hw" >$q/max_sectors_kb
	limits="max_segments $(cat $q/max_segments), max_sectors_kb $(cat $q/max_sectors_kb), max_segment_size $(cat $q/max_segment_size)"
	check "$hba/disk-appears" passed "$disk on host$host ($pci): $limits"
	pte0=$(ptes $pci) dma0=$(dma_in_use)
	figure "$hba" pte_baseline $pte0
	figure "$hba" dma_api_baseline $dma0
	grew=0 n=0
	# fio: commands in flight together, from fio's (merging) buffers
	for bs in 4k 64k 512k 1M 4M 8M; do
		size=4M
		[ $bs = 8M ] && size=16M
		echo >$T/trace
		if fio --name=iommu-$hba-$bs --filename=/dev/$disk --direct=1 --ioengine=io_uring \
			--iodepth=4 --rw=write --bs=$bs --size=$size --verify=crc32c \
			--do_verify=1 --verify_fatal=1 --output-format=json \
			--output="$SGB_OUT/int-iommu-$hba-$bs.json" >"$SGB_OUT/iommu-$hba-$bs.err" 2>&1; then
			check "$hba/verify-$bs" passed "$size written and read back, crc32c"
		else
			check "$hba/verify-$bs" failed "fio verify failed (see iommu-$hba-$bs.err)"
		fi
		judge "$bs" -
	done
	# scatterio: commands of exactly N segments (one page each, no two
	# physically adjacent), from 1 to the most the adapter takes, across
	# the 128-entry array (chain or ring) boundary
	lim=$(cat $q/max_segments)
	[ $((hw / 4)) -lt "$lim" ] && lim=$((hw / 4))
	figure "$hba" segment_limit $lim
	off=64 ran=
	for nseg in 1 2 127 128 129 256 $lim; do
		[ "$nseg" -le "$lim" ] || continue
		case " $ran " in *" $nseg "*) continue ;; esac
		ran="$ran $nseg"
		echo >$T/trace
		if out=$(scatterio /dev/$disk $((nseg * 4))k $((nseg * 16))k ${off}M 2>&1); then
			check "$hba/scatterio-$nseg" passed "scatterio: $out"
		else
			check "$hba/scatterio-$nseg" failed "scatterio: $out"
		fi
		off=$((off + nseg / 64 + 1))
		judge "scatter-$nseg" "$nseg"
	done
	[ $grew -eq $n ] && check "$hba/mapped-through-iommu" passed "iommu:map events during all $n scenarios" ||
		check "$hba/mapped-through-iommu" failed "iommu:map events during only $grew of $n scenarios"
done
# DMAR faults: a device reached an IOVA its domain had no entry for.  At
# an IOVA a scenario had mapped, that is DMA after the unmap (or before the
# map): a use-after-unmap, the bug class this run is for.  At an IOVA
# nothing ever mapped, the device made up the address: QEMU 7.2's
# virtio-scsi with iommu_platform=on writes at 0x7c0 and 0x17c0 now and
# then after a used-ring flush, on both kernels, its data verifying.
# Only the faults the kernel logged are judged: dmar_fault() is rate
# limited, and the suppressed ones are counted, not seen.
log dmar
dmesg | awk '/DMAR: \[DMA / && / fault addr / {
	for (i = 1; i < NF; i++) { if ($i == "device") d = $(i + 1); if ($i == "addr") a = $(i + 1) }
	gsub(/[][]/, "", d); print d, a }' >"$SGB_OUT/dmar-faults.txt"
supp=$(dmesg | awk '/dmar_fault: [0-9]+ callbacks suppressed/ { for (i = 1; i < NF; i++) if ($i == "dmar_fault:") n += $(i + 1) } END { print n + 0 }')
nf=0 bad= seen=
while read -r dev addr; do
	nf=$((nf + 1))
	a=$(printf '%016x' $((addr)))
	in=$(awk -v a="$a" '$1 <= a && a < $2 { print $1 "-" $2; exit }' "$ranges")
	[ -z "$in" ] || bad="$bad $dev@$addr (mapped at $in)"
	case " $seen " in *" $dev@$addr "*) ;; *) seen="$seen $dev@$addr" ;; esac
done <"$SGB_OUT/dmar-faults.txt"
figure iommu dmar_faults $nf
figure iommu dmar_faults_suppressed $supp
figure iommu iova_ranges_mapped $(wc -l <"$ranges")
why="$nf DMAR faults logged ($supp more suppressed by the rate limit, not judged), against $(wc -l <"$ranges") IOVA ranges mapped"
if [ -n "$bad" ]; then
	check iommu/no-dma-at-a-mapped-iova failed "$why; at an IOVA a scenario had mapped:$bad"
elif [ $nf -gt 0 ]; then
	check iommu/no-dma-at-a-mapped-iova passed "$why; none at an IOVA any scenario mapped:$seen"
else
	check iommu/no-dma-at-a-mapped-iova passed "$why"
fi
log done
echo iommu >"$SGB_OUT/complete"
exit 0
