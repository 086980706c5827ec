#!/bin/sh
# the sg_api module's suites, timed with and without the differential cases
. "$SGB_LIB"
set -e
mkdir -p "$SGB_OUT/kunit0" "$SGB_OUT/kunit"
for cases in 0 default; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	if [ "$cases" = 0 ]; then
		modprobe sg_api_kunit blk_cases=0 blk_integrity_cases=0 blk_pad_cases=0
	else
		modprobe sg_api_kunit
	fi
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "cases=$cases start=$t0 end=$t1" >>"$SGB_OUT/kunit-time.txt"
	d=kunit; [ "$cases" = 0 ] && d=kunit0
	for s in /sys/kernel/debug/kunit/sg_*/; do
		cat "$s/results" >"$SGB_OUT/$d/$(basename "$s").ktap"
	done
	rmmod sg_api_kunit
done
dmesg >"$SGB_OUT/dmesg-kunit.txt"
