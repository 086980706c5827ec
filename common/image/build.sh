#!/bin/bash
# image/build.sh <variant> [debug|iommu|prefix] - the guest initramfs of one variant
# (with "debug": of its debug kernel, build/<variant>-debug/; with "iommu":
# of its IOMMU kernel, build/<variant>-iommu/; with "prefix":
# of the prefix kernel common/check-patches.sh builds, build/<variant>-prefix/).
#
# build/image/base.cpio: busybox-static, the host's own fio and perf (and
# sg3_utils) with their shared-library closure, common/image/init, and
# /usr/bin/scatterio (common/image/scatterio.c, built static with the host's
# gcc: direct I/O from buffers of scattered physical pages).
# build/<variant>/modules.cpio: that variant's modules.
# build/<variant>/initramfs.cpio: the two concatenated (the kernel unpacks
# concatenated cpio archives in order).  The image carries the static guest
# scripts: common/image/guest-lib.sh as /usr/lib/sgbench/lib.sh (the
# helpers plans source) and bench/guest.sh as /usr/lib/sgbench/bench.sh
# (what a bench job runs).  The plan a test runs is not in the image: the
# host hands it in through the 9p share (qemu/run.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/common/lib.sh"

variant=${1:-}
check_variant "$variant"
bdir=$(flavour_dir "$variant" "${2:-}")
[ -f "$top/build/$bdir/.built" ] || die "$bdir is not built: run 'common/build.sh $variant ${2:-}'"

tools=(/bin/busybox /usr/bin/fio /usr/bin/perf /usr/bin/sg_dd /usr/bin/sg_inq /usr/bin/sg_readcap /usr/bin/sg_raw /usr/bin/sg_reset)
img=$top/build/image
base=$img/base.cpio
mkdir -p "$img"

stale=no
[ -f "$base" ] || stale=yes
for f in "$top/common/image/init" "$top/common/image/build.sh" "$top/common/image/scatterio.c" "${guest_scripts[@]}" "${tools[@]}"; do
	[ -e "$f" ] || die "$f is missing: run 'make deps' (it installs busybox-static, fio, linux-perf, sg3-utils)"
	[ "$stale" = yes ] || [ "$f" -nt "$base" ] && stale=yes
done

if [ "$stale" = yes ]; then
	note "building the guest base image (busybox, fio, perf, sg3_utils + libraries)"
	root=$img/root
	rm -rf "$root" "$base"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,mnt,etc,root}
	cp /bin/busybox "$root/bin/busybox"
	for a in $("$root/bin/busybox" --list-full); do
		[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
	done
	cp "${tools[@]:1}" "$root/usr/bin/"
	gcc -static -O2 -Wall -Wextra -Werror -o "$root/usr/bin/scatterio" "$top/common/image/scatterio.c" ||
		die "building common/image/scatterio.c failed (above): it needs gcc and libc6-dev's static libc (make deps)"
	copy_libs "$root" "${tools[@]:1}"
	cp "$top/common/image/init" "$root/init"
	guest_scripts_into "$root"
	echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
	echo "root:x:0:" >"$root/etc/group"
	make_cpio "$root" "$base"
	rm -rf "$root"
fi

mods=$top/build/$bdir/modules.cpio
if [ ! -f "$mods" ] || [ "$top/build/$bdir/.built" -nt "$mods" ]; then
	make_cpio "$top/build/$bdir/modules" "$mods"
fi
cat "$base" "$mods" >"$top/build/$bdir/initramfs.cpio.tmp"
mv "$top/build/$bdir/initramfs.cpio.tmp" "$top/build/$bdir/initramfs.cpio"
