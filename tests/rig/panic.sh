#!/bin/sh
# rig test plan: panics the kernel (the run must end as a panic failure)
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
sleep 60
