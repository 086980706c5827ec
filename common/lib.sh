# lib.sh - helpers shared by the sgbench shell scripts (sourced, not run).
# shellcheck shell=bash

die() {
	printf 'sgbench: error: %s\n' "$*" >&2
	exit 1
}

note() {
	printf 'sgbench: %s\n' "$*" >&2
}

# phase_done NAME START: say how long a phase took since START (seconds since
# the epoch, from date +%s), in the one form .ci/run collects for its
# summary: "sgbench: phase NAME: N s".
phase_done() {
	printf 'sgbench: phase %s: %d s\n' "$1" $(($(date +%s) - $2)) >&2
}

# The variants are the directories under variants/ (SGB_VARIANTS_DIR
# replaces it, for the rig's own tests), each described by its file
# variants/<name>/variant: one "key value" a line (role control|candidate,
# title, series, config, kunit).  This file and bench/variants.py are the
# only readers; no other script names a variant.
vroot=${SGB_VARIANTS_DIR:-$top/variants}

variants() {
	local d
	for d in "$vroot"/*/; do
		basename "$d"
	done
}

check_variant() {
	[ -n "$1" ] && [ -d "$vroot/$1" ] ||
		die "unknown variant '$1': choose one of $(variants | tr '\n' ' ')(directories under variants/)"
	[ -f "$vroot/$1/variant" ] ||
		die "variants/$1 has no file 'variant': copy one from another variant and set its role, title, series, config and kunit"
}

# variant_get VARIANT KEY: the value of KEY in variants/VARIANT/variant
# (everything after the key on its line); dies naming the file when the
# key is missing, and when role is neither control nor candidate.
variant_get() {
	local f=$vroot/$1/variant val
	check_variant "$1"
	val=$(awk -v k="$2" '$1 == k { sub(/^[^ \t]+[ \t]+/, ""); print; n++ } END { exit n == 1 ? 0 : 1 }' "$f") ||
		die "$f: no single line '$2 <value>' (see the comment at the top of the file)"
	if [ "$2" = role ]; then
		case $val in control | candidate) ;; *) die "$f: role is '$val': say control or candidate" ;; esac
	fi
	printf '%s\n' "$val"
}

# variant_file VARIANT KEY: the path of the file KEY (series, config) names,
# or nothing for "none"
variant_file() {
	local name
	name=$(variant_get "$1" "$2")
	[ "$name" = none ] || echo "$vroot/$1/$name"
}

# control_variant: the one variant whose role is control, among VARIANTS
# ($VARIANTS, default every variant); dies unless there is exactly one.
control_variant() {
	local v found=()
	for v in ${VARIANTS:-$(variants)}; do
		[ "$(variant_get "$v" role)" = control ] && found+=("$v")
	done
	[ ${#found[@]} -eq 1 ] ||
		die "there must be exactly one variant with 'role control' among ${VARIANTS:-$(variants | tr '\n' ' ')}; found ${#found[@]} (${found[*]:-none})"
	echo "${found[0]}"
}

# candidate_variants: the others, in directory order
candidate_variants() {
	local v
	for v in ${VARIANTS:-$(variants)}; do
		[ "$(variant_get "$v" role)" = candidate ] && echo "$v"
	done
	return 0
}

# flavour_dir VARIANT [FLAVOUR]: the folder under build/ of VARIANT's kernel
# of FLAVOUR: nothing (the normal kernel, build/VARIANT), debug
# (common/debug.config), iommu (bench/iommu.config) or prefix (a prefix of
# the series, common/check-patches.sh) -> build/VARIANT-FLAVOUR.
flavour_dir() {
	case ${2:-} in
	'') echo "$1" ;;
	debug | iommu | prefix) echo "$1-$2" ;;
	*) die "unknown kernel flavour '$2': say nothing (the normal kernel), 'debug', 'iommu' or 'prefix'" ;;
	esac
}

pkg_version() {
	dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null || echo unknown
}

# kernel version of the unpacked base, from its Makefile
kernel_version() {
	local mk=$top/build/git/Makefile
	[ -f "$mk" ] || { echo unknown; return; }
	awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3} END{print v"."p"."s}' "$mk"
}

base_desc() {
	echo "linux $(kernel_version) (Debian linux-source-6.1 $(pkg_version))"
}

# Warn loudly when the installed base is not the one the series were
# checked against (common/BASE); the series may still apply.
check_base_version() {
	local want_pkg want_kernel
	want_pkg=$(awk '$1=="package"{print $2}' "$top/common/BASE")
	want_kernel=$(awk '$1=="kernel"{print $2}' "$top/common/BASE")
	if [ "$(pkg_version)" != "$want_pkg" ] || [ "$(kernel_version)" != "$want_kernel" ]; then
		cat >&2 <<MSG
sgbench: ************************************************************
sgbench: WARNING: the base is $(base_desc),
sgbench: but the series were checked against linux $want_kernel
sgbench: (Debian linux-source-6.1 $want_pkg), see common/BASE.
sgbench: Results are labelled with the base actually used.
sgbench: ************************************************************
MSG
	fi
}

# series_files SERIES: the patch files a series lists, in order
series_files() {
	local dir p
	dir=$(dirname "$1")
	[ -f "$1" ] || return 0
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
		echo "$dir/$p"
	done <"$1"
}

# series_hash VARIANT: sha256 over the common and the variant's series and patches
series_hash() {
	local f series
	series=$(variant_file "$1" series)
	for f in "$top/common/series" $(series_files "$top/common/series") \
		"$series" $(series_files "$series"); do
		sha256sum "$f" | sed "s|$top/||"
	done | sha256sum | cut -d' ' -f1
}

# copy_libs ROOT FILE...: copy the shared libraries FILEs need (their ldd
# closure, dynamic loader included) into ROOT at their own paths.  Files
# that are not dynamic executables are skipped.
copy_libs() {
	local root=$1 lib f out
	shift
	for f in "$@"; do
		# ldd says so on stderr, with status 1, for a static executable or
		# a script; anything else it cannot do is an error
		if ! out=$(LC_ALL=C ldd "$f" 2>&1); then
			case $out in *"not a dynamic executable"*) continue ;; esac
			die "ldd $f failed: $out"
		fi
		printf '%s\n' "$out" | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}'
	done | sort -u | while read -r lib; do
		[ -e "$root/$lib" ] || cp -L --parents "$lib" "$root/"
	done
}

# The static guest scripts every guest image carries, and
# guest_scripts_into ROOT, which installs them under ROOT/usr/lib/sgbench/:
# lib.sh, the helpers plans source ($SGB_LIB in the guest), and bench.sh,
# what the guest runs on a bench job (qemu/run.sh -j).
guest_scripts=("$top/common/image/guest-lib.sh" "$top/bench/guest.sh")
guest_scripts_into() {
	install -D -m 0644 "$top/common/image/guest-lib.sh" "$1/usr/lib/sgbench/lib.sh" &&
		install -D -m 0644 "$top/bench/guest.sh" "$1/usr/lib/sgbench/bench.sh"
}

# make_cpio DIR OUT: an initramfs archive (newc, owned by root, sorted and
# with inode numbers renumbered and no device numbers, so the bytes do not
# depend on directory order or the host's filesystem) of DIR's contents,
# written atomically.
make_cpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 --reproducible) >"$2.tmp" &&
		mv "$2.tmp" "$2"
}

# plan_cpio PLAN TMPDIR OUT: the archive qemu/run.sh -l appends to the
# initramfs, /sgb-local/plan.sh (TMPDIR is made and left for it; the plan
# sources the image's own $SGB_LIB).  The same bytes every time for the same plan: the files'
# mtimes are set to 0 and make_cpio renumbers inodes, because the kernel
# parses each header field digit by digit and a new mtime alone would change
# the instructions an icount boot runs.
plan_cpio() {
	rm -rf "$2" && mkdir -p "$2/sgb-local" &&
		cp "$1" "$2/sgb-local/plan.sh" &&
		find "$2" -exec touch -h -d @0 {} + &&
		make_cpio "$2" "$3"
}

# The QEMU-disk integrity boots of tests/guest/qemu-disks.sh, NAME:DISKS:ARGS
# (qemu/run.sh -d DISKS -a ARGS): virtio-scsi and pvscsi on raw files, then
# pvscsi with every DMA mapping bounced through the swiotlb.  make test runs
# them on the normal kernels, make reliability on the debug kernels.
qdisk_boots="qemu-disks:virtio=file,pvscsi=file: qemu-disks-swiotlb:pvscsi=file:swiotlb=force"

# The boots of the host-adapter matrix (tests/guest/qemu-hba.sh), one a line,
# NAME|DISKS|HBAS|CDS: mptsas1068, lsi53c895a, am53c974, ahci, usb-storage
# on qemu-xhci and piix IDE in one q35 boot, with CD-ROMs on virtio-scsi,
# ahci and lsi53c895a; megasas and megasas-gen2 a boot each: megaraid_sas
# takes its legacy IRQ unshared (no ACPI, no MSI in this config), so
# qemu/run.sh puts it in slot 0x10, off the 9p share's line, and nothing
# else may share it (q35's AHCI would fail beside it).  make test runs them
# on both kernels; every SCSI, ATA and USB-storage adapter QEMU 7.2
# emulates is in one of them or in tests/guest/qemu-disks.sh (virtio-scsi,
# pvscsi).
hba_boots="qemu-hba|mptsas=file,lsi=file,am53c974=file,ahci=file,usb=file,ide=file,virtio=cd,ahci=cd,lsi=cd|mptsas,lsi,am53c974,ahci,usb,ide|virtio,ahci,lsi
qemu-hba-megasas|megasas=file|megasas|
qemu-hba-megasas-gen2|megasas-gen2=file|megasas-gen2|"
# What 6.1 gives each adapter's disk, one a line, HBA MAX_SEGMENTS
# MAX_HW_SECTORS_KB: the queue's max_segments and max_hw_sectors_kb on the
# sg_table kernel (its disk-appears checks; QEMU 7.2, sd, the -d disks of
# qemu/run.sh).  qemu-hba.sh passes a SCSI command of L = min(MAX_SEGMENTS,
# MAX_HW_SECTORS_KB / 4) scattered pages through SG_IO, which cannot be
# split, as check HBA/sg-io-scattered-L: each kernel must take what 6.1
# takes, whatever its own queue limits say.
hba_limits61="mptsas 128 4096
lsi 96 32767
am53c974 128 32767
ahci 168 128
usb 2048 1024
ide 128 32767
megasas 80 128
megasas-gen2 80 128"
# hba_sgio_pages HBA: its L (above), or "none" if it has no line
hba_sgio_pages() {
	awk -v h="$1" '$1 == h { l = $3 / 4; if ($2 < l) l = $2; print int(l); f = 1 }
		END { if (!f) print "none" }' <<<"$hba_limits61"
}
# The boots' kernel arguments: no_timer_check, because on q35 under a
# loaded TCG host the IO-APIC timer check misses the PIT's ticks and panics
# ("IO-APIC + timer doesn't work", seen on 2 of 4 q35 boots at load 20 on 2
# cores); sgb.limits61=HBA:MAX_SEGMENTS:MAX_HW_SECTORS_KB,... the table
# above for the guest.
hba_args="no_timer_check sgb.limits61=$(awk '{ printf "%s%s:%s:%s", (NR > 1 ? "," : ""), $1, $2, $3 }' <<<"$hba_limits61")"
