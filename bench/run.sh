#!/bin/bash
# bench/run.sh - A/B fio benchmark of the built kernels on scsi_debug RAM disks.
#
# Environment (all optional; the defaults are the project's matrix):
#   DEVICES="real fake"   real: scsi_debug delay=0 (the data is copied);
#                         fake: the same with fake_rw=1 (no copy, no sg walk)
#                         virtio, pvscsi: a QEMU virtio-scsi / PVSCSI disk on
#                         null-co (qemu/run.sh -d HBA=null: the HBA maps DMA;
#                         in icount mode the guest boots with idle=poll)
#   RW="randread randwrite read write"  BS="4k 64k 1M 4M"  QD="1 32"
#                         the matrix is every combination
#   ENGINE=io_uring | libaio        REPEATS=3
#   RUNTIME=300ms (the shortest window per point; fio units)  RAMP=100ms
#   FLOOR=0.4             the quantisation floor (%) each point's window is
#                         sized for: one I/O over the I/Os it holds plus
#                         fio's 1 ms clock over the window (see window())
#   MODE=icount (deterministic, the default) | tcg | kvm | auto
#   PAR=<guests at once> (default: one per core in icount mode, else 1)
#   PERF="fake:read-1M-qd32 real:read-1M-qd32"  points also profiled with
#                         perf record -a -e cpu-clock -g in the guest
#   INFLIGHT="read-4k-qd32 read-1M-qd32 read-4M-qd32"  points also run, in the
#                         first fake boot of each kernel, with scsi_debug's
#                         completion delayed by INFLIGHT_NS (10000000: 10 ms),
#                         so the queue depth is really in flight, traced
#                         for the sg pool memory a command holds (the
#                         sg objects in use and the commands in flight at
#                         every event); "" for none
#   CEIL="read-4k-qd32 read-64k-qd32 read-1M-qd32 read-4M-qd32"  points also
#                         run on null_blk in the first fake boot of each
#                         kernel (the block layer without SCSI); "" for none
#   DECISION=1            collect the decision evidence (bench/decision.py)
#                         after the run; 0: not
#   MICROBENCH=1          run the sg_api_bench module in the first repeat; 0: not
#   BOOTS="real:sg_ring:1 fake:sg_table:2 ..."  run only these boots of the
#                         matrix (device:variant:repeat), to spread one run
#                         over several hosts; default: all
#   KERNEL=normal | os    the kernels: normal (build/<variant>, -O2 as
#                         Debian builds them) or os (build/<variant>-os:
#                         bench/os.config, -Os; make os-image builds them,
#                         and make bench KERNEL=os does).  The decision
#                         evidence is of the normal kernels: with KERNEL=os
#                         say DECISION=0.
#   SEED=1                the boot set: QEMU's -seed of every boot (qemu/run.sh
#                         -S) and, from 2 on, fio's seeds and the points' order
#                         in another range (1000 x (SEED - 1) + repeat), so a
#                         rerun of a matrix with SEED=2 is an independent boot
#                         set (meta.txt boot_set); 1 gives the jobs of before
#   RUN_ID=<name>         (default: date-based); results/<run-id>/ is the output
#                         (SGB_RESULTS=<dir> puts it under <dir> instead).
#   CONFIG=<name>         the settings of bench/configs/<name>.conf, a named
#                         configuration (make bench CONFIG=<name>); a setting
#                         given in the environment wins over the file
#   ALLOW_DIRTY=1         run into results/ from a checkout with uncommitted
#                         changes (refused by default: require_committed_tree)
#
# The run description, meta.txt (matrix, kernels, project commit), is
# written first.  Each boot runs one variant on one device setting, every
# point once (in an order shuffled per repeat, see job() in bench/lib.sh),
# with fio's random seed set from the repeat number.  What a boot does is
# its job file (job()), which the host hands to the guest (qemu/run.sh -j)
# and the image's static bench script (bench/guest.sh) runs.  Boots are
# ordered A B A B ... so drift on a shared machine hits both alike
# (wall-clock modes); in icount mode guest time counts instructions and PAR
# guests run at once.  Raw files: results/<run-id>/raw/<device>/<variant>/r<N>/
# (the qemu/run.sh output directory: run.info, console.log, share/job,
# share/out/*.json ...).  A boot is kept only when it passed (RESULT =
# pass, written last); a rerun with the same RUN_ID keeps the kept boots
# whose job file is this run's, byte for byte, and runs the rest.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
. "$top/bench/lib.sh"
# CONFIG=<name>: the settings of bench/configs/<name>.conf (the environment wins)
[ -z "${CONFIG:-}" ] || load_config "$CONFIG" DEVICES RW BS QD ENGINE REPEATS RUNTIME RAMP FLOOR MODE PAR \
	PERF INFLIGHT INFLIGHT_NS CEIL DECISION MICROBENCH BOOTS RUN_ID TIMEOUT VARIANTS SEED KERNEL
require_committed_tree

read -r -a devices <<<"${DEVICES:-real fake}"
read -r -a rws <<<"${RW:-randread randwrite read write}"
read -r -a bss <<<"${BS:-4k 64k 1M 4M}"
read -r -a qds <<<"${QD:-1 32}"
read -r -a perfs <<<"${PERF-fake:read-1M-qd32 real:read-1M-qd32}"
read -r -a ceils <<<"${CEIL-read-4k-qd32 read-64k-qd32 read-1M-qd32 read-4M-qd32}"
read -r -a inflights <<<"${INFLIGHT-read-4k-qd32 read-1M-qd32 read-4M-qd32}"
inflight_ns=${INFLIGHT_NS:-10000000}
engine=${ENGINE:-io_uring}
repeats=${REPEATS:-3}
runtime=${RUNTIME:-300ms}
ramp=${RAMP:-100ms}
floor=${FLOOR:-0.4}
boot_set=${SEED:-1}
[[ $boot_set =~ ^[1-9][0-9]*$ ]] || die "SEED must be a boot set number (1, 2, ...), not '$boot_set'"
[[ $floor =~ ^[0-9]*\.?[0-9]+$ ]] || die "FLOOR must be a percentage, e.g. 0.4, not '$floor'"
mode=${MODE:-icount}
microbench=${MICROBENCH:-1}
case $microbench in 0|1) ;; *) die "MICROBENCH must be 0 or 1, not '$microbench'" ;; esac
case ${DECISION:-1} in 0|1) ;; *) die "DECISION must be 0 or 1, not '$DECISION'" ;; esac
case ${KERNEL:-normal} in
normal) kernel_flavour='' ;;
os)
	kernel_flavour=os
	[ "${DECISION:-1}" = 0 ] ||
		die "KERNEL=os: the decision evidence (code, symbols) is of the normal kernels; say DECISION=0"
	;;
*) die "KERNEL must be normal or os, not '$KERNEL'" ;;
esac
[ "$mode" = auto ] && mode=icount
run_id=${RUN_ID:-$(date -u +%Y%m%d-%H%M%S)-$mode}
out=${SGB_RESULTS:-$top/results}/$run_id

for d in "${devices[@]}"; do
	case $d in real | fake) ;; *)
		[ -n "$(adapter_of_class bench "$d")" ] ||
			die "unknown device '$d': use real, fake or a bench class of common/adapters.tsv ($(classes_of bench | tr '\n' ' '))" ;;
	esac
done
for rw in "${rws[@]}"; do
	case $rw in read|write|randread|randwrite) ;; *) die "unknown rw '$rw': use read, write, randread or randwrite" ;; esac
done
for bs in "${bss[@]}"; do
	[[ $bs =~ ^[0-9]+[kKmM]$ ]] || die "bad block size '$bs': use e.g. 4k, 64k, 1M, 4M"
done
for p in "${ceils[@]}"; do
	[[ $p =~ ^(rand)?(read|write)-[0-9]+[kKmM]-qd[1-9][0-9]*$ ]] ||
		die "bad CEIL point '$p': use <rw>-<bs>-qd<depth>, e.g. read-1M-qd32"
done
for p in "${inflights[@]}"; do
	[[ $p =~ ^(rand)?(read|write)-[0-9]+[kKmM]-qd[1-9][0-9]*$ ]] ||
		die "bad INFLIGHT point '$p': use <rw>-<bs>-qd<depth>, e.g. read-4M-qd32"
done
[[ $inflight_ns =~ ^[1-9][0-9]{0,8}$ ]] || die "INFLIGHT_NS must be a delay in ns below 1 s, e.g. 10000000, not '$inflight_ns'"
for qd in "${qds[@]}"; do
	[[ $qd =~ ^[1-9][0-9]*$ ]] || die "bad queue depth '$qd': a positive integer"
done
case $engine in io_uring|libaio) ;; *) die "unknown engine '$engine': use io_uring or libaio" ;; esac
case $mode in icount|tcg|kvm) ;; *) die "unknown mode '$mode': use icount, tcg, kvm or auto" ;; esac
[[ $repeats =~ ^[1-9][0-9]*$ ]] || die "REPEATS must be a positive integer, not '$repeats'"
# perf's sampling starts this long after fio: its start-up (dynamic
# linking, page clearing: about 100 ms of guest time) and the ramp
perf_delay=$(($(ms "$ramp") + 100))
if [ "$mode" = icount ]; then par=${PAR:-$(nproc)}; else par=${PAR:-1}; fi

read -r -a variants_list <<<"${VARIANTS:-$(variants | tr '\n' ' ')}"
for v in "${variants_list[@]}"; do
	check_variant "$v"
	b=$(flavour_dir "$v" "$kernel_flavour")
	[ -f "$top/build/$b/.built" ] && [ -f "$top/build/$b/initramfs.cpio" ] ||
		die "$b is not built: run 'make ${kernel_flavour:+$kernel_flavour-}image'"
done

points=()
for rw in "${rws[@]}"; do for bs in "${bss[@]}"; do for qd in "${qds[@]}"; do
	points+=("$rw-$bs-qd$qd")
done; done; done

# The boots, interleaved: repeat-major, then device, then variant (A B A B).
jobs_list=()
for r in $(seq 1 "$repeats"); do
	for d in "${devices[@]}"; do
		for v in "${variants_list[@]}"; do jobs_list+=("$d $v $r"); done
	done
done
if [ -n "${BOOTS:-}" ]; then
	for b in $BOOTS; do
		printf '%s\n' "${jobs_list[@]}" | tr ' ' : | grep -qx "$b" ||
			die "BOOTS names '$b', which is not a boot of this matrix: use <device>:<variant>:<repeat>, e.g. real:$(control_variant):1"
	done
	sel=()
	for j in "${jobs_list[@]}"; do
		[[ " $BOOTS " == *" ${j// /:} "* ]] && sel+=("$j")
	done
	jobs_list=("${sel[@]}")
fi
# PERF points outside the matrix would be listed but never run: drop them
# with a note (the default PERF names read-1M-qd32 on real and fake)
kept_perfs=()
for pp in "${perfs[@]}"; do
	if [[ " ${devices[*]} " == *" ${pp%%:*} "* ]] && [[ " ${points[*]} " == *" ${pp#*:} "* ]]; then
		kept_perfs+=("$pp")
	else
		note "bench: PERF point $pp is not in this matrix (DEVICES, RW, BS, QD): not profiled"
	fi
done
perfs=("${kept_perfs[@]}")

# the project's own commit (and whether the checkout had changes)
project_commit=$(project_commit) || exit 1

mkdir -p "$out/raw"
{
	echo "run_id $run_id"
	echo "project_commit $project_commit"
	echo "mode $mode"
	echo "engine $engine"
	echo "repeats $repeats"
	echo "runtime $runtime"
	echo "ramp $ramp"
	echo "floor_target $floor"
	echo "boot_set $boot_set"
	echo "devices ${devices[*]}"
	echo "device_real $(disk_of real)"
	echo "device_fake $(disk_of fake)"
	echo "device_virtio qemu virtio-scsi-pci num_queues=<cpus> virtqueue_size=1024, scsi-hd on null-co read-zeroes=on 4G"
	echo "device_pvscsi qemu pvscsi, scsi-hd on null-co read-zeroes=on 4G"
	# every other bench class of the run (common/adapters.tsv), described
	# from its row: the report names each device by this line
	for d in "${devices[@]}"; do
		case $d in real | fake | virtio | pvscsi) continue ;; esac
		hba=$(adapter_of_class bench "$d")
		ctl=$(adapter_get "$hba" controller)
		ctl=${ctl%%,*}
		[ "$ctl" = - ] && ctl="the machine's own controller"
		echo "device_$d qemu $hba on $(adapter_get "$hba" machine) ($ctl), Linux host $(adapter_get "$hba" proc_name), $(adapter_get "$hba" disk) on null-co read-zeroes=on 4G"
	done
	[ "$mode" = icount ] && echo "device_qemu_note guest idle=poll (icount mode; QEMU disks complete in host time)"
	for p in "${points[@]}"; do echo "point $p"; done
	for p in "${perfs[@]}"; do echo "perf $p"; done
	echo "perf_delay_ms $perf_delay"
	for p in "${ceils[@]}"; do echo "ceil $p"; done
	for p in "${inflights[@]}"; do echo "inflight $p"; done
	echo "inflight_ndelay_ns $inflight_ns"
	echo "variants ${variants_list[*]}"
	# the control of the variant table (variants/<name>/variant), if the run has it
	for v in "${variants_list[@]}"; do
		if [ "$(variant_get "$v" role)" = control ]; then echo "control $v"; fi
	done
	for v in "${variants_list[@]}"; do echo "kernel_$v $(kernel_id "$(flavour_dir "$v" "$kernel_flavour")")"; done
	[ -z "$kernel_flavour" ] || echo "kernel_flavour $kernel_flavour"
	echo "base $(base_desc)"
	echo "qemu $(qemu-system-x86_64 --version | head -n 1)"
	echo "host_cpu $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)"
} >"$out/meta.txt"

total=${#jobs_list[@]}

# boot DEVICE VARIANT REPEAT: one boot into a temporary directory, renamed
# into place only when it passed.
boot() {
	local d=$1 v=$2 r=$3 dir tmp
	dir=$out/raw/$d/$v/r$r
	tmp=$out/raw/$d/$v/.r$r.tmp
	rm -rf "$tmp" "$tmp.stderr"
	mkdir -p "$(dirname "$tmp")"
	# A QEMU disk completes in host time.  In icount mode an idle vCPU lets
	# the virtual clock jump to the next timer deadline, so a completion
	# would be seen up to a tick late; with idle=poll the vCPU keeps
	# executing (and counting) instructions while it waits.
	local disks=() hba
	hba=$(adapter_of_class bench "$d")
	if [ -n "$hba" ]; then
		disks=(-d "$hba=null")
		[ "$mode" = icount ] && disks+=(-a idle=poll)
	fi
	# qemu/run.sh's own messages go beside the boot (run.stderr), not to
	# the terminal the progress lines share
	if ! "$top/qemu/run.sh" -v "$v" ${kernel_flavour:+-f "$kernel_flavour"} -j "$out/raw/$d/$v/.r$r.job" -o "$tmp" -m "$mode" -S "$boot_set" -M 2048 -t "${TIMEOUT:-1800}" "${disks[@]}" 2>"$tmp.stderr"; then
		local why
		if [ -f "$tmp/RESULT" ]; then
			why=$(cat "$tmp/RESULT")
		else
			why="no RESULT: $(tail -n 1 "$tmp.stderr")"
		fi
		echo "$d $v r$r: $why (qemu/run.sh said: ${tmp#"$out"/}.stderr)" >>"$out/failed.txt"
		return 1
	fi
	mv "$tmp.stderr" "$tmp/run.stderr"
	rm -f "$out/raw/$d/$v/.r$r.job"
	rm -rf "$dir"
	mv "$tmp" "$dir"
}

# progress WHAT: a line with the boots done, the elapsed time and an ETA
progress() {
	local done el
	done=$(find "$out/raw" -path '*/r[0-9]*/RESULT' 2>/dev/null | wc -l)
	el=$(($(date +%s) - t0))
	if [ "$done" -gt "$done0" ]; then
		note "[$n/$total] $1; $done boots done, elapsed ${el}s, ETA $((el * (total - done) / (done - done0)))s"
	else
		note "[$n/$total] $1; elapsed ${el}s"
	fi
}

# monitor: a line per finished point (fio writes its JSON when the point
# ends; the share directories are on the host), with elapsed time and ETA.
count_points() {
	find "$out/raw" -path '*/share/out/*.json' ! -name microbench.json ! -name 'ceil-*' 2>/dev/null | wc -l
}
monitor() {
	local all=$((total * ${#points[@]})) last=$pdone0 c el
	while sleep 5; do
		c=$(count_points)
		[ "$c" -gt "$last" ] || continue
		last=$c el=$(($(date +%s) - t0))
		note "point $c/$all done, elapsed ${el}s, ETA $((el * (all - c) / (c - pdone0)))s"
	done
}

rm -f "$out/failed.txt"
t0=$(date +%s)
pdone0=$(count_points)
monitor &
monitor_pid=$!
trap 'st=$?; kill $monitor_pid 2>/dev/null || true; exit $st' EXIT
done0=$(find "$out/raw" -path '*/r[0-9]*/RESULT' 2>/dev/null | wc -l)
n=0 running=0 kept=0
note "bench: ${#points[@]} points x ${#devices[@]} devices x ${#variants_list[@]} kernels x $repeats repeats = $total boots, mode $mode, $par at once; output $out"
for j in "${jobs_list[@]}"; do
	read -r d v r <<<"$j"
	n=$((n + 1))
	mkdir -p "$out/raw/$d/$v"
	job "$d" "$v" "$r" >"$out/raw/$d/$v/.r$r.job"
	case $(job_state "$out/raw/$d/$v/r$r" "$out/raw/$d/$v/.r$r.job") in
	kept)
		note "[$n/$total] $d $v repeat $r: already complete, kept"
		kept=$((kept + 1))
		rm "$out/raw/$d/$v/.r$r.job"
		continue
		;;
	stale) note "[$n/$total] $d $v repeat $r: complete, but its job differs from this run's ($(job_diff "$out/raw/$d/$v/r$r" "$out/raw/$d/$v/.r$r.job")): run again" ;;
	esac
	while [ "$running" -ge "$par" ]; do
		wait -n || true
		running=$((running - 1))
	done
	boot "$d" "$v" "$r" &
	running=$((running + 1))
	progress "started $d $v repeat $r"
done
while [ "$running" -gt 0 ]; do
	wait -n || true
	running=$((running - 1))
done
kill $monitor_pid 2>/dev/null || true
if [ -s "$out/failed.txt" ]; then
	sed 's/^/sgbench: failed boot: /' "$out/failed.txt" >&2
	die "bench: $(wc -l <"$out/failed.txt") boot(s) failed (logs under $out/raw/*/*/.r*.tmp and .r*.tmp.stderr); completed boots are kept: rerun with RUN_ID=$run_id to resume"
fi
fio_s=$(($(date +%s) - t0))
note "bench: the fio part took $fio_s s wall"
# wall.txt: one line per invocation (a resumed run has several); the report
# shows them.  The report is written once, after the decision evidence,
# and also when collecting that evidence fails.
wall() {
	echo "boots $((total - kept)) par $par host_cpus $(nproc) fio_s $fio_s total_s $(($(date +%s) - t0)) decision $1" >>"$out/wall.txt"
	PYTHONPATH="$top" /usr/bin/python3 -m bench.report "$out"
}
if [ "${DECISION:-1}" = 1 ]; then
	if ! PYTHONPATH="$top" /usr/bin/python3 -m bench.decision collect "$out"; then
		wall failed
		die "bench: $out/REPORT.md is written, but collecting the decision evidence failed (see above); fix that and run: make decision RUN=$out"
	fi
	PYTHONPATH="$top" /usr/bin/python3 -m bench.decision render "$out"
fi
wall "${DECISION:-1}"
note "bench: $out/REPORT.md; total $(($(date +%s) - t0)) s wall"
