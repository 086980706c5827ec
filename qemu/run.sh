#!/bin/bash
# run.sh - boot one variant's kernel in QEMU, run a plan, judge the result.
#
#   qemu/run.sh -v VARIANT -p PLAN -o OUTDIR [-m MODE] [-t SECONDS]
#               [-c CPUS] [-M MEM_MB] [-a "KERNEL ARGS"] [-i IMAGE] [-s]
#               [-w ALLOWED_REPORT_REGEX] [-d DISKS] [-f debug]
#               [-P PLUGIN,ARG=VALUE,...]
#
# -P:   load a TCG plugin of qemu/plugin/ (built by qemu/plugin/build.sh into
#       build/plugin/libPLUGIN.so) with its arguments, e.g.
#       -P insncount,out=/path/counts.txt,mark=0xffffffff81234560.  TCG and
#       icount modes only (KVM runs no TCG code).
# -f debug: boot the variant's debug kernel (build/<variant>-debug: KASAN,
#       kmemleak, lockdep, fault injection; common/build.sh <variant> debug).
# IMAGE: busybox (the default: busybox, fio, perf, sg3_utils) or debian
#       (bash, coreutils, util-linux, systemd-udevd: common/image/debian.sh).
# MODE: auto (KVM if a probe boot proves it works, else TCG; the default),
#       tcg, kvm, or icount (deterministic: single-threaded TCG with
#       -icount shift=0,sleep=off, so guest time counts instructions).
# PLAN: a shell script the guest runs from the 9p share (tag "sgb"), with
#       $SGB_OUT the directory where it writes its results; it appears on
#       the host as OUTDIR/share/out.
# -s:   interactive: the console is this terminal (make shell).
# DISKS: QEMU-emulated SCSI disks, a comma-separated list of HBA=BACKING:
#       HBA virtio (virtio-scsi-pci, one request queue per vCPU, 1024-entry
#       virtqueues so seg_max is 1022) or pvscsi (VMware PVSCSI, 128
#       segments); BACKING null (null-co, read-zeroes=on, 4 GiB: reads
#       return zeroes, writes are dropped; for benchmarks) or file (a sparse
#       256 MiB raw file in OUTDIR, deleted when QEMU exits; for verify
#       runs).  E.g. -d virtio=file,pvscsi=file.  The guest finds each disk
#       by its host's driver (qdisk in lib.sh).
#
# OUTDIR gets console.log (the serial console, the whole kernel log),
# share/out/{status,dmesg.txt,plan.log,kunit/...}, run.info (accelerator,
# mode, QEMU version, base, variant) and RESULT, written last: "pass", or
# "fail: <cause> (see <log>)".  Exit status 0 only on pass.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"

variant='' plan='' out='' mode=auto timeout_s=600 cpus='' mem=1536 extra='' shell=no image=busybox allowed='' disks='' flavour='' plugin=''
while getopts 'v:p:o:m:t:c:M:a:i:w:d:f:P:s' opt; do
	case $opt in
	v) variant=$OPTARG ;;
	p) plan=$OPTARG ;;
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
	*) die "usage: see the head of qemu/run.sh" ;;
	esac
done
check_variant "$variant"
[ -n "$out" ] || die "no output directory (-o)"
[ -n "$plan" ] && [ -f "$plan" ] || die "plan '$plan' does not exist (-p)"
qemu=${SGB_QEMU:-qemu-system-x86_64}
command -v "$qemu" >/dev/null || die "$qemu not found: run 'make deps' (installs qemu-system-x86)"
case $flavour in
'') bdir=$variant ;;
debug) bdir=$variant-debug ;;
*) die "unknown flavour '$flavour' (-f): say nothing or 'debug'" ;;
esac
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
icount) accel=(-accel tcg,thread=single -cpu max -icount shift=0,sleep=off); cpus=${cpus:-1} ;;
esac

plugin_args=()
if [ -n "$plugin" ]; then
	[ "$mode" != kvm ] || die "a TCG plugin (-P) needs TCG: use -m tcg or -m icount"
	so=$top/build/plugin/lib${plugin%%,*}.so
	[ -f "$so" ] || die "no plugin $so: run qemu/plugin/build.sh (the plugins are qemu/plugin/*.c)"
	plugin_args=(-plugin "$so${plugin#"${plugin%%,*}"}")
fi

# the -d disks: QEMU arguments, and the raw files to delete afterwards
disk_args=() disk_files=()
IFS=, read -r -a disk_specs <<<"$disks"
for spec in "${disk_specs[@]}"; do
	hba=${spec%%=*} backing=${spec#*=}
	[ "$hba" != "$spec" ] || die "disk '$spec' (-d): use HBA=BACKING, e.g. virtio=null"
	case $hba in
	virtio) disk_args+=(-device "virtio-scsi-pci,id=$hba,num_queues=$cpus,virtqueue_size=1024") ;;
	pvscsi) disk_args+=(-device "pvscsi,id=$hba") ;;
	*) die "unknown HBA '$hba' (-d): choose virtio or pvscsi" ;;
	esac
	case $backing in
	null) disk_args+=(-blockdev "driver=null-co,node-name=$hba-disk,read-zeroes=on,size=4294967296") ;;
	file)
		disk_files+=("$out/$hba.raw")
		disk_args+=(-blockdev "driver=raw,node-name=$hba-disk,file.driver=file,file.filename=$out/$hba.raw")
		;;
	*) die "unknown backing '$backing' for $hba (-d): choose null or file" ;;
	esac
	disk_args+=(-device "scsi-hd,drive=$hba-disk,bus=$hba.0,serial=sgb-$hba")
done

rm -rf "$out"
mkdir -p "$out/share/out"
for f in "${disk_files[@]}"; do truncate -s 256M "$f"; done
trap 'rm -f "${disk_files[@]}"' EXIT
cp "$plan" "$out/share/plan.sh"
cp "$top/common/image/guest-lib.sh" "$out/share/lib.sh"
chmod +x "$out/share/plan.sh"
{
	echo "variant $variant"
	echo "image $image"
	echo "mode $mode"
	echo "accelerator ${accel[1]}"
	echo "cpus $cpus"
	echo "memory_mb $mem"
	echo "disks ${disks:-none}"
	echo "plugin ${plugin:-none}"
	echo "qemu $("$qemu" --version | head -n 1)"
	cat "$top/build/$bdir/BUILD-INFO"
	echo "host_cpu $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)"
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$out/run.info"

cmdline="console=ttyS0 panic=-1 oops=panic panic_on_warn=0 loglevel=6 $extra"
[ "$shell" = yes ] && cmdline="$cmdline sgb.shell=1"
args=("${accel[@]}" -smp "$cpus" -m "$mem" -nographic -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
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

"$top/qemu/judge.sh" "$out" "$rc" "$timeout_s" "$allowed"
