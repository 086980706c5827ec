# lib.sh - helpers shared by the sgbench shell scripts (sourced, not run).
# shellcheck shell=bash

die() {
	printf 'sgbench: error: %s\n' "$*" >&2
	exit 1
}

note() {
	printf 'sgbench: %s\n' "$*" >&2
}

# The variants are the directories under variants/.
variants() {
	local d
	for d in "$top"/variants/*/; do
		basename "$d"
	done
}

check_variant() {
	[ -n "$1" ] && [ -d "$top/variants/$1" ] ||
		die "unknown variant '$1': choose one of $(variants | tr '\n' ' ')(directories under variants/)"
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
