#!/bin/bash
# adds $DET_QEMU_ARGS to qemu's command line (experiments only)
read -r -a extra <<<"${DET_QEMU_ARGS:-}"
exec qemu-system-x86_64 "$@" "${extra[@]}"
