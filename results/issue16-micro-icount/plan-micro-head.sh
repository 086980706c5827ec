#!/bin/sh
# the sg_ring microbenchmark, then the sg_table control's module (built
# against this kernel: the control's API is 6.1's code in both kernels)
. "$SGB_LIB"
set -e
modprobe sg_api_bench
cp /sys/kernel/debug/sg_api_bench/results.json "$SGB_OUT/microbench-sg_ring.json"
rmmod sg_api_bench
base64 -d >/tmp/sg_api_bench_table.ko <<'B64'
