#!/bin/bash
# accel.sh - print the accelerator to use: "kvm" only when a probe boot of a
# built kernel under KVM actually reaches the guest's init and exits (on
# these machines /dev/kvm exists but a 6.1 guest hangs), else "tcg".
# The verdict and its reason are cached in build/accel.probe (delete the
# file to probe again).  SGB_KVM_DEV overrides /dev/kvm (for tests).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
cache=${SGB_ACCEL_CACHE:-$top/build/accel.probe}
kvm_dev=${SGB_KVM_DEV:-/dev/kvm}

if [ -f "$cache" ]; then
	awk '{print $1; exit}' "$cache"
	exit 0
fi
verdict() {
	mkdir -p "$(dirname "$cache")"
	echo "$1 $2" >"$cache.tmp" && mv "$cache.tmp" "$cache"
	note "accelerator: $1 ($2)"
	echo "$1"
	exit 0
}
[ -c "$kvm_dev" ] || verdict tcg "no $kvm_dev"
[ -r "$kvm_dev" ] && [ -w "$kvm_dev" ] || verdict tcg "$kvm_dev is not accessible"
probe_variant=
for v in $(variants); do
	[ -f "$top/build/$v/.built" ] && [ -f "$top/build/$v/initramfs.cpio" ] && { probe_variant=$v; break; }
done
[ -n "$probe_variant" ] || die "no built kernel to probe KVM with: run 'make image' first"
plan=$(mktemp)
echo 'echo probe-ok >"$SGB_OUT/probe"' >"$plan"
dir=$top/build/accel-probe
if "$top/qemu/run.sh" -v "$probe_variant" -p "$plan" -o "$dir" -m kvm -t "${SGB_PROBE_TIMEOUT:-45}" 2>/dev/null &&
	[ -f "$dir/share/out/probe" ]; then
	rm -f "$plan"
	verdict kvm "probe boot of $probe_variant under KVM passed"
fi
rm -f "$plan"
verdict tcg "probe boot under KVM failed: $(cat "$dir/RESULT" 2>/dev/null || echo no result)"
