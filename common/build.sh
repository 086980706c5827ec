#!/bin/bash
# build.sh <variant> [debug|iommu] - configure and build one variant's kernel out of tree.
#
# With "debug", the same tree is built with common/debug.config merged last
# (KASAN, kmemleak, lockdep, DEBUG_SG/LIST, fault injection; then the
# variant's own debug_config, if its variant file names one) into
# build/<variant>-debug/ (its own obj, modules, BUILD-INFO and stamp); every
# path below named build/<variant> is then build/<variant>-debug.
#
# With "iommu", bench/iommu.config is merged last instead (ACPI, MSI and
# QEMU's intel-iommu, none of the debug checkers) into build/<variant>-iommu/,
# for the IOMMU class of bench/attrib.sh.
#
# With "prefix", build/<variant>/src as it is (common/check-patches.sh checks
# it out at each prefix of the series; no common/tree.sh apply) goes to
# build/<variant>-prefix/, its objects to build/<variant>/prefix-obj (linked
# as build/<variant>-prefix/obj): beside the tree as the normal kernel's
# build/<variant>/obj is, so that ccache (CCACHE_BASEDIR) finds the normal
# kernel's compiles for every file a prefix has as the whole series has it.
# Options the fragments ask for that the prefix's Kconfig does not define
# yet are named, not fatal.
#
# Tree: build/<variant>/src (common/tree.sh), objects: build/<variant>/obj.
# Config: tinyconfig + common/guest.config + common/distro.config (Debian's
# -O2, mitigations and hardening) + variants/<variant>/config, merged
# with the kernel's scripts/kconfig/merge_config.sh; every option the
# fragments ask for is checked in the final .config.
# Output: build/<variant>/obj/arch/x86/boot/bzImage, the modules installed
# under build/<variant>/modules, and build/<variant>/BUILD-INFO.  The stamp
# build/<variant>/.built is written last, only after everything succeeded; it
# records the build's inputs, and a build whose inputs match it is skipped.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"

variant=${1:-}
flavour=${2:-}
check_variant "$variant"
bdir=$(flavour_dir "$variant" "$flavour")
out=$top/build/$bdir
src=$top/build/$variant/src
obj=$out/obj
if [ "$flavour" = prefix ]; then
	obj=$top/build/$variant/prefix-obj
	mkdir -p "$out" "$obj"
	ln -sfn "$obj" "$out/obj"
fi
jobs=${JOBS:-$(($(nproc) + 1))}

t0=$(date +%s)
fragments=("$top/common/guest.config" "$top/common/distro.config")
vconfig=$(variant_file "$variant" config)
[ -z "$vconfig" ] || fragments+=("$vconfig")
if [ "$flavour" = debug ]; then
	fragments+=("$top/common/debug.config")
	vdebug=$(variant_file "$variant" debug_config)
	[ -z "$vdebug" ] || fragments+=("$vdebug")
fi
[ "$flavour" = iommu ] && fragments+=("$top/bench/iommu.config")
[ "$flavour" = os ] && fragments+=("$top/bench/os.config")

# Everything the kernel is made from: the base, the series, the config
# fragments, the compiler and these build scripts.  A kernel whose stamp
# records the same inputs is not touched again (not even by make's own
# walk over the tree, which costs about a minute per kernel).
inputs=$(
	echo "base $(base_desc)"
	echo "series $(series_hash "$variant")"
	echo "flavour ${flavour:-normal}"
	[ "$flavour" != prefix ] || echo "tree $(git -C "$src" rev-parse HEAD)"
	cat "${fragments[@]}" "$0" "$top/common/tree.sh" | sha256sum | sed 's/ .*//;s/^/recipe /'
	gcc --version | head -n 1
)
if [ -f "$out/.built" ] && [ "$(cat "$out/.built")" = "$inputs" ] &&
	[ -f "$obj/arch/x86/boot/bzImage" ] && [ -d "$out/modules" ]; then
	note "$bdir: up to date (base, series, config and compiler unchanged)"
	phase_done "kernel $bdir (up to date)" "$t0"
	exit 0
fi
rm -f "$out/.built"
if [ "$flavour" = prefix ]; then
	[ -d "$src" ] || die "no build/$variant/src: run common/check-patches.sh, which checks each prefix out there"
else
	"$top/common/tree.sh" apply "$variant"
fi

cc=gcc
export CCACHE_BASEDIR=$top/build
command -v ccache >/dev/null && cc="ccache gcc"
mkargs=(-C "$src" O="$obj" CC="$cc" HOSTCC="$cc" -j"$jobs")

# Regenerate .config only when a fragment changed, so that an unchanged
# configuration keeps autoconf.h (and with it every object) untouched.
mkdir -p "$obj"
cfgsum=$(cat "${fragments[@]}" | sha256sum | cut -d' ' -f1)
# a prefix of a series may add Kconfig symbols the fragments ask for
[ "$flavour" = prefix ] && cfgsum="$cfgsum $(git -C "$src" ls-files -s -- '*Kconfig*' | sha256sum | cut -d' ' -f1)"
if [ ! -f "$obj/.config" ] || [ "$(cat "$out/config.sum" 2>/dev/null)" != "$cfgsum" ]; then
	note "$bdir: configuring (tinyconfig + ${fragments[*]##"$top"/})"
	rm -f "$out/config.sum"
	make -s "${mkargs[@]}" tinyconfig >/dev/null
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${fragments[@]}") \
		>"$out/merge_config.log" 2>&1 ||
		die "merge_config.sh failed for $bdir: see build/$bdir/merge_config.log"
	make -s "${mkargs[@]}" olddefconfig >/dev/null
	echo "$cfgsum" >"$out/config.sum"
fi
undefined_ok=()
[ "$flavour" = prefix ] && undefined_ok=(--tree "$src")
"$top/common/check-config.py" "${undefined_ok[@]}" "$obj/.config" "${fragments[@]}" ||
	die "$bdir: the final .config does not have what the fragments ask for (above); fix the fragment"

note "$bdir: building in build/$bdir/obj (make -j$jobs)"
if ! make "${mkargs[@]}" bzImage modules >"$out/build.log" 2>&1; then
	grep -E 'error:|Error [0-9]' "$out/build.log" | head -n 20 >&2
	die "$bdir: kernel build failed: see build/$bdir/build.log"
fi
rm -rf "$out/modules"
make -s "${mkargs[@]}" INSTALL_MOD_PATH="$out/modules" modules_install >/dev/null ||
	die "$bdir: modules_install failed"

{
	echo "variant $variant"
	[ -z "$flavour" ] || echo "flavour $flavour"
	echo "base $(base_desc)"
	echo "kernel_release $(cat "$obj/include/config/kernel.release")"
	echo "series_commit $(git -C "$src" rev-parse HEAD)"
	echo "series_sha256 $(series_hash "$variant")"
	echo "config_sha256 $(sha256sum <"$obj/.config" | cut -d' ' -f1)"
	echo "compiler $(gcc --version | head -n 1)"
} >"$out/BUILD-INFO"
echo "$inputs" >"$out/.built.tmp" && mv "$out/.built.tmp" "$out/.built"
note "$bdir: built $(cat "$obj/include/config/kernel.release") ($(base_desc))"
phase_done "kernel $bdir" "$t0"
