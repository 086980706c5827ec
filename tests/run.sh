#!/bin/bash
# run.sh [--full] - the project's tests (make test; with --full, make
# test-full).  Expects both variants built and their images made (the
# Makefile sees to it; --full also needs the debug kernels).  Prints one line
# per result, blktests style, the time of each test group ("sgbench: phase
# test ...: N s", which .ci/run sums up), and ends with
# "N passed, N failed[, N skipped]".
#
# make test is what finds a regression fastest on the two kernels people
# run; --full adds the fast subset of the reliability suite on the debug
# (KASAN, lockdep, kmemleak) kernels, which cost two more kernel builds and
# about 8 minutes of boots per variant.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
level=quick
case ${1:-} in
'') ;;
--full) level=full ;;
*) die "usage: tests/run.sh [--full]" ;;
esac
py=/usr/bin/python3
mode=${MODE:-auto}
runs=$top/build/test-runs
rm -rf "$runs"
mkdir -p "$runs"
passed=0 failed=0 skipped=0
failures=()
t0=$(date +%s)

# result NAME passed|failed|skipped [WHY]
result() {
	local name=$1 st=$2 why=${3:-}
	case $st in
	passed) passed=$((passed + 1)) ;;
	failed) failed=$((failed + 1)); failures+=("$name${why:+  $why}") ;;
	skipped) skipped=$((skipped + 1)) ;;
	esac
	printf '%-60s [%s]%s\n' "$name" "$st" "${why:+  $why}"
}
results_from() {
	local name st why
	while IFS=$'\t' read -r name st why; do
		result "$name" "$st" "$why"
	done
}

# --- host: the rig's own parsers ------------------------------------------
# In the background, beside the config, patches and rig groups: the unit
# tests keep one CPU busy (most of it spatch on the semantic patch's
# fixtures), checkpatch and the rig's guests about one more, and the rig
# waits out timeouts.  Printed after the rig group; nothing here reads or
# writes what those groups do (the unit tests work in temporary folders).
th=$(date +%s)
(cd "$top" && "$py" -m unittest discover -s tests/host -t . -p 'test_*.py' -v 2>&1) |
	sed -n 's/^\(test_[a-z_0-9]*\) (tests\.host\.\([a-z_]*\)\.\([A-Za-z]*\)[^)]*) \.\.\. \(.*\)$/host\/\2.\1\t\4/p' |
	sed 's/\tok$/\tpassed\t/; s/\tFAIL$/\tfailed\t/; s/\tERROR$/\tfailed\terror/; s/\tskipped \(.*\)$/\tskipped\t\1/' >"$runs/host.txt" &
host_pid=$!

# --- configs: every candidate differs from the control only as declared --
tg=$(date +%s)
control=$(control_variant) || exit 1
frag() { variant_file "$1" config | grep . || echo -; }
for c in $(candidate_variants); do
	if why=$("$top/common/compare-configs.py" "$top/build/$control/obj/.config" "$(frag "$control")" \
		"$top/build/$c/obj/.config" "$(frag "$c")" 2>&1); then
		result "config/$c-differs-from-$control-only-as-declared" passed
	else
		result "config/$c-differs-from-$control-only-as-declared" failed "$(echo "$why" | tail -n 1)"
		echo "$why" | sed 's/^/    /'
	fi
done
# the same inlining in every kernel for the code they share, unless a
# design requires otherwise (common/inline.accepted says why)
if "$top/common/check-inline.py" $(variants) >"$runs/check-inline.txt" 2>&1; then
	result config/same-inlining-in-every-kernel passed "$(tail -n 1 "$runs/check-inline.txt" | cut -c15-70)"
else
	result config/same-inlining-in-every-kernel failed "$(tail -n 1 "$runs/check-inline.txt")"
	grep -v '^accepted: ' "$runs/check-inline.txt" | sed 's/^/    /'
fi

# --- patches: checkpatch --strict, no errors ------------------------------
"$top/common/check-patches.sh" >"$runs/checkpatch.txt" 2>"$runs/checkpatch.err"
results_from < <(sed 's|^|patches/|' "$runs/checkpatch.txt")
[ -s "$runs/checkpatch.err" ] && sed -n '1,40p' "$runs/checkpatch.err"
phase_done "test config and patches" "$tg"

# --- the rig: accelerator fallback, hang, panic, plan status --------------
tg=$(date +%s)
v=$control
if [ "$(SGB_KVM_DEV=/nonexistent SGB_ACCEL_CACHE=$runs/accel.none "$top/qemu/accel.sh" 2>"$runs/accel.none.err")" = tcg ] &&
	grep -q '^tcg no /nonexistent' "$runs/accel.none"; then
	result rig/accel-falls-back-without-kvm passed
else
	result rig/accel-falls-back-without-kvm failed "accel.sh did not choose tcg without /dev/kvm: $(tail -n 1 "$runs/accel.none.err")"
fi
acc=$("$top/qemu/accel.sh" 2>"$runs/accel.err")
probe=$([ -f "$top/build/accel.probe" ] && cat "$top/build/accel.probe")
if [ "$acc" = kvm ] || [ "$acc" = tcg ]; then
	# the verdict must match what a boot with it does
	echo 'echo ok >"$SGB_OUT/ok"' >"$runs/true.sh"
	if "$top/qemu/run.sh" -v $v -p "$runs/true.sh" -o "$runs/accel-$acc" -m "$acc" -t 120 2>"$runs/accel-$acc.log"; then
		result rig/accel-probe-verdict-boots passed "$probe"
	else
		result rig/accel-probe-verdict-boots failed "probe chose $acc but a boot with it failed: $(cat "$runs/accel-$acc/RESULT" || tail -n 1 "$runs/accel-$acc.log")"
	fi
else
	result rig/accel-probe-verdict-boots failed "accel.sh printed '$acc': $(tail -n 1 "$runs/accel.err")"
fi
# bad input: a clear one-line cause, non-zero exit, no stamp left behind
msg=$(make -s -C "$top" shell VARIANT=nosuch 2>&1 </dev/null)
if [ $? -ne 0 ] && echo "$msg" | grep -q "unknown variant 'nosuch'"; then
	result rig/unknown-variant-is-refused passed "$(echo "$msg" | head -n 1 | cut -c1-60)"
else
	result rig/unknown-variant-is-refused failed "got: $msg"
fi
msg=$(SGB_VARIANTS_DIR=$top/tests/data/bad-variants "$top/common/build.sh" broken 2>&1)
if [ $? -ne 0 ] && echo "$msg" | grep -q 'patch .*0001-does-not-apply.patch does not apply.*failing file: drivers/scsi/scsi_lib.c' &&
	[ ! -e "$top/build/broken/.built" ]; then
	result rig/series-that-does-not-apply-names-patch-and-file passed
else
	result rig/series-that-does-not-apply-names-patch-and-file failed "got: $(echo "$msg" | head -n 3)"
fi
rm -rf "$top/build/broken"
msg=$(SGB_TARBALL=/nonexistent.tar.xz SGB_BUILD_GIT=$runs/nogit "$top/common/tree.sh" base 2>&1)
if [ $? -ne 0 ] && echo "$msg" | grep -q '/nonexistent.tar.xz is missing: install it with'; then
	result rig/missing-tarball-says-how-to-get-it passed
else
	result rig/missing-tarball-says-how-to-get-it failed "got: $msg"
fi

# expect_fail NAME PLAN TIMEOUT PATTERN: the run must fail with RESULT ~ PATTERN
expect_fail() {
	local name=$1 plan=$2 t=$3 pat=$4 dir=$runs/$1
	if "$top/qemu/run.sh" -v $v -p "$plan" -o "$dir" -m tcg -t "$t" 2>"$dir.log"; then
		result "rig/$name" failed "the run passed; it must fail"
	elif [ ! -f "$dir/RESULT" ]; then
		result "rig/$name" failed "no verdict: $(tail -n 1 "$dir.log")"
	elif grep -q "$pat" "$dir/RESULT"; then
		result "rig/$name" passed "$(cut -c1-60 "$dir/RESULT")"
	else
		result "rig/$name" failed "wrong verdict: $(cat "$dir/RESULT")"
	fi
}
expect_fail hang-is-a-timeout "$top/tests/rig/hang.sh" 25 '^fail: timeout'
expect_fail panic-is-a-panic "$top/tests/rig/panic.sh" 60 '^fail: panic'
expect_fail plan-status-is-a-failure "$top/tests/rig/status.sh" 60 '^fail: the plan exited with status 3'
# QEMU killed mid-run, the output filesystem full (tests/rig/killed-and-full.sh)
results_from < <("$top/tests/rig/killed-and-full.sh" "$runs" -v $v)
phase_done "test rig" "$tg"
wait $host_pid
[ -s "$runs/host.txt" ] || result host/unittest failed "no unit test ran (see: $py -m unittest discover -s tests/host -t .)"
results_from <"$runs/host.txt"
phase_done "test host (beside the config, patches and rig groups)" "$th"

# --- the insncount plugin against an independent clock --------------------
# (tests/plugin-clock.sh: one icount boot of the control with the plugin,
# its total between two guest marks against QEMU's icount clock; it builds
# the plugin first, and common/deps.sh plugin adds a deb-src apt source
# once.)  In the background, beside the bench group's icount guests (its
# serial run leaves a CPU free): an icount guest's counts do not depend on
# the host's load.  Its results are printed after the bench group.
"$top/tests/plugin-clock.sh" "$control" >"$runs/plugin-clock.tsv" 2>"$runs/plugin-clock.err" &
plugin_clock_pid=$!

# --- bench: in icount mode, guests run at once give the serial figures ----
# (two small matrices, both kernels, one guest at a time and then two)
tg=$(date +%s)
bench_small() {  # PAR RUN_ID [VAR=value ...]
	env SGB_RESULTS="$runs/bench" MODE=icount DEVICES=fake RW=randread BS="4k 1M" QD=1 REPEATS=1 \
		RUNTIME=300ms RAMP=50ms PERF="" CEIL="" INFLIGHT="" MICROBENCH=0 DECISION=0 PAR="$1" RUN_ID="$2" "${@:3}" \
		"$top/bench/run.sh" >"$runs/bench-$2.log" 2>&1
}
# the serial run also measures the sg pool memory with commands in flight
# at read-1M-qd32 (checked below)
if bench_small 1 serial INFLIGHT=read-1M-qd32 && bench_small 2 parallel; then
	results_from < <(PYTHONPATH="$top" "$py" -m tests.bench_same "$runs/bench/serial" "$runs/bench/parallel")
else
	result bench/parallel-equals-serial failed "a bench run failed: see ${runs#"$top"/}/bench-*.log"
fi
# the serial run's memory with commands in flight (tests/bench_inflight.py)
if [ -f "$runs/bench/serial/REPORT.md" ]; then
	results_from < <(PYTHONPATH="$top" "$py" -m tests.bench_inflight "$runs/bench/serial" read-1M-qd32)
else
	result bench/memory-in-flight failed "the serial bench run failed: see ${runs#"$top"/}/bench-serial.log"
fi
# each boot ran the image's static bench script on its own job file: no
# plan and no guest library copied into the results
name=bench/one-job-file-per-boot-no-plan-copies
copies=$(find "$runs/bench/serial" \( -name 'plan*.sh' -o -name lib.sh \) -print)
njobs=$(find "$runs/bench/serial/raw" -path '*/r[0-9]*/share/job' | wc -l)
nboots=$(variants | wc -l)  # one device, one repeat: a boot per kernel
if [ "$njobs" -eq "$nboots" ] && [ -z "$copies" ]; then
	result $name passed "$nboots boots, $njobs job files"
else
	result $name failed "$njobs job files for $nboots boots; copies: ${copies:-none}"
fi

# a guest that dies mid-matrix (here: killed by the boot timeout): the run
# fails naming the boot, is not reported complete, and a rerun with the
# same RUN_ID keeps the boots that passed and runs only the rest
name=bench/guest-died-mid-run-is-reported-and-resumable
if bench_small 2 died TIMEOUT=1 BS=4k; then
	result $name failed "the run passed although every boot timed out"
elif ! grep -q 'boot(s) failed.*rerun with RUN_ID=died' "$runs/bench-died.log" ||
	[ -e "$runs/bench/died/REPORT.md" ]; then
	result $name failed "no clear failure, or a report was written: see ${runs#"$top"/}/bench-died.log"
else
	first=$(grep -o '[0-9]* boot(s) failed' "$runs/bench-died.log" | head -n 1)
	# now let one kernel's boot succeed, then resume: it must be kept
	bench_small 2 died BOOTS="fake:$control:1" BS=4k
	kept=none
	[ ! -f "$runs/bench/died/raw/fake/$control/r1/RESULT" ] || kept=$(cat "$runs/bench/died/raw/fake/$control/r1/RESULT")
	bench_small 2 died BS=4k
	if [ "$kept" = pass ] && grep -q "fake $control repeat 1: already complete, kept" "$runs/bench-died.log" &&
		grep -q '^Status: complete' "$runs/bench/died/REPORT.md"; then
		result $name passed "$first first; resumed, the passed boot kept, complete"
	else
		result $name failed "the resumed run did not keep the passed boot or is not complete: see ${runs#"$top"/}/bench-died.log"
	fi
fi
phase_done "test bench" "$tg"
tg=$(date +%s)
wait $plugin_clock_pid
grep -q $'^plugin/total-matches-icount-clock\t' "$runs/plugin-clock.tsv" ||
	result plugin/total-matches-icount-clock failed "no result: $(tail -n 1 "$runs/plugin-clock.err")"
results_from <"$runs/plugin-clock.tsv"
phase_done "test plugin clock (after the bench group)" "$tg"

# --- each kernel: KUnit suites and the functional smoke test --------------
pi_checks=""
for pi in dif-1 dif-3 dif-1_dix-1 dif-3_dix-1; do
	for bs in 4k 1M 4M; do pi_checks="$pi_checks pi/$pi/verify-$bs"; done
done
pi_checks="$pi_checks pi/dif-1_dix-1/integrity-enabled pi/dif-3_dix-1/integrity-enabled
	errors/medium-error-4k-read-fails errors/medium-error-1M-read-fails
	errors/medium-error-elsewhere-reads-fine errors/medium-error-logged
	errors/timeouts-recovered-data-verifies errors/timeouts-went-through-error-handler
	errors/sg-pool-objects-back-to-baseline"
qdisk_checks="pvscsi-swiotlb/bounced"
for hba in virtio pvscsi pvscsi-swiotlb; do
	qdisk_checks="$qdisk_checks $hba/disk-appears $hba/verify-4k $hba/verify-1M $hba/verify-4M
		$hba/requests-beyond-inline-sg-1M $hba/requests-beyond-inline-sg-4M"
done
for hba in virtio pvscsi; do
	qdisk_checks="$qdisk_checks $hba/sg-io-scattered-$(hba_sgio_pages "$hba")"
done
# kernel_tests V: every boot of kernel V (below), its results written to
# $runs/V.results.tsv as "name<TAB>status<TAB>why" lines for the parent to
# count: run in a subshell, beside the other kernels' (TEST_PAR at once).
kernel_tests() {
	local v=$1 tg dir tsv want name disks args hbas cds qd w h bs
	exec 3>"$runs/$v.results.tsv"
	result() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >&3; }
	results_from() { cat >&3; }
	tg=$(date +%s)
	dir=$runs/$v-smoke
	# sg_api.dma_map_failure_partway (and in the dma_iter kernel
	# sg_dma_iter.dma_iter_map_failure) makes dma-direct refuse a page on
	# purpose; dma-direct WARNs once per call site when it does
	# (kernel/dma/direct.h, inlined into dma_direct_map_sg() and
	# dma_map_page_attrs())
	if "$top/qemu/run.sh" -v "$v" -p "$top/tests/guest/smoke.sh" -o "$dir" -m "$mode" -t 900 \
		-w 'WARNING: CPU: [0-9]+ PID: [0-9]+ at [./a-z]*kernel/dma/direct.h:[0-9]+ (dma_direct_map_(page|sg)|dma_map_page_attrs)'; then
		result "$v/boot" passed "$(awk '$1=="mode"{print "mode " $2}' "$dir/run.info")"
	else
		result "$v/boot" failed "$(cat "$dir/RESULT")"
	fi
	# the KUnit suites each kernel must run (kunit in variants/<v>/variant)
	# shellcheck disable=SC2046
	PYTHONPATH="$top" "$py" -m tests.check_guest "$dir" "$v" $(variant_get "$v" kunit) >"$runs/$v.txt"
	results_from <"$runs/$v.txt"
	phase_done "test $v smoke and kunit" "$tg"
	tg=$(date +%s)
	# protection information and error paths (tests/guest/pi-errors.sh)
	dir=$runs/$v-pi-errors
	"$top/qemu/run.sh" -v "$v" -p "$top/tests/guest/pi-errors.sh" -o "$dir" -m "$mode" -t 900 ||
		result "$v/pi-errors/boot" failed "$(cat "$dir/RESULT")"
	tsv=$dir/share/out/results.tsv
	for want in $pi_checks; do
		{ [ -f "$tsv" ] && grep -q "^$want"$'\t' "$tsv"; } ||
			result "$v/$want" failed "no result: the plan stopped before it (see $dir/share/out/plan.log)"
	done
	[ -f "$tsv" ] && results_from < <(sed "s|^|$v/|" "$tsv")
	phase_done "test $v pi and errors" "$tg"
	tg=$(date +%s)
	# QEMU-emulated disks on raw files: virtio-scsi and pvscsi, then pvscsi
	# with every DMA mapping bounced through the swiotlb
	: >"$runs/$v-qemu-disks.tsv"
	for qd in $qdisk_boots; do
		IFS=: read -r name disks args <<<"$qd"
		dir=$runs/$v-$name
		"$top/qemu/run.sh" -v "$v" -p "$top/tests/guest/qemu-disks.sh" -o "$dir" -m "$mode" -t 900 \
			-d "$disks" -a "$args $limits61_arg" || result "$v/$name/boot" failed "$(cat "$dir/RESULT")"
		[ ! -f "$dir/share/out/results.tsv" ] || cat "$dir/share/out/results.tsv" >>"$runs/$v-qemu-disks.tsv"
	done
	for want in $qdisk_checks; do
		grep -q "^$want"$'\t' "$runs/$v-qemu-disks.tsv" ||
			result "$v/$want" failed "no result: the plan stopped before it (see $runs/$v-qemu-disks*/share/out/plan.log)"
	done
	results_from < <(sed "s|^|$v/|" "$runs/$v-qemu-disks.tsv")
	phase_done "test $v qemu disks" "$tg"
	tg=$(date +%s)
	# the same kernel under a regular Debian userspace with systemd-udevd
	dir=$runs/$v-debian
	name=$v/debian-userspace-udev-links-scsi_debug-disk
	if ! "$top/qemu/run.sh" -v "$v" -i debian -p "$top/tests/guest/debian-udev.sh" -o "$dir" -m "$mode" -t 300; then
		result "$name" failed "$(cat "$dir/RESULT")"
	elif grep -q 'scsi-.* -> ../../sd[a-z]' "$dir/share/out/disk-links" && grep -q scsi_debug "$dir/share/out/lsblk"; then
		result "$name" passed "$(grep -o 'scsi-[^ ]* -> ../../sd[a-z]' "$dir/share/out/disk-links" | head -n 1)"
	else
		result "$name" failed "no /dev/disk/by-id link from udev (see $dir/share/out/disk-links)"
	fi
	phase_done "test $v debian userspace" "$tg"

	# --- each kernel: QEMU's other storage host adapters ----------------------
	# (tests/guest/qemu-hba.sh; the boots are hba_boots in common/lib.sh, and
	# their kernel arguments hba_args)
	tg=$(date +%s)
	: >"$runs/$v-qemu-hba.tsv"
	want=""
	while IFS='|' read -r name disks hbas cds; do
		dir=$runs/$v-$name
		"$top/qemu/run.sh" -v "$v" -p "$top/tests/guest/qemu-hba.sh" -o "$dir" -m "$mode" -t 900 \
			-d "$disks" -a "$hba_args sgb.hbas=$hbas sgb.cds=$cds" ||
			result "$v/$name/boot" failed "$(cat "$dir/RESULT")"
		[ ! -f "$dir/share/out/results.tsv" ] || cat "$dir/share/out/results.tsv" >>"$runs/$v-qemu-hba.tsv"
		for h in ${hbas//,/ }; do
			want="$want $h/disk-appears $h/fio-verify-1M $h/sg-io-scattered-$(hba_sgio_pages "$h")"
			for bs in 4k 64k 1M 4M; do want="$want $h/verify-$bs $h/segments-$bs"; done
		done
		for h in ${cds//,/ }; do
			for bs in 2k 64k 1M; do want="$want $h-cd/read-$bs"; done
		done
	done <<<"$hba_boots"
	for w in $want; do
		grep -q "^$w"$'\t' "$runs/$v-qemu-hba.tsv" ||
			result "$v/$w" failed "no result: the plan stopped before it (see $runs/$v-qemu-hba*/share/out/plan.log)"
	done
	results_from < <(sed "s|^|$v/|" "$runs/$v-qemu-hba.tsv")
	phase_done "test $v host adapters" "$tg"
	exec 3>&-
}

# The kernels' boots, TEST_PAR kernels at once (default: one more than the
# host has CPUs): a kernel's boots run one after another, each a guest
# whose one busy vCPU keeps about one host CPU busy between its idle
# moments (module scans, sleeps, the error handler's timeouts).  With one
# per CPU, the third of three kernels on two CPUs ran alone, one CPU idle,
# for a third of the group.  Each kernel's results are printed together,
# in variant order, when every kernel has finished.
par=${TEST_PAR:-$(($(nproc) + 1))}
[[ $par =~ ^[1-9][0-9]*$ ]] || die "TEST_PAR=$par: say how many kernels to test at once, e.g. 1"
tk=$(date +%s)
mapfile -t kernels < <(variants)
running=0
for v in "${kernels[@]}"; do
	# a kernel's failures are its results; wait -n only frees a slot
	if [ $running -ge "$par" ]; then wait -n || true; running=$((running - 1)); fi
	kernel_tests "$v" &
	running=$((running + 1))
done
wait
for v in "${kernels[@]}"; do
	[ -s "$runs/$v.results.tsv" ] || result "$v/tests" failed "its boots wrote no result: see ${runs#"$top"/}/$v-*"
	results_from <"$runs/$v.results.tsv"
done
phase_done "test every kernel ($par at once)" "$tk"

# --- reliability, fast subset, on each variant's debug kernel -------------
# (tests/reliability/; make test-full only; the full set is make reliability)
if [ $level = full ]; then
	tg=$(date +%s)
	results_from < <(VARIANTS="$(variants | tr '\n' ' ')" "$top/tests/reliability/run.sh" --fast -o "$runs/reliability")
	phase_done "test reliability fast subset (debug kernels)" "$tg"
fi

# repeat the failures last, so that the tail of a long log names them
if [ "$failed" -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}" | cut -c1-200
fi
echo "test runs and logs: ${runs#"$top"/}/ ($(( $(date +%s) - t0 )) s)"
line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
