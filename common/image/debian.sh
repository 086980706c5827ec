#!/bin/bash
# image/debian.sh <variant> - an initramfs of regular Debian userspace
# instead of busybox: bash, coreutils, util-linux, mount, grep, sed, kmod
# (from the host) and systemd-udevd with its rules (from Debian's udev
# package, fetched with apt-get download and unpacked, not installed on the
# host).  It checks that the guest kernels carry what such tools need.
# Output: build/<variant>/initramfs-debian.cpio (base + the variant's modules).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/common/lib.sh"
variant=${1:-}
check_variant "$variant"
[ -d "$top/build/$variant/modules/lib/modules" ] || die "no modules for $variant: run 'make build'"
img=$top/build/image
base=$img/debian.cpio
stale=no
for f in "$top/common/image/debian.sh" "$top/common/image/init" "${guest_scripts[@]}"; do
	[ -f "$base" ] && [ ! "$f" -nt "$base" ] || stale=yes
done
if [ "$stale" = yes ]; then
	note "building the Debian-userspace guest image (bash, coreutils, util-linux, udev)"
	debs=$img/debs
	mkdir -p "$debs"
	if ! ls "$debs"/udev_*.deb >/dev/null 2>&1; then
		(cd "$debs" && apt-get download udev >/dev/null 2>&1) ||
			die "cannot fetch Debian's udev package (apt-get download udev): is the Debian mirror reachable?"
	fi
	root=$img/debian-root
	rm -rf "$root"
	# Debian 12 is merged-/usr: /bin, /sbin, /lib and /lib64 are links into /usr
	mkdir -p "$root"/usr/{bin,sbin,lib,lib64}
	for d in bin sbin lib lib64; do ln -s usr/$d "$root/$d"; done
	dpkg-deb --fsys-tarfile "$debs"/udev_*.deb | tar -x --keep-directory-symlink -C "$root"
	files=()
	for p in bash coreutils util-linux mount grep sed kmod; do
		while read -r f; do
			[ -f "$f" ] && [ -x "$f" ] && files+=("$f")
		done < <(dpkg -L "$p" | grep -E '^/(usr/)?s?bin/')
	done
	for f in "${files[@]}"; do
		cp -a --parents "$f" "$root/"
	done
	# libraries of host binaries and of the unpacked udev
	copy_libs "$root" "${files[@]}" "$root"/bin/udevadm "$root"/lib/udev/*_id
	for m in modprobe insmod rmmod lsmod depmod; do ln -sf /bin/kmod "$root/usr/sbin/$m"; done
	ln -sf bash "$root/usr/bin/sh"
	mkdir -p "$root"/{proc,sys,dev,tmp,mnt,run,etc,root}
	echo "root:x:0:0:root:/root:/bin/bash" >"$root/etc/passwd"
	echo "root:x:0:" >"$root/etc/group"
	printf 'disk:x:6:\ncdrom:x:24:\ntape:x:26:\nkvm:x:100:\n' >>"$root/etc/group"
	cp "$top/common/image/init" "$root/init"
	guest_scripts_into "$root"
	make_cpio "$root" "$base"
	rm -rf "$root"
fi
# Modules go under /usr/lib: an archive entry "lib/" would replace the
# merged-/usr symlink /lib with a directory when the kernel unpacks it.
stage=$top/build/$variant/modules-usr
rm -rf "$stage"
mkdir -p "$stage/usr/lib"
cp -al "$top/build/$variant/modules/lib/modules" "$stage/usr/lib/"
make_cpio "$stage" "$stage.cpio"
rm -rf "$stage"
cat "$base" "$stage.cpio" >"$top/build/$variant/initramfs-debian.cpio.tmp"
mv "$top/build/$variant/initramfs-debian.cpio.tmp" "$top/build/$variant/initramfs-debian.cpio"
