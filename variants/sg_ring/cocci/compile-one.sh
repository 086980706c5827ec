#!/bin/bash
# compile-one.sh FILE.c [MODNAME] - compile one C file against the sg_ring
# kernel that `make build` built (build/sg_ring/obj, or $SG_RING_OBJ), with
# the flags kbuild used for its drivers/scsi/scsi_lib.o; the object goes to
# a temporary directory, nothing in the build is written.  A quick check of
# a driver file before and after the semantic patch (or a hand edit):
# types and declarations against the sg_ring headers under the project's
# x86_64 config.  Not `make check-build`: code the config leaves out
# (ipr's sgl_alloc_order() without CONFIG_SGL_ALLOC) fails before and after
# alike.  A quoted #include is looked up next to FILE first, then in the
# tree's drivers/scsi.  Prints gcc's diagnostics; exits with gcc's status.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
obj=${SG_RING_OBJ:-$top/build/sg_ring/obj}
[ $# -ge 1 ] || { echo "usage: $0 FILE.c [MODNAME]" >&2; exit 2; }
src=$(readlink -f "$1")
mod=${2:-$(basename "$1" .c | tr -- - _)}
cmdfile=$obj/drivers/scsi/.scsi_lib.o.cmd
[ -f "$cmdfile" ] || { echo "$0: no $cmdfile: run 'make build' first" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
cmd=$(sed -n 's/^cmd_drivers\/scsi\/scsi_lib\.o := //p' "$cmdfile" | sed 's/ *; *\.\/tools\/objtool.*//')
cmd=${cmd/ccache gcc/gcc}
cmd=$(printf '%s' "$cmd" | sed -E "s#-Wp,-MMD,[^ ]+#-Wp,-MMD,$tmp/dep.d#; s#-o drivers/scsi/scsi_lib\.o [^ ]+/drivers/scsi/scsi_lib\.c#-o $tmp/out.o $src#; s#scsi_mod#$mod#g; s#\"scsi_lib\"#\"$mod\"#")
cd "$obj" && eval "$cmd"
