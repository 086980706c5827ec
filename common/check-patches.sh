#!/bin/bash
# check-patches.sh - scripts/checkpatch.pl --strict (from the base tree) on
# every patch of common/series and each variant's series.  Prints one line per
# patch, "<series-dir>/<patch>\t<passed|failed>\t<errors, warnings, checks>";
# exits non-zero if any patch has an error.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
cp=$top/build/git/scripts/checkpatch.pl
[ -x "$cp" ] || die "no base tree: run 'make base' first"
bad=0
for series in "$top/common/series" "$top"/variants/*/series; do
	dir=$(dirname "$series")
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
		out=$(cd "$top/build/git" && perl "$cp" --strict --no-signoff --show-types "$dir/$p" 2>&1)
		sum=$(printf '%s\n' "$out" | sed -n 's/^total: \(.*\) lines checked$/\1/p' | tail -n 1)
		errs=$(printf '%s\n' "$sum" | sed -n 's/^\([0-9]*\) errors.*/\1/p')
		grep -q '^Signed-off-by:' "$dir/$p" || { errs=${errs:-0}; sum="no Signed-off-by; $sum"; errs=$((errs + 1)); }
		if [ "${errs:-1}" -eq 0 ]; then
			printf '%s\tpassed\t%s\n' "${dir#"$top"/}/$p" "$sum"
		else
			printf '%s\tfailed\t%s\n' "${dir#"$top"/}/$p" "${sum:-checkpatch did not run}"
			printf '%s\n' "$out" | grep -E '^(ERROR|#)' -A2 | head -n 30 | sed 's/^/    /' >&2
			bad=1
		fi
	done <"$series"
done
exit $bad
