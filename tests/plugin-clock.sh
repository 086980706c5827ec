#!/bin/bash
# tests/plugin-clock.sh [VARIANT] - the insncount plugin's counts between two
# guest marks against an independent clock: QEMU's icount.
#
# One icount boot of VARIANT (default: the control) with the plugin
# (qemu/run.sh -m icount: -icount shift=0,sleep=off, one vCPU, so the
# guest's TSC is QEMU's virtual clock in ns, one per instruction icount
# counts, plus jumps while the vCPU idles), the plan from the initramfs
# (-l) and norandmaps.  The plan loads scsi_debug (fake_rw=1, delay=0),
# waits for the final clocksource (settle), runs fio twice for 10 4k
# random reads to warm up, starts a spinner at nice 19 (fio's parent sleeps
# while its job runs and between runs: the vCPU halted about 20 times a
# window and icount moved the clock on by about 116 M ns each window
# without an instruction; the spinner takes the idle time, so no hlt runs:
# the plugin's aux counts them, and the check fails on one), then: a mark,
# fio for N (default 200) reads, a mark, fio for 2N, a mark.  (Booting
# with idle=poll instead took three times as long: every idle moment of
# the boot spun through pause, which leaves the TCG loop each time.)  A
# mark is qemu/plugin/guest/icmark (built by
# qemu/plugin/build.sh, carried in the plan): it reads the guest's page-fault
# count, then the TSC at the instruction the plugin snapshots at (mark=
# icmark_mark), and prints both.  tests/plugin_clock.py compares the two
# windows (its head says what each side counts, from QEMU 7.2's source)
# and prints tests/run.sh's result lines:
#   plugin/total-matches-icount-clock
#   plugin/cut-blocks-per-io-within-<TOL_PPM>ppm (TOL_PPM=10: of the
#       instructions per I/O)
# The plugin runs with aux= (per-instruction counting besides its block
# counts): about 8 % more CPU than without (user time 24.9 s against
# 23.1 s; 16.4 s without the plugin), 40 to 190 s of wall time a boot on
# a 2-CPU host, depending on its load.
#
# N, BS (default 4k) and FAKE_RW (1, the default: no copy; 0: scsi_debug
# copies the data) change the point; HBA=<adapter> (e.g. megasas) reads a
# 1 GiB raw file on that QEMU adapter instead of scsi_debug.  EXACT=1: the
# plugin with exact=on (per-block instructions started in its counts).
# WRONG_MARK=1: the self-test of the comparison on a real boot: the middle
# mark reads its clock 1,000,000 instructions after the plugin's snapshot
# (icmark late), so both windows are off by that much, in opposite
# directions; plugin/total-matches-icount-clock must fail (the script then
# exits 0 and prints plugin/clock-check-fails-on-a-wrong-mark passed).
# Writes build/test-runs/plugin-clock-<VARIANT>[-wrong]/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"

v=${1:-$(control_variant)}
n=${N:-200}
bs=${BS:-4k}
fake=${FAKE_RW:-1}
size=64
[ "$fake" = 1 ] || size=256	# the store scsi_debug copies to, in the guest's 1.5 GiB
hba=${HBA:-}
exact=''
[ "${EXACT:-0}" != 1 ] || exact=,exact=on
tol=${TOL_PPM:-10}
wrong=${WRONG_MARK:-0}
check_variant "$v"
[ -f "$top/build/$v/.built" ] && [ -f "$top/build/$v/initramfs.cpio" ] || die "$v is not built: run 'make image'"
"$top/qemu/plugin/build.sh"
icmark=$top/build/plugin/icmark
mark=$(nm "$icmark" | awk '$3 == "icmark_mark" { print "0x" $1 }')
[ -n "$mark" ] || die "$icmark has no icmark_mark symbol"
work=$top/build/test-runs/plugin-clock-$v
[ "$bs" = 4k ] && [ "$fake" = 1 ] || work=$work-$bs-fake_rw$fake
[ -z "$hba" ] || work=$work-$hba
[ "$wrong" != 1 ] || work=$work-wrong
rm -rf "$work"
mkdir -p "$work"

fio="fio --name=p --filename=/dev/\$disk --direct=1 --ioengine=io_uring --rw=randread --bs=$bs --iodepth=1 --randseed=1 --output-format=json"
late=''
[ "$wrong" = 1 ] && late=' late'
{
	cat <<EOF
#!/bin/sh
. "\$SGB_LIB"
set -e
base64 -d >/tmp/icmark <<'B64'
$(base64 "$icmark")
B64
chmod +x /tmp/icmark
$(if [ -n "$hba" ]; then echo "disk=\$(qdisk $hba)"; else echo "disk=\$(sd_load dev_size_mb=$size delay=0 fake_rw=$fake)"; fi)
settle
$fio --number_ios=10 --output=/tmp/warm1.json
$fio --number_ios=10 --output=/tmp/warm2.json
# a spinner at the lowest priority: the vCPU never idles, so icount never
# moves the clock on without instructions (no hlt runs in the windows)
sh -c 'while :; do :; done' &
spin=\$!
renice -n 19 \$spin
/tmp/icmark >>"\$SGB_OUT/clock"
$fio --number_ios=$n --output=\$SGB_OUT/n.json
/tmp/icmark$late >>"\$SGB_OUT/clock"
$fio --number_ios=$((2 * n)) --output=\$SGB_OUT/2n.json
/tmp/icmark >>"\$SGB_OUT/clock"
kill \$spin
EOF
} >"$work/plan.sh"

d=$work/boot
disk_args=()
[ -z "$hba" ] || disk_args=(-d "$hba=file:1G" -M 2048)
if ! "$top/qemu/run.sh" -v "$v" -p "$work/plan.sh" -o "$d" -m icount -l -a norandmaps -t "${TIMEOUT:-900}" "${disk_args[@]}" \
	-P "insncount,out=$d.counts,aux=$d.aux,mark=$mark$exact" >"$work/boot.log" 2>&1; then
	printf 'plugin/total-matches-icount-clock\tfailed\tthe boot failed: %s (see %s)\n' \
		"$([ -f "$d/RESULT" ] && cat "$d/RESULT" || echo 'no result')" "${work#"$top"/}/boot.log"
	exit 1
fi
PYTHONPATH="$top" /usr/bin/python3 -m tests.plugin_clock "$d.aux" "$d.counts" "$top/build/$v/obj/System.map" "$d/share/out/clock" "$n" plugin "$tol" >"$work/results.tsv" && rc=0 || rc=$?
if [ "$wrong" = 1 ]; then
	sed 's/^/    /' "$work/results.tsv" >&2
	if grep -q $'^plugin/total-matches-icount-clock\tfailed\t' "$work/results.tsv"; then
		printf 'plugin/clock-check-fails-on-a-wrong-mark\tpassed\t%s\n' "$(cut -f3 "$work/results.tsv" | head -n 1 | cut -c1-160)"
		exit 0
	fi
	printf 'plugin/clock-check-fails-on-a-wrong-mark\tfailed\tthe check passed with the middle clock read 1000000 instructions after its mark: %s\n' "$(cut -f3 "$work/results.tsv" | head -n 1)"
	exit 1
fi
cat "$work/results.tsv"
exit "$rc"
