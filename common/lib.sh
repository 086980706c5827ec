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

# load_config NAME VAR...: the named configuration bench/configs/NAME.conf
# (mmtests style: the settings of one kind of run, under a name), for a
# script that takes the settings VAR...: each "VAR=value" (or VAR="value")
# line is exported unless the environment already sets VAR, so that
# "make attrib CONFIG=attrib-o2 PAR=1" changes one setting of a named run.
# Dies on a line it cannot read and on a VAR the script does not take.
load_config() {
	local name=$1 f line key val n=0
	shift
	f=$top/bench/configs/$name.conf
	[ -f "$f" ] || die "no configuration '$name' (bench/configs/$name.conf): choose one of $(cd "$top/bench/configs" && ls -- *.conf | sed 's/\.conf$//' | tr '\n' ' ')"
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in '' | '#'*) continue ;; esac
		[[ $line =~ ^([A-Z_][A-Z0-9_]*)=(.*)$ ]] || die "bench/configs/$name.conf:$n: want VAR=value, not '$line'"
		key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		[[ $val =~ ^\"(.*)\"$ ]] && val=${BASH_REMATCH[1]}
		[[ " $* " == *" $key "* ]] || die "bench/configs/$name.conf:$n: $key is not a setting of this script (it takes: $*)"
		[ -n "${!key+x}" ] || export "$key=$val"
	done <"$f"
	note "configuration $name (bench/configs/$name.conf)"
}

# require_committed_tree: a run written into results/ (SGB_RESULTS unset)
# is evidence a report may cite, so it is made from a committed tree: dies
# naming the changed files (outside results/ and build/; untracked ones
# too) unless ALLOW_DIRTY=1, in which case the run's meta.txt says
# "with uncommitted changes".  Runs elsewhere (the tests') are not checked.
require_committed_tree() {
	local changed
	[ -z "${SGB_RESULTS:-}" ] || return 0
	[ "${ALLOW_DIRTY:-0}" = 1 ] && return 0
	[ -e "$top/.git" ] || return 0
	changed=$(git -C "$top" status --porcelain -- . ':!results' ':!build') ||
		die "git status failed in $top (above)"
	[ -z "$changed" ] ||
		die "this checkout has changes that are not committed ($(printf '%s\n' "$changed" | head -n 5 | cut -c4- | tr '\n' ' ')): a run in results/ must name the tree it was made from; commit them, or set ALLOW_DIRTY=1 to run anyway (its meta.txt then says so)"
}

# project_commit: the checkout's commit, "with uncommitted changes" when
# anything outside results/ and build/ differs from it (untracked files
# too), for a run's meta.txt
project_commit() {
	local c
	[ -e "$top/.git" ] || { echo "unknown (not a git checkout)"; return 0; }
	c=$(git -C "$top" rev-parse HEAD) || die "git rev-parse failed in $top (above)"
	if [ -n "$(git -C "$top" status --porcelain -- . ':!results' ':!build')" ]; then
		echo "$c with uncommitted changes"
	else
		echo "$c"
	fi
}

# The variants are the directories under variants/ (SGB_VARIANTS_DIR
# replaces it, for the rig's own tests), each described by its file
# variants/<name>/variant: one "key value" a line (role control|candidate,
# title, series, config, kunit, default yes|no, memory chained|ring|none).  This file and bench/variants.py are the
# only readers; no other script names a variant.
vroot=${SGB_VARIANTS_DIR:-$top/variants}

# variants: the variants a run takes, one a line: $VARIANTS if set (make
# exports it), else every variant whose file says "default yes".
# all_variants: every directory under variants/.
all_variants() {
	local d
	for d in "$vroot"/*/; do
		basename "$d"
	done
}
variants() {
	local v
	if [ -n "${VARIANTS:-}" ]; then
		printf '%s\n' $VARIANTS
		return 0
	fi
	for v in $(all_variants); do
		if [ "$(variant_get "$v" default)" = yes ]; then echo "$v"; fi
	done
}

check_variant() {
	[ -n "$1" ] && [ -d "$vroot/$1" ] ||
		die "unknown variant '$1': choose one of $(all_variants | tr '\n' ' ')(directories under variants/)"
	[ -f "$vroot/$1/variant" ] ||
		die "variants/$1 has no file 'variant': copy one from another variant and set its role, title, series, config, kunit, debug_config, kunit_debug, default and memory"
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
	if [ "$2" = default ]; then
		case $val in yes | no) ;; *) die "$f: default is '$val': say yes (make test and make bench take it) or no" ;; esac
	fi
	printf '%s\n' "$val"
}

# variant_file VARIANT KEY: the path of the file KEY (series, config, debug_config) names,
# or nothing for "none"
variant_file() {
	local name
	name=$(variant_get "$1" "$2")
	[ "$name" = none ] || echo "$vroot/$1/$name"
}

# control_variant: the one variant whose role is control, among the
# variants a run takes (variants, above); dies unless there is exactly one.
control_variant() {
	local v found=()
	for v in $(variants); do
		[ "$(variant_get "$v" role)" = control ] && found+=("$v")
	done
	[ ${#found[@]} -eq 1 ] ||
		die "there must be exactly one variant with 'role control' among $(variants | tr '\n' ' '); found ${#found[@]} (${found[*]:-none})"
	echo "${found[0]}"
}

# candidate_variants: the others, in directory order
candidate_variants() {
	local v
	for v in $(variants); do
		[ "$(variant_get "$v" role)" = candidate ] && echo "$v"
	done
	return 0
}

# flavour_dir VARIANT [FLAVOUR]: the folder under build/ of VARIANT's kernel
# of FLAVOUR: nothing (the normal kernel, build/VARIANT), debug
# (common/debug.config), iommu (bench/iommu.config), os (bench/os.config:
# the normal kernel at -Os) or prefix (a prefix of the series,
# common/check-patches.sh) -> build/VARIANT-FLAVOUR.
flavour_dir() {
	case ${2:-} in
	'') echo "$1" ;;
	debug | iommu | os | prefix) echo "$1-$2" ;;
	*) die "unknown kernel flavour '$2': say nothing (the normal kernel), 'debug', 'iommu', 'os' or 'prefix'" ;;
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
# lib.sh, the helpers plans source ($SGB_LIB in the guest), bench.sh,
# what the guest runs on a bench job (qemu/run.sh -j), and adapters.tsv,
# the adapter table (qdisk finds an adapter's host by its proc_name).
guest_scripts=("$top/common/image/guest-lib.sh" "$top/bench/guest.sh" "$top/common/adapters.tsv")
guest_scripts_into() {
	install -D -m 0644 "$top/common/image/guest-lib.sh" "$1/usr/lib/sgbench/lib.sh" &&
		install -D -m 0644 "$top/bench/guest.sh" "$1/usr/lib/sgbench/bench.sh" &&
		install -D -m 0644 "$top/common/adapters.tsv" "$1/usr/lib/sgbench/adapters.tsv"
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

# The emulated storage adapters: common/adapters.tsv, one a row (its
# header says what each field is).  adapters: their names, in table order;
# adapter_get NAME FIELD: one field of NAME's row (dies on an unknown
# adapter or field).
adapter_table=${SGB_ADAPTERS:-$top/common/adapters.tsv}
# adapter_fields: the field names, from the table's header line
# ("# name<TAB>...")
adapter_fields() {
	local f
	f=$(awk -F'\t' '/^# name\t/ { sub(/^# /, ""); $1 = $1; print; exit }' OFS=' ' "$adapter_table")
	[ -n "$f" ] || die "$adapter_table has no header line '# name<TAB>...' naming its fields"
	echo "$f"
}
adapters() {
	awk -F'\t' '!/^#/ && NF { print $1 }' "$adapter_table"
}
# adapter_col FIELD: the column of FIELD in the table (dies on an unknown
# field)
adapter_col() {
	local i=0 f fields
	fields=$(adapter_fields) || exit 1
	for f in $fields; do
		i=$((i + 1))
		[ "$f" = "$1" ] && { echo "$i"; return 0; }
	done
	die "no field '$1' in $adapter_table (fields: $fields)"
}
adapter_get() {
	local i
	i=$(adapter_col "$2") || exit 1
	awk -F'\t' -v n="$1" -v i="$i" '!/^#/ && $1 == n { print $i; f = 1 } END { exit !f }' "$adapter_table" ||
		die "unknown adapter '$1': choose one of $(adapters | tr '\n' ' ')(rows of ${adapter_table#"$top"/})"
}

# adapter_of_class FIELD CLASS: the adapter whose FIELD (bench or attrib)
# lists device class CLASS, or nothing; classes_of FIELD: every class FIELD
# lists, one a line
adapter_of_class() {
	local i
	case $1 in bench | attrib) i=$(adapter_col "$1") || exit 1 ;; *) die "adapter_of_class: say bench or attrib, not '$1'" ;; esac
	awk -F'\t' -v i="$i" -v c="$2" '!/^#/ && NF { n = split($i, a, ","); for (k = 1; k <= n; k++) if (a[k] == c) print $1 }' "$adapter_table"
}
classes_of() {
	local i
	case $1 in bench | attrib) i=$(adapter_col "$1") || exit 1 ;; *) die "classes_of: say bench or attrib, not '$1'" ;; esac
	awk -F'\t' -v i="$i" '!/^#/ && NF && $i != "-" { n = split($i, a, ","); for (k = 1; k <= n; k++) print a[k] }' "$adapter_table"
}

# The QEMU-disk integrity boots of tests/guest/qemu-disks.sh, NAME:DISKS:ARGS
# (qemu/run.sh -d DISKS -a ARGS): the adapters whose boot is qemu-disks
# (virtio-scsi and pvscsi) on raw files, then pvscsi with every DMA mapping
# bounced through the swiotlb.  make test runs them on the normal kernels,
# make reliability on the debug kernels.
qdisk_boots="qemu-disks:$(awk -F'\t' -v b="$(adapter_col boot)" '!/^#/ && $b == "qemu-disks" { printf "%s%s=file", (n++ ? "," : ""), $1 }' "$adapter_table"): qemu-disks-swiotlb:pvscsi=file:swiotlb=force"

# The boots of the host-adapter matrix (tests/guest/qemu-hba.sh), one a line,
# NAME|DISKS|HBAS|CDS, from the boot field of the adapter table: each boot
# whose name starts with qemu-hba, with a raw-file disk on each of its
# adapters; the CD-ROMs of every adapter that has one ride in the boot
# named qemu-hba.  make test runs them on every kernel; every SCSI, ATA and
# USB-storage adapter QEMU 7.2 emulates is in one of them or in
# qemu_disks (virtio-scsi, pvscsi).
hba_boots=$(awk -F'\t' -v b="$(adapter_col boot)" -v c="$(adapter_col cd)" '!/^#/ && NF {
		if ($b ~ /^qemu-hba/) {
			if (!($b in disks)) order[++n] = $b
			disks[$b] = disks[$b] (disks[$b] == "" ? "" : ",") $1 "=file"
			hbas[$b] = hbas[$b] (hbas[$b] == "" ? "" : ",") $1
		}
		if ($c != "-") { cdd = cdd "," $1 "=cd"; cds = cds (cds == "" ? "" : ",") $1 }
	}
	END {
		for (i = 1; i <= n; i++) {
			x = order[i]
			if (x == "qemu-hba") print x "|" disks[x] cdd "|" hbas[x] "|" cds
			else print x "|" disks[x] "|" hbas[x] "|"
		}
	}' "$adapter_table")
# What 6.1 gives each adapter's disk, one a line, HBA MAX_SEGMENTS
# MAX_HW_SECTORS_KB (seg61 and hwkb61 of the table).  qemu-hba.sh passes a
# SCSI command of L = min(MAX_SEGMENTS, MAX_HW_SECTORS_KB / 4) scattered
# pages through SG_IO, which cannot be split, as check
# HBA/sg-io-scattered-L: each kernel must take what 6.1 takes, whatever its
# own queue limits say.
hba_limits61=$(awk -F'\t' -v s="$(adapter_col seg61)" -v h="$(adapter_col hwkb61)" \
	'!/^#/ && NF && $s != "-" { print $1, $s, $h }' "$adapter_table")
# hba_sgio_pages HBA: its L (above), or "none" if it has no line
hba_sgio_pages() {
	awk -v h="$1" '$1 == h { l = $3 / 4; if ($2 < l) l = $2; print int(l); f = 1 }
		END { if (!f) print "none" }' <<<"$hba_limits61"
}
# The boots' kernel arguments: no_timer_check, because on q35 under a
# loaded TCG host the IO-APIC timer check misses the PIT's ticks and panics
# ("IO-APIC + timer doesn't work", seen on 2 of 4 q35 boots at load 20 on 2
# cores); sgb.limits61=HBA:MAX_SEGMENTS:MAX_HW_SECTORS_KB,... the table
# above for the guest (limits61_arg, which the qemu-disks boots take too).
limits61_arg="sgb.limits61=$(awk '{ printf "%s%s:%s:%s", (NR > 1 ? "," : ""), $1, $2, $3 }' <<<"$hba_limits61")"
hba_args="no_timer_check $limits61_arg"
