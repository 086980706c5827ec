#!/bin/bash
# keep.sh RUN: make a finished bench run folder what results/ keeps
# (results/INDEX.md, "What a run keeps"): the files only forensics needs
# (perf.data and perf logs, console, QEMU and plan logs, dmesg,
# run.stderr, the trace's filter files) into one RUN/forensics.tar.xz with
# its line in RUN/SHA256SUMS, and the large inputs the reports read
# gzipped in place (-9n: the guest's kallsyms, the inflight traces'
# trace_pipe_raw), which bench/readers.py open_data reads as the plain
# files; of a kernel's kallsyms, the same in every boot, the first boot's
# per device (the one the reports read).  The reports read none of the
# forensic files; `cd RUN &&
# sha256sum -c SHA256SUMS && tar -xJf forensics.tar.xz` puts them back.
#
# Run it once, after the run and its reports are complete; it refuses a
# folder that already has forensics.tar.xz and one without REPORT.md.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"

[ $# -eq 1 ] || die "usage: bench/keep.sh results/<run-id>"
run=${1%/}
{ [ -f "$run/meta.txt" ] && [ -d "$run/raw" ]; } || die "$run is not a bench run folder (no meta.txt or raw/)"
[ -f "$run/REPORT.md" ] || die "$run has no REPORT.md: finish the run (make report RUN=$run) before keeping it"
[ ! -e "$run/forensics.tar.xz" ] || die "$run already has forensics.tar.xz: it was kept already"

cd "$run"
list=$(mktemp)
trap 'rm -f "$list"' EXIT
find raw \( -name console.log -o -name qemu.log -o -name run.stderr -o -name dmesg.txt \
	-o -name plan.log -o -name '*.perf.data' -o -name '*.perf.log' \
	-o \( -name filter -path '*.inflight/*' \) \) -type f | LC_ALL=C sort >"$list"
[ -s "$list" ] || die "$run has no forensic files to pack"
tar --owner=0 --group=0 --numeric-owner --mtime=@0 -cJf forensics.tar.xz -T "$list"
xargs -d '\n' rm -f <"$list"
sha256sum forensics.tar.xz >>SHA256SUMS
# a kernel's kallsyms is the same in every boot (no KASLR): per device and
# kernel only the first boot's is kept (the one the perf table reads); a
# later boot's that differs from it is kept too
dup=0
for kdir in raw/*/*/; do
	first=
	for f in "$kdir"r*/share/out/kallsyms; do
		[ -f "$f" ] || continue
		if [ -z "$first" ]; then
			first=$f
		elif cmp -s "$first" "$f"; then
			rm -f "$f"
			dup=$((dup + 1))
		fi
	done
done
n=0
while IFS= read -r f; do
	gzip -9n "$f"
	n=$((n + 1))
done < <(find raw \( -name kallsyms -o -name trace_pipe_raw \) -type f | LC_ALL=C sort)
echo "sgbench: keep: $(wc -l <"$list") forensic files in $run/forensics.tar.xz ($(du -k forensics.tar.xz | cut -f1) KiB), $dup copies of a kallsyms removed, $n inputs gzipped"
