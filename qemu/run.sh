#!/bin/bash
# run.sh - boot one variant's kernel in QEMU, run a plan, judge the result.
#
#   qemu/run.sh -v VARIANT (-p PLAN | -j JOB) -o OUTDIR [-m MODE] [-t SECONDS]
#               [-c CPUS] [-M MEM_MB] [-a "KERNEL ARGS"] [-i IMAGE] [-s]
#               [-w ALLOWED_REPORT_REGEX] [-d DISKS] [-f debug|prefix]
#               [-P PLUGIN,ARG=VALUE,...] [-l] [-I]
#
# -I:   every DMA mapping through an IOMMU: the q35 machine with QEMU's
#       intel-iommu (before the other devices), the guest booted with
#       intel_iommu=on iommu.strict=1 (unmaps invalidate at once), and
#       virtio-scsi as a modern device with iommu_platform=on, so that it
#       maps through the DMA API as well.  Needs a kernel with INTEL_IOMMU
#       (the debug kernels, common/debug.config, or the iommu ones,
#       bench/iommu.config).  For lazy unmapping (the flush queue, domain
#       type DMA-FQ) add -a iommu.strict=0: the kernel takes the last
#       iommu.strict= on its command line.  QEMU 7.2's pvscsi reads its request
#       descriptors and SG lists and writes its completions at
#       guest-physical addresses, not through the IOMMU: behind -I a pvscsi
#       disk crashes the guest (results/attrib-20261204-iommu/README.md).
#
# -l:   the plan travels inside the initramfs (a cpio of plan.sh appended
#       to the image for this boot; it sources the image's $SGB_LIB) and the
#       guest runs it before it mounts the 9p share, in /tmp, with $SGB_OUT a tmpfs directory copied
#       to OUTDIR/share/out afterwards: nothing before the plan's end waits
#       on the host, so an icount boot is the same instruction for
#       instruction on a rerun (the share's 9p requests complete in host
#       time).  Needs a plan that reads nothing from the share.
# -P:   load a TCG plugin of qemu/plugin/ (built by qemu/plugin/build.sh into
#       build/plugin/libPLUGIN.so) with its arguments, e.g.
#       -P insncount,out=/path/counts.txt,mark=0xffffffff81234560.  TCG and
#       icount modes only (KVM runs no TCG code).
# -f debug: boot the variant's debug kernel (build/<variant>-debug: KASAN,
#       kmemleak, lockdep, fault injection; common/build.sh <variant> debug).
# -f iommu: the variant's IOMMU kernel (build/<variant>-iommu: the normal
#       configuration plus ACPI, MSI and intel-iommu, bench/iommu.config;
#       common/build.sh <variant> iommu).
# -f prefix: the kernel of one prefix of the series that
#       common/check-patches.sh builds (build/<variant>-prefix).
# IMAGE: busybox (the default: busybox, fio, perf, sg3_utils) or debian
#       (bash, coreutils, util-linux, systemd-udevd: common/image/debian.sh).
# MODE: auto (KVM if a probe boot proves it works, else TCG; the default),
#       tcg, kvm, or icount (deterministic: single-threaded TCG with
#       -icount shift=0,sleep=off, so guest time counts instructions; and
#       -seed 1 (-S SEED: another), so the guest's RDRAND and the RNG seed
#       QEMU hands the kernel are the same every boot of a seed (the slab
#       freelists, the page shuffle and every other random choice of the
#       boot follow from it), and -rtc clock=vm from a fixed
#       date, so the guest's wall clock does not come from the host's).
# PLAN: a shell script the guest runs from the 9p share (tag "sgb"), with
#       $SGB_OUT the directory where it writes its results; it appears on
#       the host as OUTDIR/share/out.  Plans source the guest helpers the
#       image carries: . "$SGB_LIB" (common/image/guest-lib.sh).
# JOB:  instead of a plan, a bench job file (bench/run.sh writes it, see
#       bench/guest.sh): copied into the share as "job", and the guest runs
#       the image's static bench script on it.
# -s:   interactive: the console is this terminal (make shell).
# DISKS: QEMU-emulated SCSI disks, a comma-separated list of HBA=BACKING:
#       HBA virtio (virtio-scsi-pci, one request queue per vCPU, 1024-entry
#       virtqueues so seg_max is 1022) or pvscsi (VMware PVSCSI, 128
#       segments); BACKING null (null-co, read-zeroes=on, 4 GiB: reads
#       return zeroes, writes are dropped; for benchmarks) or file (a sparse
#       256 MiB raw file in OUTDIR, deleted when QEMU exits; for verify
#       runs; file:SIZE for another size, in truncate(1)'s units, e.g.
#       file:1G).  E.g. -d virtio=file,pvscsi=file.  The guest finds each disk
#       by its host's driver (qdisk in lib.sh).
#       Also the other adapters QEMU 7.2 emulates, which boot the q35
#       machine (the pc machine shares IRQ 11 among them): megasas,
#       megasas-gen2, mptsas (mptsas1068), lsi (lsi53c895a), am53c974, ahci
#       (q35's own ICH9 AHCI), usb (usb-storage on qemu-xhci) and ide (a
#       piix3-ide, the pc machine's IDE, on legacy IRQs 14 and 15).
#       BACKING cd (virtio, lsi, ahci): a CD-ROM (scsi-cd, or ide-cd on the
#       AHCI's second port) of 16 MiB of random data, its SHA-256 in
#       share/HBA-cd.sha256 for the guest to compare with.
#
# OUTDIR gets console.log (the serial console, the whole kernel log),
# share/out/{status,dmesg.txt,plan.log,kunit/...}, run.info (accelerator,
# mode, QEMU version, base, variant) and RESULT, written last: "pass", or
# "fail: <cause> (see <log>)".  Exit status 0 only on pass.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"

variant='' plan='' job='' out='' mode=auto timeout_s=600 cpus='' mem=1536 extra='' shell=no image=busybox allowed='' disks='' flavour='' plugin='' local_plan=no iommu=no seed=1
while getopts 'v:p:j:o:m:t:c:M:a:i:w:d:f:P:S:slI' opt; do
	case $opt in
	v) variant=$OPTARG ;;
	p) plan=$OPTARG ;;
	j) job=$OPTARG ;;
	o) out=$OPTARG ;;
	m) mode=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	c) cpus=$OPTARG ;;
	M) mem=$OPTARG ;;
	a) extra=$OPTARG ;;
	i) image=$OPTARG ;;
	w) allowed=$OPTARG ;;
	f) flavour=$OPTARG ;;
	d) disks=$OPTARG ;;
	P) plugin=$OPTARG ;;
	s) shell=yes ;;
	l) local_plan=yes ;;
	I) iommu=yes ;;
	S) seed=$OPTARG ;;
	*) die "usage: see the head of qemu/run.sh" ;;
	esac
done
check_variant "$variant"
[ -n "$out" ] || die "no output directory (-o)"
[[ $seed =~ ^[0-9]+$ ]] || die "-S $seed: the seed of an icount boot is a number, e.g. -S 2"
if [ -n "$job" ]; then
	[ -z "$plan" ] || die "give a plan (-p) or a bench job (-j), not both"
	[ -f "$job" ] || die "job file '$job' does not exist (-j)"
else
	[ -n "$plan" ] && [ -f "$plan" ] || die "plan '$plan' does not exist (-p)"
fi
qemu=${SGB_QEMU:-qemu-system-x86_64}
command -v "$qemu" >/dev/null || die "$qemu not found: run 'make deps' (installs qemu-system-x86)"
bdir=$(flavour_dir "$variant" "$flavour")
kernel=$top/build/$bdir/obj/arch/x86/boot/bzImage
case $image in
busybox) initrd=$top/build/$bdir/initramfs.cpio ;;
debian) initrd=$top/build/$bdir/initramfs-debian.cpio ;;
*) die "unknown image '$image': choose busybox or debian" ;;
esac
[ -f "$top/build/$bdir/.built" ] && [ -f "$kernel" ] || die "$bdir is not built: run 'make build'${flavour:+ (debug: common/build.sh $variant debug)}"
[ -f "$initrd" ] || die "no $image guest image for $variant: run 'make image'"

case $mode in
auto) mode=$("$top/qemu/accel.sh") ;;
tcg|kvm|icount) ;;
*) die "unknown mode '$mode': choose auto, tcg, kvm or icount" ;;
esac
case $mode in
kvm) accel=(-accel kvm -cpu host); cpus=${cpus:-2} ;;
tcg) accel=(-accel tcg,thread=multi -cpu max); cpus=${cpus:-2} ;;
icount) accel=(-accel tcg,thread=single -cpu max -icount shift=0,sleep=off -seed "$seed" -rtc base=2026-01-01T00:00:00,clock=vm); cpus=${cpus:-1} ;;
esac
# A debug kernel's emulated CPU has no 5-level paging.  With LA57, 6.1's
# pgtable_l5_enabled() is cpu_feature_enabled(X86_FEATURE_LA57), and
# identify_cpu() zeroes boot_cpu_data's capabilities before it reads them
# again: an interrupt in that window has KASAN compute its shadow bounds
# for 4-level paging and report the 5-level direct map as a
# "wild-memory-access" (seen in do_raw_spin_lock from handle_edge_irq in
# q35 boots of make reliability under TCG).  The normal kernels keep -cpu max.
[ "$flavour" != debug ] || [ "$mode" = kvm ] || accel=("${accel[@]/#max/max,la57=off}")

plugin_args=()
if [ -n "$plugin" ]; then
	[ "$mode" != kvm ] || die "a TCG plugin (-P) needs TCG: use -m tcg or -m icount"
	so=$top/build/plugin/lib${plugin%%,*}.so
	[ -f "$so" ] || die "no plugin $so: run qemu/plugin/build.sh (the plugins are qemu/plugin/*.c)"
	plugin_args=(-plugin "$so${plugin#"${plugin%%,*}"}")
fi

# the -d disks: QEMU arguments, and the raw files to delete afterwards
disk_args=() disk_files=() disk_sizes=() cd_files=() machine=() virtio_dma='' iommu_args=()
if [ $iommu = yes ]; then
	machine=(-machine q35)
	iommu_args=(-device intel-iommu,intremap=off)
	virtio_dma=,disable-legacy=on,iommu_platform=on
	extra="intel_iommu=on iommu.strict=1 $extra"
fi
IFS=, read -r -a disk_specs <<<"$disks"
for spec in "${disk_specs[@]}"; do
	hba=${spec%%=*} backing=${spec#*=}
	[ "$hba" != "$spec" ] || die "disk '$spec' (-d): use HBA=BACKING, e.g. virtio=null"
	# the adapter's row of common/adapters.tsv (adapter_get dies naming
	# the adapters there)
	ctl=$(adapter_get "$hba" controller) || exit 1
	dev=$(adapter_get "$hba" disk) || exit 1
	bus=$(adapter_get "$hba" bus) || exit 1
	cdspec=$(adapter_get "$hba" cd) || exit 1
	mach=$(adapter_get "$hba" machine) || exit 1
	id=$hba
	if [ "$backing" = cd ]; then
		[ "$cdspec" != - ] ||
			die "no CD-ROM (-d $spec) on $hba: choose one whose cd field in common/adapters.tsv is set ($(for a in $(adapters); do [ "$(adapter_get "$a" cd)" = - ] || printf '%s ' "$a"; done))"
		id=$hba-cd dev=${cdspec%%:*} bus=${cdspec#*:}
	fi
	ctl=${ctl//@ID/$id} ctl=${ctl//@CPUS/$cpus} ctl=${ctl//@VIRTIO/$virtio_dma}
	bus=${bus//@ID/$id}
	[ "$ctl" = - ] || disk_args+=(-device "$ctl")
	[ "$mach" = q35 ] && machine=(-machine q35)
	size=256M
	case $backing in file:*) size=${backing#file:} backing=file ;; esac
	case $backing in
	null) disk_args+=(-blockdev "driver=null-co,node-name=$id-disk,read-zeroes=on,size=4294967296") ;;
	file)
		[[ $size =~ ^[1-9][0-9]*[KMGT]?$ ]] || die "bad size '$size' for $hba=file:SIZE (-d): e.g. file:1G"
		disk_files+=("$out/$id.raw")
		disk_sizes+=("$size")
		disk_args+=(-blockdev "driver=raw,node-name=$id-disk,file.driver=file,file.filename=$out/$id.raw")
		;;
	cd)
		cd_files+=("$out/$id.iso")
		disk_args+=(-blockdev "driver=raw,node-name=$id-disk,read-only=on,file.driver=file,file.filename=$out/$id.iso")
		;;
	*) die "unknown backing '$backing' for $hba (-d): choose null, file, file:SIZE or cd" ;;
	esac
	disk_args+=(-device "$dev,drive=$id-disk,bus=$bus,serial=sgb-$id")
done

rm -rf "$out"
mkdir -p "$out/share/out"
for i in "${!disk_files[@]}"; do truncate -s "${disk_sizes[$i]}" "${disk_files[$i]}"; done
for f in "${cd_files[@]}"; do
	head -c 16M /dev/urandom >"$f"
	b=${f##*/}
	sha256sum <"$f" | cut -d' ' -f1 >"$out/share/${b%.iso}.sha256"
done
local_files=()
if [ "$local_plan" = yes ]; then
	[ "$shell" = no ] || die "-l and -s do not go together (the local plan runs before the shell)"
	[ -z "$job" ] || die "-l takes a plan (-p), not a bench job (-j)"
	plan_cpio "$plan" "$out/local" "$out/local.cpio" || die "cannot build the plan archive $out/local.cpio for -l (above)"
	cat "$initrd" "$out/local.cpio" >"$out/initrd.cpio"
	initrd=$out/initrd.cpio
	local_files=("$out/initrd.cpio" "$out/local.cpio")
fi
trap 'rm -f "${disk_files[@]}" "${cd_files[@]}" "${local_files[@]}"' EXIT
if [ -n "$job" ]; then
	cp "$job" "$out/share/job"
else
	cp "$plan" "$out/share/plan.sh"
	chmod +x "$out/share/plan.sh"
fi
{
	echo "variant $variant"
	echo "image $image"
	echo "mode $mode"
	echo "accelerator ${accel[1]}"
	echo "cpus $cpus"
	echo "memory_mb $mem"
	echo "disks ${disks:-none}"
	echo "plugin ${plugin:-none}"
	echo "local_plan $local_plan"
	echo "iommu $([ $iommu = yes ] && echo intel-iommu || echo none)"
	echo "qemu $("$qemu" --version | head -n 1)"
	cat "$top/build/$bdir/BUILD-INFO"
	echo "host_cpu $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)"
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$out/run.info"

cmdline="console=ttyS0 panic=-1 oops=panic panic_on_warn=0 loglevel=6 $extra"
# A debug kernel (KASAN, kmemleak, lockdep) under TCG interprets ACPI's AML
# (each PCI device's _PRT at probe) so slowly that one call can hold a CPU
# past RCU's 21 s stall limit before init starts (seen on a loaded 2-core
# host: call_rcu from kmemleak under acpi_pci_irq_enable).  Stall reports
# are kept from the moment the kernel hands over to init, so every stall
# while a plan runs still fails the boot (qemu/judge.sh).
[ "$flavour" != debug ] || cmdline="$cmdline rcupdate.rcu_cpu_stall_suppress_at_boot=1"
[ "$shell" = yes ] && cmdline="$cmdline sgb.shell=1"
args=("${accel[@]}" "${machine[@]}" -smp "$cpus" -m "$mem" -nographic -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" "${iommu_args[@]}"
	-fsdev "local,id=sgb,path=$out/share,security_model=none"
	-device virtio-9p-pci,fsdev=sgb,mount_tag=sgb
	-nic none "${disk_args[@]}" "${plugin_args[@]}")

start=$(date +%s.%N)
rc=0
if [ "$shell" = yes ]; then
	"$qemu" "${args[@]}" -serial mon:stdio -monitor none 2>&1 | tee "$out/console.log" || rc=$?
else
	timeout -k 5 "$timeout_s" "$qemu" "${args[@]}" -serial "file:$out/console.log" -monitor none \
		-display none </dev/null >"$out/qemu.log" 2>&1 || rc=$?
fi
end=$(date +%s.%N)
echo "wall_seconds $(echo "$end - $start" | bc)" >>"$out/run.info"

if [ "$local_plan" = yes ] && [ -f "$out/share/out/status" ] && [ ! -f "$out/share/out/plan-ran-from" ]; then
	echo "fail: -l: the guest ran the plan from the share, not from the initramfs: its init predates -l (run 'make image')" >"$out/RESULT"
	die "-l: the guest's init ran the plan from the share, not from the initramfs: the image predates -l; run 'make image'"
fi
"$top/qemu/judge.sh" "$out" "$rc" "$timeout_s" "$allowed"
