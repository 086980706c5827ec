#!/bin/bash
# run.sh --fast|--full [-o DIR] - the reliability suite on each variant's
# debug kernel (build/<variant>-debug: common/build.sh <variant> debug).
#
# Prints one line per result, name<TAB>passed|failed<TAB>why, for
# tests/run.sh to count (--fast: make test).  With --full (make reliability)
# it also writes results/reliability-<date>/ with REPORT.md (a table per
# variant, tests/reliability/report.py) and each guest's results; the
# directory is assembled under a temporary name and renamed only when
# everything in it was written, so a partial run is never left looking
# complete.  With --full, each debug kernel also boots the QEMU-disk
# integrity plan (tests/guest/qemu-disks.sh: virtio-scsi and pvscsi, and
# pvscsi under swiotlb=force), reported as <variant>-qemu-disks*; the other
# host adapters QEMU emulates (tests/guest/qemu-hba.sh on the debug kernel,
# <variant>-qemu-hba*), where DMA-API debugging checks every mapping; the
# IOMMU run (tests/reliability/iommu.sh, qemu/run.sh -I: intel-iommu on q35,
# <variant>-iommu); and the soak on the normal kernel
# (tests/reliability/soak.sh, <variant>-soak: $SOAK_MIB MiB written and
# verified, default 10240).  Every debug boot fails on a DMA-API report
# (qemu/judge.sh).
# Variants: $VARIANTS or every directory under variants/.
# REL_PARTS (--full): which of suite qemu-disks hba iommu soak to run
# (default all); REL_PLAN_LEVEL: the level of plan.sh in --full (default
# full; fast runs its make-test subset).  The report says what ran.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/common/lib.sh"
level='' out=''
while [ $# -gt 0 ]; do
	case $1 in
	--fast) level=fast ;;
	--full) level=full ;;
	-o) out=$2; shift ;;
	*) die "usage: tests/reliability/run.sh --fast|--full [-o DIR]" ;;
	esac
	shift
done
[ -n "$level" ] || die "say --fast (the make test subset) or --full (make reliability)"
variants=${VARIANTS:-$(variants)}
# TCG with 2 vCPUs (submit_queues=2 needs them); icount would be 1 vCPU
mode=${REL_MODE:-tcg}
tmo=$([ $level = full ] && echo 3600 || echo 1200)
parts=${REL_PARTS:-suite qemu-disks hba iommu soak}
[ $level = full ] || parts=suite
plan_level=$level
[ $level = full ] && plan_level=${REL_PLAN_LEVEL:-full}
soak_mib=${SOAK_MIB:-10240}
has() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
# boot NAME FLAVOUR PLAN QEMU-ARGS...: one guest run of the --full part,
# its results printed as <variant>/rel/NAME/...
boot() {
	local name=$1 fl=$2 plan=$3 dir t0
	shift 3
	dir=$runs/$v-$name
	t0=$(date +%s)
	if "$top/qemu/run.sh" ${fl:+-f $fl} -v "$v" -p "$plan" -o "$dir" -m "$mode" "$@" 2>"$dir.log"; then
		printf '%s\tpassed\t%s\n' "$v/rel/$name/boot" "${fl:-normal} kernel, $(( $(date +%s) - t0 )) s"
	elif [ -f "$dir/RESULT" ]; then
		printf '%s\tfailed\t%s\n' "$v/rel/$name/boot" "$(cat "$dir/RESULT")"
	else
		printf '%s\tfailed\t%s\n' "$v/rel/$name/boot" "no RESULT in $dir: $(tail -n 1 "$dir.log")"
	fi
	[ -f "$dir/share/out/complete" ] ||
		printf '%s\tfailed\t%s\n' "$v/rel/$name/complete" "the plan did not finish (see $dir/share/out/plan.log)"
	[ -f "$dir/share/out/results.tsv" ] && sed "s|^|$v/rel/$name/|" "$dir/share/out/results.tsv"
}
runs=${out:-$top/build/reliability-$level}
rm -rf "$runs"
mkdir -p "$runs" || die "cannot create $runs"

for v in $variants; do
	check_variant "$v"
	# every part but the soak boots the debug kernel
	dbg=no
	for p in suite qemu-disks hba iommu; do has $p && dbg=yes; done
	if [ $dbg = yes ] && { ! [ -f "$top/build/$v-debug/.built" ] || ! [ -f "$top/build/$v-debug/initramfs.cpio" ]; }; then
		dbg=no
		printf '%s\tfailed\t%s\n' "$v/rel/boot" "no debug kernel: run 'common/build.sh $v debug && common/image/build.sh $v debug'"
	fi
	dir=$runs/$v
	if [ $dbg = yes ] && has suite; then
		t0=$(date +%s)
		if "$top/qemu/run.sh" -f debug -v "$v" -p "$top/tests/reliability/plan.sh" -o "$dir" \
			-m "$mode" -M 2048 -t "$tmo" -a "sgb.rel=$plan_level sgb.sgmem=$(variant_get "$v" memory) slub_debug=A,sgpool-*,sgring-*" 2>"$dir.log"; then
			printf '%s\tpassed\t%s\n' "$v/rel/boot" "debug kernel, $plan_level, $(( $(date +%s) - t0 )) s"
		else
			if [ -f "$dir/RESULT" ]; then
				printf '%s\tfailed\t%s\n' "$v/rel/boot" "$(cat "$dir/RESULT")"
			else
				printf '%s\tfailed\t%s\n' "$v/rel/boot" "no RESULT in $dir: $(tail -n 1 "$dir.log")"
			fi
		fi
		echo "wall_seconds_suite $(( $(date +%s) - t0 ))" >>"$dir/run.info"
		o=$dir/share/out
		if [ ! -f "$o/complete" ]; then
			printf '%s\tfailed\t%s\n' "$v/rel/complete" "the plan did not finish: the last step was '$([ -f "$o/plan.log" ] && grep '^== ' "$o/plan.log" | tail -n 1)' (see $o/plan.log)"
		fi
		[ -f "$o/results.tsv" ] && sed "s|^|$v/rel/|" "$o/results.tsv"
		# the KUnit suites of the debug kernel (kunit_debug in the
		# variant file): built in, they ran at boot
		kd=$(variant_get "$v" kunit_debug)
		if [ "$kd" != none ]; then
			# shellcheck disable=SC2086
			PYTHONPATH="$top" /usr/bin/python3 -m tests.check_guest "$dir" "$v/rel" --kunit-only $kd
		fi
	fi
	[ $level = full ] || continue
	if [ $dbg = yes ]; then
		# the integrity part on the QEMU-emulated disks (virtio-scsi, pvscsi
		# on raw files; then pvscsi with every mapping bounced by swiotlb)
		has qemu-disks && for qd in $qdisk_boots; do
			IFS=: read -r name qdisks args <<<"$qd"
			boot "$name" debug "$top/tests/guest/qemu-disks.sh" -M 2048 -t "$tmo" -d "$qdisks" -a "$args $limits61_arg"
		done
		# the host adapters besides virtio-scsi and pvscsi, under DMA-API
		# debugging: the boots of make test's matrix (hba_boots and
		# hba_args in common/lib.sh)
		has hba && while IFS='|' read -r name disks hbas cds; do
			boot "$name" debug "$top/tests/guest/qemu-hba.sh" -M 2048 -t "$tmo" -d "$disks" \
				-a "$hba_args sgb.hbas=$hbas sgb.cds=$cds"
		done <<<"$hba_boots"
		# the adapters whose QEMU 7.2 models reach guest memory through
		# the vIOMMU: pvscsi reads its rings and SG lists and writes
		# its completions with cpu_physical_memory_*() at the IOVAs it is
		# given (both kernels crash at its first completion), and
		# lsi53c895a fetches its SCRIPTS from its own BAR address, which
		# the IOMMU then faults (DMAR "PTE Read access is not set")
		has iommu && boot iommu debug "$top/tests/reliability/iommu.sh" -I -M 2048 -t "$tmo" \
			-d virtio=file,megasas=file,ahci=file,mptsas=file \
			-a "$hba_args page_alloc.shuffle=1 sgb.hbas=virtio,megasas,ahci,mptsas"
	fi
	if has soak; then
		if [ -f "$top/build/$v/.built" ] && [ -f "$top/build/$v/initramfs.cpio" ]; then
			boot soak '' "$top/tests/reliability/soak.sh" -M 2048 -t "${SOAK_TIMEOUT:-14400}" \
				-d virtio=file,pvscsi=file -a "sgb.soak_mib=$soak_mib sgb.hbas=virtio,pvscsi"
		else
			printf '%s\tfailed\t%s\n' "$v/rel/soak/boot" "no normal kernel and image: run 'make image'"
		fi
	fi
done

[ $level = full ] || exit 0
dest=${REL_DEST:-$top/results/reliability-$(date -u +%Y%m%d-%H%M)}
boots=()
for b in "$runs"/*/; do
	[ -f "$b/run.info" ] && boots+=("$b")
done
[ ${#boots[@]} -gt 0 ] || die "no boot ran: nothing to report"
exec "$top/tests/reliability/collect.sh" "$dest" "$parts" "${boots[@]}"
