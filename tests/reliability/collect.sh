#!/bin/bash
# collect.sh DEST PARTS BOOT-DIR... - a reliability result from boots.
#
# Copies each boot's run.info, RESULT, console log (gzipped) and the
# files its plan wrote (*.tsv, *.json, plan.log, dmesg.txt, kmemleak.txt,
# dma-api.txt, complete) into DEST/<boot>/, writes PARTS (the parts that
# ran, for the report) and DEST/REPORT.md (tests/reliability/report.py).
# The folder is assembled as DEST.partial and renamed only when every file
# was written, so a partial result never looks complete.  run.sh --full
# calls it with the boots of one invocation; it also puts together the
# boots of several invocations (e.g. one per kernel run at once), each
# boot folder named <variant>-<part>.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/common/lib.sh"
[ $# -ge 3 ] || die "usage: tests/reliability/collect.sh DEST PARTS BOOT-DIR..."
# absolute: the copy of each plan's files runs in that boot's share/out
dest=$(realpath -m "$1") parts=$2
shift 2
tmp=$dest.partial
rm -rf "$tmp"
mkdir -p "$tmp" || die "cannot create $tmp"
ok=yes
for d in "$@"; do
	d=${d%/}
	b=$(basename "$d")
	[ -f "$d/run.info" ] || die "$d is not a boot folder of qemu/run.sh (no run.info)"
	[ ! -e "$tmp/$b" ] || die "two boots named $b: give each boot once"
	mkdir -p "$tmp/$b" &&
		cp "$d/run.info" "$d/RESULT" "$tmp/$b/" &&
		gzip -c "$d/console.log" >"$tmp/$b/console.log.gz" &&
		(cd "$d/share/out" && for f in ./*.tsv ./*.json plan.log dmesg.txt kmemleak.txt dma-api.txt complete; do
			[ ! -e "$f" ] || cp -- "$f" "$tmp/$b/" || exit 1
		done) ||
		ok=no
done
echo "$parts" >"$tmp/PARTS"
/usr/bin/python3 "$top/tests/reliability/report.py" "$tmp" >"$tmp/REPORT.md.tmp" &&
	mv "$tmp/REPORT.md.tmp" "$tmp/REPORT.md" || ok=no
if [ $ok = yes ] && rm -rf "$dest" && mv "$tmp" "$dest"; then
	note "reliability report: ${dest#"$top"/}/REPORT.md"
else
	die "the reliability results could not all be written (disk full? see 'df -h $tmp'); the partial run is left in $tmp and is not a result"
fi
