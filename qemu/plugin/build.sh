#!/bin/bash
# build.sh - build the TCG plugin(s) in qemu/plugin/ for the installed QEMU.
#
# qemu-plugin.h is in no binary package: it comes from Debian's qemu source
# package of the installed QEMU's source version, fetched once with
# `apt-get source --download-only` into build/qemu-src/ (24 MB; apt needs a
# deb-src entry, which 'common/deps.sh plugin' adds).  Only the header is unpacked.
# Output: build/plugin/libinsncount.so (one lib<name>.so per qemu/plugin/*.c),
# and the guest programs of qemu/plugin/guest/ (freestanding static x86-64
# binaries, no libc: build/plugin/icmark for tests/plugin-clock.sh).
# Quiet and quick when up to date.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/common/lib.sh"
"$top/common/deps.sh" plugin

ver=$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed: run 'make deps'"
src=$top/build/qemu-src
hdr=$src/$ver/qemu-plugin.h
out=$top/build/plugin
if [ ! -f "$hdr" ]; then
	mkdir -p "$src"
	if ! ls "$src"/qemu_*.orig.tar.* >/dev/null 2>&1 || [ ! -f "$src/qemu_${ver#*:}.dsc" ]; then
		note "fetching Debian's qemu source package $ver (for qemu-plugin.h)"
		(cd "$src" && apt-get source --download-only "qemu=$ver") >"$src/apt-source.log" 2>&1 ||
			die "apt-get source qemu=$ver failed (see build/qemu-src/apt-source.log): apt needs a deb-src entry; run 'common/deps.sh plugin' as root"
	fi
	orig=$(ls "$src"/qemu_*.orig.tar.* | head -n 1)
	mkdir -p "$src/$ver.tmp"
	tar -xf "$orig" -C "$src/$ver.tmp" --wildcards '*/include/qemu/qemu-plugin.h' ||
		die "no include/qemu/qemu-plugin.h in $orig"
	mkdir -p "$src/$ver"
	mv "$src/$ver.tmp"/*/include/qemu/qemu-plugin.h "$hdr"
	rm -rf "$src/$ver.tmp"
fi
mkdir -p "$out"
for c in "$top"/qemu/plugin/*.c; do
	so=$out/lib$(basename "$c" .c).so
	[ "$so" -nt "$c" ] && [ "$so" -nt "$hdr" ] && continue
	# shellcheck disable=SC2046
	gcc -O2 -g -Wall -Wextra -Wno-unused-parameter -shared -fPIC -I"$src/$ver" \
		$(pkg-config --cflags glib-2.0) -o "$so.tmp" "$c" $(pkg-config --libs glib-2.0) ||
		die "building $(basename "$so") failed (above)"
	mv "$so.tmp" "$so"
done
for c in "$top"/qemu/plugin/guest/*.c; do
	exe=$out/$(basename "$c" .c)
	[ "$exe" -nt "$c" ] && continue
	# linked at 0x13370000, an address no other guest program uses (the
	# plugin's mark is a guest virtual address, seen in every process)
	gcc -Os -static -nostdlib -ffreestanding -fno-pie -no-pie -fno-stack-protector \
		-fno-asynchronous-unwind-tables -Wall -Wextra -Wl,-Ttext-segment=0x13370000 \
		-Wl,--build-id=none -Wl,-n -Wl,--no-warn-rwx-segments -o "$exe.tmp" "$c" ||
		die "building $(basename "$exe") failed (above)"
	mv "$exe.tmp" "$exe"
done
