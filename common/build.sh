#!/bin/bash
# build.sh <variant> - configure and build one variant's kernel out of tree.
#
# Tree: build/<variant>/src (common/tree.sh), objects: build/<variant>/obj.
# Config: tinyconfig + common/guest.config + variants/<variant>/config, merged
# with the kernel's scripts/kconfig/merge_config.sh; every option the
# fragments ask for is checked in the final .config.
# Output: build/<variant>/obj/arch/x86/boot/bzImage, the modules installed
# under build/<variant>/modules, and build/<variant>/BUILD-INFO.  The stamp
# build/<variant>/.built is written last, only after everything succeeded.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"

variant=${1:-}
check_variant "$variant"
out=$top/build/$variant
src=$out/src
obj=$out/obj
jobs=${JOBS:-$(($(nproc) + 1))}

rm -f "$out/.built"
"$top/common/tree.sh" apply "$variant"

fragments=("$top/common/guest.config")
[ -f "$vroot/$variant/config" ] && fragments+=("$vroot/$variant/config")

cc=gcc
export CCACHE_BASEDIR=$top/build
command -v ccache >/dev/null && cc="ccache gcc"
mkargs=(-C "$src" O="$obj" CC="$cc" HOSTCC="$cc" -j"$jobs")

# Regenerate .config only when a fragment changed, so that an unchanged
# configuration keeps autoconf.h (and with it every object) untouched.
mkdir -p "$obj"
cfgsum=$(cat "${fragments[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$out/config.sum" 2>/dev/null)" != "$cfgsum" ]; then
	note "$variant: configuring (tinyconfig + ${fragments[*]##"$top"/})"
	rm -f "$out/config.sum"
	make -s "${mkargs[@]}" tinyconfig >/dev/null
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${fragments[@]}") \
		>"$out/merge_config.log" 2>&1 ||
		die "merge_config.sh failed for $variant: see build/$variant/merge_config.log"
	make -s "${mkargs[@]}" olddefconfig >/dev/null
	echo "$cfgsum" >"$out/config.sum"
fi
"$top/common/check-config.py" "$obj/.config" "${fragments[@]}" ||
	die "$variant: the final .config does not have what the fragments ask for (above); fix the fragment"

note "$variant: building in build/$variant/obj (make -j$jobs)"
if ! make "${mkargs[@]}" bzImage modules >"$out/build.log" 2>&1; then
	grep -E 'error:|Error [0-9]' "$out/build.log" | head -n 20 >&2
	die "$variant: kernel build failed: see build/$variant/build.log"
fi
rm -rf "$out/modules"
make -s "${mkargs[@]}" INSTALL_MOD_PATH="$out/modules" modules_install >/dev/null ||
	die "$variant: modules_install failed"

{
	echo "variant $variant"
	echo "base $(base_desc)"
	echo "kernel_release $(cat "$obj/include/config/kernel.release")"
	echo "series_commit $(git -C "$src" rev-parse HEAD)"
	echo "series_sha256 $(series_hash "$variant")"
	echo "config_sha256 $(sha256sum <"$obj/.config" | cut -d' ' -f1)"
	echo "compiler $(gcc --version | head -n 1)"
} >"$out/BUILD-INFO"
touch "$out/.built"
note "$variant: built $(cat "$obj/include/config/kernel.release") ($(base_desc))"
