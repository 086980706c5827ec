#!/bin/bash
# bench/run.sh - A/B fio benchmark of the built kernels on scsi_debug.
#
# Environment (all optional):
#   RW="randread read"  BS="4k 1M"  QD="32 8"   paired: point i = RW[i] BS[i] QD[i]
#   ENGINE=io_uring (or libaio)   REPEATS=3   RUNTIME=1 (guest seconds)
#   MODE=icount (deterministic, the default for A/B) | tcg | kvm | auto
#   DEVICE="dev_size_mb=256 delay=0" (scsi_debug parameters)
#   RUN_ID=<name>  (default: date-based); results/<run-id>/ is the output.
#
# Boots alternate between the variants (A B A B ...), so drift on a shared
# machine hits both alike; each boot runs every point once, with fio's random
# seed varied per repeat.  Raw fio JSON lands in
# results/<run-id>/raw/<variant>/r<N>/<point>.json beside the guest logs;
# a repeat is stamped complete (its RESULT says pass) only when the boot
# succeeded, and a rerun with the same RUN_ID skips completed repeats.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"

read -r -a rws <<<"${RW:-randread read}"
read -r -a bss <<<"${BS:-4k 1M}"
read -r -a qds <<<"${QD:-32 8}"
engine=${ENGINE:-io_uring}
repeats=${REPEATS:-3}
runtime=${RUNTIME:-1}
mode=${MODE:-icount}
[ "$mode" = auto ] && mode=icount
device=${DEVICE:-dev_size_mb=256 delay=0}
run_id=${RUN_ID:-$(date -u +%Y%m%d-%H%M%S)-$mode}
out=$top/results/$run_id

[ ${#rws[@]} -eq ${#bss[@]} ] && [ ${#bss[@]} -eq ${#qds[@]} ] ||
	die "RW, BS and QD must list the same number of points (got ${#rws[@]}, ${#bss[@]}, ${#qds[@]})"
for rw in "${rws[@]}"; do
	case $rw in read|write|randread|randwrite) ;; *) die "unknown rw '$rw': use read, write, randread or randwrite" ;; esac
done
for bs in "${bss[@]}"; do
	[[ $bs =~ ^[0-9]+[kKmM]?$ ]] || die "bad block size '$bs': use e.g. 4k, 64k, 1M"
done
case $engine in io_uring|libaio) ;; *) die "unknown engine '$engine': use io_uring or libaio" ;; esac
case $mode in icount|tcg|kvm) ;; *) die "unknown mode '$mode': use icount, tcg, kvm or auto" ;; esac
[[ $repeats =~ ^[1-9][0-9]*$ ]] || die "REPEATS must be a positive integer"

variants_list=(${VARIANTS:-$(variants)})
for v in "${variants_list[@]}"; do
	check_variant "$v"
	[ -f "$top/build/$v/.built" ] || die "$v is not built: run 'make image'"
done

mkdir -p "$out/raw"
{
	echo "run_id $run_id"
	echo "mode $mode"
	echo "engine $engine"
	echo "repeats $repeats"
	echo "runtime_s $runtime"
	echo "device scsi_debug $device"
	echo "points ${#rws[@]}"
	for i in "${!rws[@]}"; do echo "point ${rws[$i]}-${bss[$i]}-qd${qds[$i]}"; done
	echo "variants ${variants_list[*]}"
	echo "base $(base_desc)"
} >"$out/meta.txt"

# The guest plan: one fio run per point, raw JSON into $SGB_OUT.
plan=$out/plan.sh
{
	echo '#!/bin/sh'
	echo '. "$SGB_SHARE/lib.sh"'
	echo 'set -e'
	echo "disk=\$(sd_load $device)"
	echo 'seed=$(cat "$SGB_SHARE/seed")'
	for i in "${!rws[@]}"; do
		p=${rws[$i]}-${bss[$i]}-qd${qds[$i]}
		echo "fio --name=$p --filename=/dev/\$disk --direct=1 --ioengine=$engine --rw=${rws[$i]} --bs=${bss[$i]} --iodepth=${qds[$i]} --time_based --runtime=$runtime --ramp_time=0.2 --randseed=\$seed --output-format=json+ --output=\$SGB_OUT/$p.json"
		echo "block_stat \$disk >\$SGB_OUT/$p.stat"
	done
	echo 'cat /proc/slabinfo >"$SGB_OUT/slabinfo" 2>/dev/null || true'
} >"$plan"

total=$((repeats * ${#variants_list[@]}))
n=0
t0=$(date +%s)
for r in $(seq 1 "$repeats"); do
	for v in "${variants_list[@]}"; do
		n=$((n + 1))
		dir=$out/raw/$v/r$r
		if [ "$(cat "$dir/RESULT" 2>/dev/null)" = pass ]; then
			note "[$n/$total] $v repeat $r: already complete, kept"
			continue
		fi
		tmp=$out/raw/$v/.r$r.tmp
		rm -rf "$tmp"
		mkdir -p "$(dirname "$tmp")"
		# the seed goes in through the share, beside the plan
		seed_plan=$(mktemp)
		{ echo "echo $r >\"\$SGB_SHARE/seed\""; cat "$plan"; } >"$seed_plan"
		if ! "$top/qemu/run.sh" -v "$v" -p "$seed_plan" -o "$tmp" -m "$mode" -t "${TIMEOUT:-1200}"; then
			rm -f "$seed_plan"
			die "$v repeat $r failed: $(cat "$tmp/RESULT"); completed repeats are kept in $out, rerun with RUN_ID=$run_id to resume"
		fi
		rm -f "$seed_plan"
		rm -rf "$dir"
		mv "$tmp" "$dir"
		el=$(( $(date +%s) - t0 ))
		note "[$n/$total] $v repeat $r done; elapsed ${el}s, ETA $(( el * (total - n) / n ))s"
	done
done
/usr/bin/python3 "$top/bench/report.py" "$out"
note "bench: $out/REPORT.md ($(( $(date +%s) - t0 )) s in all)"
