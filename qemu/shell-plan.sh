#!/bin/sh
# make shell: load scsi_debug (delay=0, 256 MiB) before the prompt.
. "$SGB_LIB"
disk=$(sd_load dev_size_mb=256 delay=0) && echo "scsi_debug disk: /dev/$disk (max_sectors_kb 4096)"
