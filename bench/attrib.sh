#!/bin/bash
# bench/attrib.sh - exact instructions per I/O by function and phase, both
# kernels side by side, from the insncount TCG plugin (qemu/plugin/).
#
# Environment (all optional):
#   DEVICES="fake real"   scsi_debug delay=0, with fake_rw=1 (no copy) / without;
#                         also the IOMMU class: iommu-strict, iommu-lazy, and
#                         megasas (the same disk without an IOMMU) (below);
#                         pvscsi (a disk on pvscsi, pc machine, no IOMMU)
#   POINTS="randread-4k-qd1 randread-64k-qd1 randread-1M-qd1 randread-4M-qd1"
#   VARIANTS              default: every directory under variants/
#   CACHE=1               also one boot per device and kernel with the cachesim
#                         plugin (the stated cache model; N/4 I/Os per run:
#                         the model costs a callback per instruction and per
#                         memory access); 0: not (the default)
#   KERNEL=normal | os    the kernels every other class boots: normal (the
#                         default, build/<variant>, -O2 as Debian builds 6.1)
#                         or os (build/<variant>-os, bench/os.config: the
#                         same kernel at -Os; make attrib builds them when
#                         the configuration says KERNEL=os)
#   IOMMU_KERNEL=iommu    the kernels the IOMMU class boots: iommu (the default,
#                         build/<variant>-iommu) or debug (build/<variant>-debug,
#                         common/debug.config: it has intel-iommu too, and
#                         KASAN, lockdep, kmemleak and DMA-API debugging, which
#                         inflate the instruction counts but not the calls)
#   IDLE=poll | halt      how the guest of the QEMU-disk classes waits for
#                         QEMU's I/O: spinning (idle=poll, the default) or hlt
#   SHUFFLE=0 | 1         1: boot with page_alloc.shuffle=1 (the kernels have
#                         CONFIG_SHUFFLE_PAGE_ALLOCATOR): the free lists are
#                         shuffled in blocks of the largest order (4 MiB), so
#                         which blocks fio's buffers come from is random but
#                         pages within a block stay together (a 128 KiB
#                         command had about 3 physical pieces on both kernels,
#                         results/attrib-20261205-iommu); 0 (the default):
#                         the boot's allocation history alone places them
#   DIV=1                 N divided by DIV for every point (fewer I/Os per run)
#   MUL=1                 N times MUL for every point (more I/Os per run, so
#                         an event that does not come with each I/O, such as
#                         a reseed of the kernel's RNG, weighs less per I/O;
#                         2N I/Os of each point must fit in scsi_debug's 1 GiB)
#   FILL_BS=4k            the block size of the one write, in random order, of
#                         fio's buffer file (plan()): 4k (the default) makes
#                         every page of a buffer its own bvec; 16k, 64k, 256k
#                         or 1M allocates that many pages at a time, so a
#                         buffer is runs of up to that many contiguous pages
#                         (what they were: ATTRIBUTION.md's bvecs per I/O)
#   EXACT=0 | 1           1: the insncount plugin with exact=on, and the fold
#                         takes each block's instructions from the
#                         instructions started in it (what ran of a block an
#                         exception or an MMIO access cut, which the block
#                         count has whole: about 20 per I/O on megasas,
#                         docs/attribution.md); 0 (the default): block counts
#   SEED=1                the boot set: QEMU's -seed of every boot (the guest's
#                         RDRAND, so its slab freelists, page shuffle and
#                         every other random choice of the boot) and fio's
#                         randseed (the buffer file's fill order and the
#                         I/O offsets).  Runs of two seeds are independent
#                         boot sets: the spread of sg_ring - sg_table over
#                         seeds is the between-boot resolution of the
#                         exact counts; one seed repeats byte for byte
#   PAR=1 | 2             the two kernels' boots one after another, or at once
#   RUN_ID=<name>         default: attrib-<date>; output results/<run-id>/
#                         (SGB_RESULTS=<dir> puts it under <dir> instead)
#   CONFIG=<name>         the settings of bench/configs/<name>.conf, a named
#                         configuration (make attrib CONFIG=<name>: one per
#                         kind of attribution run the reports link); a
#                         setting given in the environment wins over the file
#   ALLOW_DIRTY=1         run into results/ from a checkout with uncommitted
#                         changes (refused by default: require_committed_tree)
#
# One boot per device and kernel, in icount mode (one vCPU, one TCG thread;
# the guest's RDRAND seeded and its clock from a fixed date, see
# qemu/run.sh), with norandmaps (no address-space randomization in user
# space) and the plan run from the initramfs before the 9p share is mounted
# (qemu/run.sh -l): nothing in the guest waits on the host before the
# counts are taken, so they are the same on a rerun (tests/plugin.sh).
# The plan first waits for the kernel's final clocksource (settle in
# common/image/guest-lib.sh: until then the timer tick is periodic and
# costs differently).  fio's buffers are one tmpfs file, written once in
# random page order, that every fio run maps (plan(): the same pages in
# every run, and a bvec per page).  Per point it runs fio twice to warm up (the first runs
# of fio in a boot still change page state: folio_mark_accessed), then `sync`, fio for N I/Os,
# `sync`, fio for 2N I/Os, `sync`; the plugin snapshots every block's count
# when the guest enters sync(2) (mark= the address of __x64_sys_sync in the
# kernel's System.map), and bench/attrib.py folds (2N run - N run) / N onto
# functions (with the kernel's vmlinux: an instruction that crosses a page
# at the end of a block, which QEMU 7.2 reports twice, counts once).  N by
# block size (4k: 2000, 64k: 1000, 1M: 200, 4M: 100) keeps
# 2N I/Os inside scsi_debug's 1 GiB, so fio's random map never runs out.
#
# The IOMMU class (DEVICES=iommu-strict and/or iommu-lazy): each variant's
# iommu kernel (build/<variant>-iommu: bench/iommu.config, the normal
# configuration plus ACPI, MSI and intel-iommu; common/build.sh <variant>
# iommu, common/image/build.sh <variant> iommu) on q35 with QEMU's
# intel-iommu (qemu/run.sh -I), the disk a 1 GiB sparse raw file on
# megasas (QEMU's MegaRAID SAS 1078, an HBA that DMA-maps the data with
# scsi_dma_map(): sg_ring's megaraid_sas patch maps the ring with
# dma_map_sg_ring(), since series patches 0029-0030 into one IOVA allocation (one
# per array before), 6.1 the chained table in one dma_map_sg(); QEMU's
# megasas model reads its frames and SGLs
# through the PCI device's DMA address space, so behind the vIOMMU it sees
# what the guest mapped), the guest
# booted with intel_iommu=on and iommu.strict=1 (strict: every unmap
# invalidates the IOTLB and frees its IOVA at once; IOMMU group type "DMA")
# or iommu.strict=0 (lazy: unmapped IOVAs wait in the flush queue, freed
# after a flush-all when it fills or its 10 ms timer fires; type "DMA-FQ"),
# which the plan checks.  It was pvscsi until QEMU 7.2's pvscsi model
# turned out to read request descriptors and SG lists and write completions
# at guest-physical addresses, not through the IOMMU: both kernels crash at
# the first commands (results/attrib-20261204-iommu/README.md).  megasas
# has max_segments 80 on QEMU, so no command needs a second pool array of
# sg_ring (127 entries), but one of more than 2 segments is the inline
# head and a pool array, mapped one by one (results/attrib-20261205-iommu).
# Unlike scsi_debug, QEMU completes a read in host
# time, and at qd1 the guest waits for it.  IDLE=poll (the default) boots
# it with idle=poll: it spins instead of halting, so its clock (icount:
# instructions) never jumps ahead to its next timer; the spin is
# host-dependent and goes to cpu_idle_poll (phase "idle", kept out of the
# comparison), and every guest sleep (boot, settle) becomes instructions
# too, so boots are slow.  IDLE=halt lets it halt: then icount jumps its
# clock to the next timer each time it idles, and the ticks (and in lazy
# mode the flush queue's 10 ms timer) run as often as the host is slow:
# their instructions per I/O and the flush-queue timer runs are
# host-dependent, the map, unmap and IOVA calls are not.  bench/attrib.py
# compare shows how much a rerun moves.  DEVICES=megasas is the same disk
# on the normal kernels and the same q35 machine, without an IOMMU
# (dma-direct: mapping costs no IOVA); DEVICES=pvscsi a disk on pvscsi on
# the pc machine, also without one.  The plan also keeps the queue's limits
# (queue-limits), the IOMMU's state
# (iommu-state) and the disk's stat after each run (<point>-stat).
#
# Output: results/<run-id>/raw/<device>/<variant>/<point>.tsv (small, the
# raw files the report is made from; <point>.cache.tsv with CACHE=1),
# .../boot-<plugin>.info (the boot's run.info and fio's I/O counts), meta.txt, ATTRIBUTION.md.  The plugin's full
# snapshots and the boot's logs stay in build/attrib/<run-id>/.
# Regenerate the report: /usr/bin/python3 -m bench.attrib report results/<run-id>
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
. "$top/bench/lib.sh"
# CONFIG=<name>: the settings of bench/configs/<name>.conf (the environment wins)
[ -z "${CONFIG:-}" ] || load_config "$CONFIG" DEVICES POINTS VARIANTS CACHE KERNEL IOMMU_KERNEL IDLE SHUFFLE DIV MUL FILL_BS PAR RUN_ID TIMEOUT SEED EXACT
require_committed_tree

read -r -a devices <<<"${DEVICES:-fake real}"
read -r -a points <<<"${POINTS:-randread-4k-qd1 randread-64k-qd1 randread-1M-qd1 randread-4M-qd1}"
read -r -a variants_list <<<"${VARIANTS:-$(variants | tr '\n' ' ')}"
run_id=${RUN_ID:-attrib-$(date -u +%Y%m%d-%H%M%S)}
seed=${SEED:-1}
[[ $seed =~ ^[0-9]+$ ]] || die "SEED=$seed: the boot set is a number, e.g. SEED=2"
out=${SGB_RESULTS:-$top/results}/$run_id
work=$top/build/attrib/$run_id

for d in "${devices[@]}"; do
	case $d in real | fake) ;; *)
		[ -n "$(adapter_of_class attrib "$d")" ] ||
			die "unknown device '$d': use real, fake or an attrib class of common/adapters.tsv ($(classes_of attrib | tr '\n' ' '))" ;;
	esac
done
# hba_of DEVICE: the QEMU HBA of a QEMU-disk class (common/adapters.tsv)
hba_of() {
	adapter_of_class attrib "$1"
}
# bdir_of DEVICE VARIANT: the build directory of the kernel a device boots
iommu_kernel=${IOMMU_KERNEL:-iommu}
case ${KERNEL:-normal} in
normal) kernel_flavour='' kernel_desc='the normal kernel' ;;
os) kernel_flavour=os kernel_desc='the -Os kernel (build/<variant>-os)' ;;
*) die "KERNEL must be normal or os, not '$KERNEL'" ;;
esac
case ${IDLE:-poll} in
poll) idle_arg=" idle=poll" ;;
halt) idle_arg='' ;;
*) die "IDLE must be poll or halt, not '$IDLE'" ;;
esac
case ${SHUFFLE:-0} in
0) shuffle_arg='' ;;
1) shuffle_arg=' page_alloc.shuffle=1' ;;
*) die "SHUFFLE must be 0 or 1, not '$SHUFFLE'" ;;
esac
div=${DIV:-1}
[[ $div =~ ^[1-9][0-9]*$ ]] || die "DIV must be a positive integer, not '$div'"
mul=${MUL:-1}
[[ $mul =~ ^[1-9][0-9]*$ ]] || die "MUL must be a positive integer, not '$mul'"
fill_bs=${FILL_BS:-4k}
case $fill_bs in 4k | 16k | 64k | 256k | 1M) ;; *) die "FILL_BS must be 4k, 16k, 64k, 256k or 1M (a power of two that divides the buffer's whole MiB), not '$fill_bs'" ;; esac
case $iommu_kernel in iommu | debug) ;; *) die "IOMMU_KERNEL must be iommu or debug, not '$iommu_kernel'" ;; esac
bdir_of() {
	case $1 in
	iommu-*) flavour_dir "$2" "$iommu_kernel" ;;
	*) flavour_dir "$2" "$kernel_flavour" ;;
	esac
}
for p in "${points[@]}"; do
	[[ $p =~ ^(rand)?(read|write)-[0-9]+[kKmM]-qd[1-9][0-9]*$ ]] ||
		die "bad point '$p': use <rw>-<bs>-qd<depth>, e.g. randread-4k-qd1"
done
for v in "${variants_list[@]}"; do
	check_variant "$v"
	for d in "${devices[@]}"; do
		b=$(bdir_of "$d" "$v")
		if [ "$b" = "$v" ]; then
			[ -f "$top/build/$v/.built" ] && [ -f "$top/build/$v/initramfs.cpio" ] ||
				die "$v is not built: run 'make image'"
		else
			[ -f "$top/build/$b/.built" ] && [ -f "$top/build/$b/initramfs.cpio" ] ||
				die "$b is not built: run 'common/build.sh $v ${b#"$v"-} && common/image/build.sh $v ${b#"$v"-}'"
		fi
	done
done
"$top/qemu/plugin/build.sh"

# n_ios BS: N for a block size (2N of them fit in 1 GiB), times MUL
n_ios() {
	local n
	case $1 in
	4k) n=2000 ;;
	64k) n=1000 ;;
	1M) n=200 ;;
	4M) n=100 ;;
	*) die "no N for block size '$1': add it to n_ios() in bench/attrib.sh" ;;
	esac
	echo $((n * mul))
}

# the file fio's buffers are mapped from (see plan), and its size in MiB:
# fio maps block size x iodepth plus a page (backend.c init_io_u), and a
# shared mapping past the end of the file would fault; a MiB to spare
fio_buffer=/tmp/attrib-fio-buffer
buffer_mib() {
	local p kib max=0
	for p in "${points[@]}"; do
		kib=$(($(bs_kib "$(bs_of "$p")") * ${p##*-qd}))
		[ $kib -le $max ] || max=$kib
	done
	echo $(((max + 1023) / 1024 + 1))
}

bs_of() {
	local bs=${1#*-}
	echo "${bs%-qd*}"
}

# fio_ios JSON: the I/Os fio completed (reads + writes)
fio_ios() {
	/usr/bin/python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"] + j["write"]["total_ios"])' "$1"
}

# 2N I/Os of each point stay inside scsi_debug's 1 GiB, so that fio's
# random map never runs out (MUL)
for p in "${points[@]}"; do
	b=$(bs_of "$p")
	case $b in *k) kib=${b%k} ;; *M) kib=$((${b%M} * 1024)) ;; *) die "no size for block size '$b'" ;; esac
	[ $((2 * $(n_ios "$b") * kib)) -le $((1024 * 1024)) ] ||
		die "MUL=$mul: 2N I/Os of $p are $((2 * $(n_ios "$b") * kib / 1024)) MiB, more than scsi_debug's 1 GiB; use a smaller MUL or other points"
done

# plan DEVICE [DIV]: the guest plan of one boot (N divided by DIV).  It runs
# from the initramfs (qemu/run.sh -l): $SGB_OUT is a tmpfs directory the
# guest copies to the share after the plan.
plan() {
	local dev=$1 div=${2:-1} params="dev_size_mb=1024 delay=0" p rw bs qd n fio stat='' want
	[ "$dev" = fake ] && params="$params fake_rw=1"
	echo '#!/bin/sh'
	echo '. "$SGB_LIB"'
	echo 'set -e'
	case $dev in
	real | fake) echo "disk=\$(sd_load $params)" ;;
	*)
		echo "disk=\$(qdisk $(hba_of "$dev"))"
		# the limits a request is split by, and the IOMMU domain of the HBA
		echo 'q=/sys/block/$disk/queue'
		echo 'for f in max_sectors_kb max_hw_sectors_kb max_segments max_segment_size logical_block_size; do echo "$f $(cat $q/$f)"; done >"$SGB_OUT/queue-limits"'
		stat='echo "$(block_stat $disk)"'
		;;&
	iommu-*)
		want=DMA
		[ "$dev" = iommu-lazy ] && want=DMA-FQ
		echo 'pci=$(readlink -f /sys/block/$disk/device)'
		echo 'pci=${pci%%/host*}'
		echo 'type=$(cat $pci/iommu_group/type)'
		echo '{ echo "pci_device ${pci##*/}"; echo "iommu_group_type $type"; echo "cmdline $(cat /proc/cmdline)"; dmesg | grep -E "DMAR|iommu|IOMMU" || true; } >"$SGB_OUT/iommu-state"'
		echo "[ \"\$type\" = $want ] || { echo \"the HBA's IOMMU domain is '\$type', $dev wants $want\" >&2; exit 1; }"
		;;
	esac
	echo 'cp /proc/kallsyms "$SGB_OUT/kallsyms"'
	echo 'settle'
	# fio's buffers: one file in the initramfs's tmpfs, filled once and
	# mapped shared by every fio run of the boot (--iomem=mmapshared:FILE),
	# so the runs of N and 2N I/Os read and write the same physical pages.
	# With malloc'd buffers each fio process got new pages, and how many
	# physically contiguous runs (bvecs) an I/O of 64k or more had changed
	# between the two runs (results/attrib-20261205-qd32b/README.md): the
	# difference then was not the cost of one I/O of either layout.
	# The file's pages are written once in a random order (fio randwrite,
	# buffered, no fallocate: tmpfs allocates a page at its first write),
	# so no two neighbouring pages of it are neighbours in memory and every
	# 4k of a buffer is one bvec: the same layout in every part of the file
	# (a sequential fill gave some parts one bvec per page and others long
	# contiguous runs, and a qd32 run of N I/Os used the buffers in other
	# proportions than the run of 2N).  FILL_BS larger than 4k writes it in
	# random blocks of that many pages, each allocated in one go.
	echo "fio --name=fill --filename=$fio_buffer --rw=randwrite --bs=$fill_bs --size=$(buffer_mib)M --randseed=$seed --fallocate=none --ioengine=psync --output=/tmp/fill.json --output-format=json"
	for p in "${points[@]}"; do
		rw=${p%%-*} bs=${p#*-} bs=${bs%-qd*} qd=${p##*-qd}
		n=$(($(n_ios "$bs") / div))
		fio="fio --name=$p --filename=/dev/\$disk --direct=1 --ioengine=io_uring --rw=$rw --bs=$bs --iodepth=$qd --randseed=$seed --iomem=mmapshared:$fio_buffer --output-format=json"
		echo "$fio --number_ios=$(((n + 3) / 4)) --output=/tmp/$p-warm1.json"
		echo "$fio --number_ios=$(((n + 3) / 4)) --output=/tmp/$p-warm2.json"
		echo "sync"
		[ -z "$stat" ] || echo "$stat >>\$SGB_OUT/$p-stat"
		echo "$fio --number_ios=$n --output=\$SGB_OUT/$p-n.json"
		echo "sync"
		[ -z "$stat" ] || echo "$stat >>\$SGB_OUT/$p-stat"
		echo "$fio --number_ios=$((2 * n)) --output=\$SGB_OUT/$p-2n.json"
		echo "sync"
		[ -z "$stat" ] || echo "$stat >>\$SGB_OUT/$p-stat"
		echo "echo '$p $n' >>\"\$SGB_OUT/attrib-points\""
	done
}

mkdir -p "$out/raw" "$work"
{
	echo "run_id $run_id"
	echo "seed $seed"
	echo "mode icount (-accel tcg,thread=single -icount shift=0,sleep=off -seed $seed -rtc base=2026-01-01T00:00:00,clock=vm, 1 vCPU), plan from the initramfs (qemu/run.sh -l), guest norandmaps"
	echo "plugin insncount (qemu/plugin/insncount.c, per-vCPU callback counters$([ "${EXACT:-0}" = 1 ] && echo ', exact=on: instructions started per block'), mark __x64_sys_sync"
	[ "${CACHE:-0}" = 1 ] && echo "plugin cachesim (qemu/plugin/cachesim.c), N/4 I/Os per run, a separate boot"
	echo "project_commit $(project_commit)"
	[ -z "$kernel_flavour" ] || echo "kernel_flavour os (build/<variant>-os: bench/os.config, -Os, for every class but the IOMMU ones)"
	echo "devices ${devices[*]}"
	echo "device_real scsi_debug dev_size_mb=1024 delay=0"
	echo "device_fake scsi_debug dev_size_mb=1024 delay=0 fake_rw=1"
	for d in "${devices[@]}"; do
		case $d in
		pvscsi) echo "device_pvscsi pvscsi on a 1 GiB sparse raw file (QEMU's file driver), pc machine, no IOMMU, $kernel_desc, guest${idle_arg:- with hlt}" ;;
		megasas) echo "device_megasas megasas on a 1 GiB sparse raw file (QEMU's file driver), q35 machine, no IOMMU, $kernel_desc, guest${idle_arg:- with hlt}" ;;
		real | fake) ;;
		iommu-strict) echo "device_iommu-strict megasas on a 1 GiB sparse raw file (QEMU's file driver), q35 + intel-iommu,intremap=off, the <variant>-$iommu_kernel kernel, guest intel_iommu=on iommu.strict=1${idle_arg}" ;;
		iommu-lazy) echo "device_iommu-lazy megasas on a 1 GiB sparse raw file (QEMU's file driver), q35 + intel-iommu,intremap=off, the <variant>-$iommu_kernel kernel, guest intel_iommu=on iommu.strict=0${idle_arg}" ;;
		# every other adapter of the table, last: an arm after it is never
		# reached (the IOMMU classes were described as "no IOMMU" so)
		*) echo "device_$d $(hba_of "$d") on a 1 GiB sparse raw file (QEMU's file driver), $(adapter_get "$(hba_of "$d")" machine) machine, no IOMMU, $kernel_desc, guest${idle_arg:- with hlt}" ;;
		esac
	done
	[ -z "$shuffle_arg" ] || echo "guest page_alloc.shuffle=1 (every device)"
	echo "fio direct=1 ioengine=io_uring randseed=$seed iomem=mmapshared:$fio_buffer (one tmpfs file, filled once per boot in random $fill_bs blocks: every run maps the same pages) number_ios=N then 2N (N: 4k 2000, 64k 1000, 1M 200, 4M 100$([ "$div" = 1 ] || echo ", divided by $div")$([ "$mul" = 1 ] || echo ", times $mul"))"
	for p in "${points[@]}"; do echo "point $p"; done
	echo "variants ${variants_list[*]}"
	# the control of the variant table (variants/<name>/variant), if the run has it
	for v in "${variants_list[@]}"; do
		if [ "$(variant_get "$v" role)" = control ]; then echo "control $v"; fi
	done
	echo "base $(base_desc)"
	echo "qemu $(qemu-system-x86_64 --version | head -n 1)"
	echo "host_cpu $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)"
} >"$out/meta.txt"

# attrib_boot DEVICE VARIANT PLUGIN DIV: one boot with PLUGIN (insncount or
# cachesim) at N/DIV I/Os per run; folds its counts into raw/DEVICE/VARIANT/.
attrib_boot() {
	local d=$1 v=$2 plugin=$3 div=$4 map mark boot dst t0 p n r want got fold=fold b f vmlinux
	local args=(-M 2048) cmdline=norandmaps
	b=$(bdir_of "$d" "$v")
	case $d in
	real | fake) ;;
	*) args+=(-d "$(hba_of "$d")=file:1G") cmdline+=$idle_arg ;;
	esac
	cmdline+=$shuffle_arg
	case $d in
	iommu-strict) args+=(-f "$iommu_kernel" -I) cmdline+=" iommu.strict=1" ;;
	iommu-lazy) args+=(-f "$iommu_kernel" -I) cmdline+=" iommu.strict=0" ;;
	*) [ -z "$kernel_flavour" ] || args+=(-f "$kernel_flavour") ;;
	esac
	args+=(-a "$cmdline")
	map=$top/build/$b/obj/System.map
	[ -f "$map" ] || die "no $map: run 'make build'"
	# the kernel's vmlinux: the fold counts a page-crossing instruction at
	# the end of a block once (bench/attrib_fold.py phantoms())
	vmlinux=()
	if [ "$plugin" = insncount ]; then
		[ -f "$top/build/$b/obj/vmlinux" ] || die "no $top/build/$b/obj/vmlinux: run 'make build'"
		vmlinux=("$top/build/$b/obj/vmlinux")
	fi
	mark=$(awk '$3 == "__x64_sys_sync" { print "0x" $1 }' "$map")
	[ -n "$mark" ] || die "$map has no __x64_sys_sync (the mark): is the kernel built with sync(2)?"
	[ "$plugin" = cachesim ] && fold="fold-cache"
	plan "$d" "$div" >"$work/plan-$d-$div-$v.sh"
	boot=$work/$d-$v-$plugin
	note "attrib: $d $v $plugin (${points[*]})"
	t0=$(date +%s)
	"$top/qemu/run.sh" -v "$v" -p "$work/plan-$d-$div-$v.sh" -o "$boot" -m icount -S "$seed" -l "${args[@]}" -t "${TIMEOUT:-3600}" \
		-P "$plugin,out=$boot/$plugin.txt,mark=$mark$([ "$plugin" = insncount ] && [ "${EXACT:-0}" = 1 ] && echo ,exact=on)" ||
		die "the $d $v $plugin boot failed: $(cat "$boot/RESULT" 2>/dev/null || echo 'no result'); see $boot"
	note "attrib: $d $v $plugin took $(($(date +%s) - t0)) s wall"
	dst=$out/raw/$d/$v
	mkdir -p "$dst"
	PYTHONPATH="$top" /usr/bin/python3 -m bench.attrib "$fold" "$boot/$plugin.txt" "$map" \
		"$boot/share/out/kallsyms" "$boot/share/out/attrib-points" "$dst" "${vmlinux[@]}"
	for f in queue-limits iommu-state; do
		[ ! -f "$boot/share/out/$f" ] || cp "$boot/share/out/$f" "$dst/$f"
	done
	for p in "${points[@]}"; do
		[ ! -f "$boot/share/out/$p-stat" ] || cp "$boot/share/out/$p-stat" "$dst/$p.stat"
	done
	{
		cat "$boot/run.info"
		echo "system_map_sha256 $(sha256sum "$map" | cut -d' ' -f1)"
		for p in "${points[@]}"; do
			n=$(($(n_ios "$(bs_of "$p")") / div))
			for r in n 2n; do
				want=$n
				[ $r = 2n ] && want=$((2 * n))
				got=$(fio_ios "$boot/share/out/$p-$r.json")
				[ "$got" = "$want" ] ||
					die "$d $v $p: fio did $got I/Os in the $r run, the plan asked for $want (see $boot/share/out/$p-$r.json)"
				echo "fio_ios $p $r $got"
			done
		done
	} >"$dst/boot-$plugin.info"
}

# the boots of one kernel, one after another
kernel_boots() {
	local d
	for d in "${devices[@]}"; do
		attrib_boot "$d" "$1" insncount "$div"
		if [ "${CACHE:-0}" = 1 ]; then attrib_boot "$d" "$1" cachesim $((4 * div)); fi
	done
}

# PAR=1: the kernels one after another; PAR=2: at once (icount guests are
# deterministic whatever else runs, and each is one TCG thread)
case ${PAR:-1} in
1) for v in "${variants_list[@]}"; do kernel_boots "$v"; done ;;
2)
	pids=()
	for v in "${variants_list[@]}"; do
		kernel_boots "$v" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do wait "$pid" || die "a kernel's boots failed (above)"; done
	;;
*) die "PAR must be 1 or 2, not '$PAR'" ;;
esac
PYTHONPATH="$top" /usr/bin/python3 -m bench.attrib report "$out"
note "attrib: wrote $out/ATTRIBUTION.md"
