#!/bin/bash
# deps.sh [plugin|multihost] - install the Debian 12 packages sgbench needs
# (as root), or print the exact command to run (otherwise).  Quiet when
# everything is there.  With "plugin": what the TCG plugins (qemu/plugin/)
# need besides, which make test and make bench do not.  With "multihost":
# what spreading a bench run over hosts needs (GNU parallel, ssh, rsync) and
# the self-test of that recipe (make bench-multihost-selftest), which runs
# an sshd of its own on 127.0.0.1: openssh-server.  Note that on a machine
# that runs systemd, Debian's openssh-server package also enables and starts
# its own ssh.service on port 22 (the self-test does not use that one).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
pkgs=(linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils kmod
	ccache git qemu-system-x86 busybox-static fio linux-perf sg3-utils
	python3 python3-matplotlib python3-scipy python3-ply python3-git dwarves sparse pmccabe universal-ctags coccinelle)

# The TCG plugin (qemu/plugin/) is built against qemu-plugin.h, which no
# binary package ships: it comes from Debian's qemu source package, fetched
# with apt-get source.  That needs a deb-src entry, so deps ADDS AN APT
# SOURCE: /etc/apt/sources.list.d/sgbench-deb-src.sources, the deb entries
# of debian.sources with "Types: deb-src" (same mirror, suites, components),
# then runs apt-get update once.  Idempotent: nothing happens when any
# deb-src entry is already there.
add_deb_src() {
	local f=/etc/apt/sources.list.d/sgbench-deb-src.sources
	local deb=/etc/apt/sources.list.d/debian.sources
	if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		die "no deb-src entry in apt's sources (the TCG plugin needs qemu's source package): as root, add one with the same URIs, suites and components as $deb and 'Types: deb-src', then run apt-get update"
	fi
	[ -f "$deb" ] || die "no $deb to copy a deb-src entry from: add a deb-src line for the Debian archive to /etc/apt/sources.list and run apt-get update"
	note "adding the apt source $f (deb-src of $deb, for qemu's source package) and running apt-get update"
	sed 's/^Types: deb$/Types: deb-src/' "$deb" >"$f.tmp"
	grep -q '^Types: deb-src$' "$f.tmp" || { rm -f "$f.tmp"; die "$deb has no 'Types: deb' entry to copy"; }
	mv "$f.tmp" "$f"
	apt-get update >"${TMPDIR:-/tmp}/sgbench-apt.log" 2>&1 ||
		die "apt-get update failed after adding $f: see ${TMPDIR:-/tmp}/sgbench-apt.log"
}
case ${1:-} in
'') ;;
plugin)
	pkgs=(libglib2.0-dev pkg-config dpkg-dev)
	add_deb_src
	;;
multihost) pkgs=(parallel openssh-client openssh-server rsync) ;;
*) die "usage: common/deps.sh [plugin|multihost]" ;;
esac

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
phase_done "packages${1:+ ($1)}" "$t0"
