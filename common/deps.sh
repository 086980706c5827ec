#!/bin/bash
# deps.sh - install the Debian 12 packages sgbench needs (as root), or print
# the exact command to run (otherwise).  Quiet when everything is there.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
pkgs=(linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils kmod
	ccache git qemu-system-x86 busybox-static fio linux-perf sg3-utils
	python3 python3-matplotlib python3-scipy dwarves sparse pmccabe universal-ctags)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
t0=$(date +%s)
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	die "missing Debian packages: ${missing[*]}; install them with: sudo $cmd"
fi
note "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" >"${TMPDIR:-/tmp}/sgbench-apt.log" 2>&1; then
	apt-get update >>"${TMPDIR:-/tmp}/sgbench-apt.log" 2>&1 || true
	apt-get install -y --no-install-recommends "${missing[@]}" >>"${TMPDIR:-/tmp}/sgbench-apt.log" 2>&1 ||
		die "apt-get could not install ${missing[*]}: see ${TMPDIR:-/tmp}/sgbench-apt.log"
fi
phase_done packages "$t0"
