# guest-lib.sh - helpers for plans, in the guest images as
# /usr/lib/sgbench/lib.sh (sourced by plans in the guest: . "$SGB_LIB";
# busybox sh, or bash in the Debian image).

# sd_load ARGS...: load scsi_debug with ARGS, wait for its disk, raise
# max_sectors_kb to 4096 (sd starts at 512) and print the disk's name.
sd_load() {
	modprobe scsi_debug "$@" || return 1
	local i=0 d=
	while [ $i -lt 100 ]; do
		for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
			[ -e "$d" ] && break 2
		done
		i=$((i + 1))
		sleep 0.1
	done
	[ -e "$d" ] || { echo "scsi_debug disk did not appear" >&2; return 1; }
	d=$(basename "$d")
	i=0
	while [ ! -b /dev/$d ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	echo 4096 >/sys/block/$d/queue/max_sectors_kb || return 1
	echo "$d"
}

# block_stat DISK: "read_ios read_sectors write_ios write_sectors"
block_stat() {
	awk '{print $1, $3, $5, $7}' /sys/block/$1/stat
}

# nullb_load: load null_blk as one blk-mq disk completing in the submitting
# context (queue_mode=2 irqmode=0), taking requests of up to 4 MiB, and
# print its name.
nullb_load() {
	modprobe null_blk queue_mode=2 irqmode=0 nr_devices=1 gb=1 max_sectors=8192 || return 1
	local i=0
	while [ ! -b /dev/nullb0 ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	[ -b /dev/nullb0 ] || { echo "null_blk disk did not appear" >&2; return 1; }
	echo 4096 >/sys/block/nullb0/queue/max_sectors_kb || return 1
	echo nullb0
}

# slab_peak FILE CMD...: run CMD, reading /proc/slabinfo while it runs, and
# keep in FILE the snapshot with the most sg pool objects (sgpool-*,
# sgring-*) in use.  Fails if CMD fails or no snapshot was taken.
slab_peak() {
	local file=$1 pid n best=-1
	shift
	"$@" &
	pid=$!
	while [ -d /proc/$pid ]; do
		cat /proc/slabinfo >"$file.cur" || break
		n=$(awk '$1 ~ /^sg(pool|ring)-/ {s += $2} END {print s + 0}' "$file.cur")
		if [ "$n" -gt "$best" ]; then best=$n; mv "$file.cur" "$file"; fi
		sleep 0.02
	done
	rm -f "$file.cur"
	wait $pid || return 1
	[ -f "$file" ]
}

# inflight_trace DIR CMD...: run CMD with the sg pool objects and the SCSI
# commands traced, and leave in DIR a copy of the tracefs files that
# bench/model.py's reader of the ring buffer needs, under their tracefs
# names: events/header_page and events/header_event (the page and event
# header layouts), events/<system>/<event>/format and filter of each event
# traced, and per CPU per_cpu/cpuN/trace_pipe_raw (the ring buffer's pages,
# fixed-offset binary records as the format files define them) and
# per_cpu/cpuN/stats (read before the pages, for lost events).  Events:
# kmem:kmem_cache_alloc of the object sizes the sg caches have (the event
# has no cache name: the host tells sg objects apart by pointer),
# kmem:kmem_cache_free of the caches sgpool-* and sgring-* (it has the
# name), scsi:scsi_dispatch_cmd_start, _done, _error and _timeout (the
# commands, by tag).  The buffer holds the whole of CMD (16 MiB per CPU);
# it is read after CMD, because a reader of trace_pipe_raw waits for more
# data when it is empty: the readers run until the stats show every CPU's
# buffer drained, then they are stopped.  Fails if CMD fails, tracing
# cannot be set up, or the buffer lost events.
inflight_trace() {
	local dir=$1 T=/sys/kernel/tracing e s f='' st=0 c pids='' i=0 left kb rest
	shift
	[ -d $T/events ] || mount -t tracefs nodev $T || return 1
	local evs="kmem/kmem_cache_alloc kmem/kmem_cache_free scsi/scsi_dispatch_cmd_start
		scsi/scsi_dispatch_cmd_done scsi/scsi_dispatch_cmd_error scsi/scsi_dispatch_cmd_timeout"
	for s in $(awk '$1 ~ /^sg(pool|ring)-[0-9]+$/ {print $4}' /proc/slabinfo | sort -un); do
		f="${f:+$f || }bytes_alloc == $s"
	done
	[ -n "$f" ] || { echo "inflight_trace: no sgpool-* or sgring-* cache in /proc/slabinfo" >&2; return 1; }
	read -r kb rest <$T/buffer_size_kb || return 1
	echo 0 >$T/tracing_on && echo 16384 >$T/buffer_size_kb && echo >$T/trace || return 1
	echo "$f" >$T/events/kmem/kmem_cache_alloc/filter || return 1
	echo 'name ~ "sgpool-*" || name ~ "sgring-*"' >$T/events/kmem/kmem_cache_free/filter || return 1
	mkdir -p "$dir/events" || return 1
	cat $T/events/header_page >"$dir/events/header_page" &&
		cat $T/events/header_event >"$dir/events/header_event" || return 1
	for e in $evs; do
		mkdir -p "$dir/events/$e" &&
			cat $T/events/$e/format >"$dir/events/$e/format" &&
			cat $T/events/$e/filter >"$dir/events/$e/filter" &&
			echo 1 >$T/events/$e/enable || return 1
	done
	echo 1 >$T/tracing_on || return 1
	"$@" || st=1
	echo 0 >$T/tracing_on || st=1
	for e in $evs; do echo 0 >$T/events/$e/enable; echo 0 >$T/events/$e/filter; done
	for c in $T/per_cpu/cpu*; do
		mkdir -p "$dir/per_cpu/${c##*/}" && cat $c/stats >"$dir/per_cpu/${c##*/}/stats" || st=1
		cat $c/trace_pipe_raw >"$dir/per_cpu/${c##*/}/trace_pipe_raw" &
		pids="$pids $!"
	done
	# the readers are done when no CPU's buffer has entries left
	while :; do
		left=$(cat $T/per_cpu/cpu*/stats | awk '$1 == "entries:" {s += $2} END {print s + 0}')
		[ "$left" = 0 ] && break
		i=$((i + 1))
		[ $i -lt 300 ] || { echo "inflight_trace: $left events still unread after 30 s" >&2; st=1; break; }
		sleep 0.1
	done
	# a reader that found its buffer empty waits for more: stop it
	sleep 0.2
	kill $pids
	wait $pids
	for c in "$dir"/per_cpu/cpu*/stats; do
		awk '/^(overrun|commit overrun|dropped events):/ && $NF != 0 { bad = 1 } END { exit bad }' "$c" ||
			{ echo "inflight_trace: the ring buffer lost events ($c)" >&2; st=1; }
	done
	echo "$kb" >$T/buffer_size_kb || st=1
	return $st
}

# qdisk HBA [cd]: wait for the disk (or, with cd, the CD-ROM) qemu/run.sh -d
# attached to HBA (found by its SCSI host's proc_name, and where the adapter
# table gives one by the PCI device id: megasas and megasas-gen2 share a
# driver; the table is common/adapters.tsv, in the image beside this file),
# raise its max_sectors_kb to 4096 (or the HBA's max_hw_sectors_kb if
# lower) and print the disk's name.
SGB_ADAPTERS=${SGB_ADAPTERS:-/usr/lib/sgbench/adapters.tsv}
# adapter_driver HBA: "PROC_NAME PCI" of HBA's row of the table, the columns
# found by the table's header line ("# name<TAB>..."), or nothing
adapter_driver() {
	awk -F "$(printf '\t')" -v n="$1" '
		/^# name\t/ { sub(/^# /, ""); for (k = 1; k <= NF; k++) col[$k] = k; next }
		!/^#/ && $1 == n && col["proc_name"] && col["pci"] { print $col["proc_name"], $col["pci"] }' "$SGB_ADAPTERS"
}
qdisk() {
	local drv i=0 h d= hw pci= pat=sd
	[ "${2:-}" = cd ] && pat=sr
	set -- "$1" "${2:-}" $(adapter_driver "$1")
	[ $# -eq 4 ] || { echo "qdisk: unknown HBA '$1' (not a row of $SGB_ADAPTERS)" >&2; return 1; }
	drv=$3
	[ "$4" = - ] || pci=$4
	while [ $i -lt 300 ]; do
		for h in /sys/class/scsi_host/host*; do
			[ "$(cat $h/proc_name)" = "$drv" ] || continue
			[ -z "$pci" ] || [ "$(cat $h/device/../device)" = "$pci" ] || continue
			# below the host at any depth: a SAS transport (mptsas)
			# puts its targets under port-H:N/end_device-H:N
			for d in /sys/block/$pat*; do
				[ -e "$d" ] || continue
				case $(readlink -f "$d/device") in
				*/$(basename $h)/*) break 3 ;;
				esac
			done
		done
		d=
		i=$((i + 1))
		sleep 0.1
	done
	[ -n "$d" ] || { echo "no $drv ${2:-disk} appeared within 30 s (did qemu/run.sh get -d $1=...?)" >&2; return 1; }
	d=$(basename "$d")
	i=0
	while [ ! -b /dev/$d ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	hw=$(cat /sys/block/$d/queue/max_hw_sectors_kb)
	[ "$hw" -gt 4096 ] && hw=4096
	echo "$hw" >/sys/block/$d/queue/max_sectors_kb || return 1
	echo "$d"
}

# scsi_segs HOST: "N M" from the scsi:scsi_dispatch_cmd_start events in the
# trace buffer (the plan enables them and clears the buffer): the number of
# commands with data that SCSI host HOST was given, and the most data
# segments (data_sgl=, the segments the driver received) of one of them.
scsi_segs() {
	awk -v h="host_no=$1" '
	/scsi_dispatch_cmd_start:/ {
		ok = 0
		for (i = 1; i <= NF; i++) {
			if ($i == h) ok = 1
			if (ok && $i ~ /^data_sgl=/) {
				n = substr($i, 10) + 0
				if (n > 0) cmds++
				if (n > max) max = n
			}
		}
	}
	END { printf "%d %d\n", cmds, max }' /sys/kernel/tracing/trace
}
# sgio_scattered HBA DISK HOST: SCSI passthrough of 6.1's most pages per
# command (tests/guest/qemu-hba.sh says why): scatterio --sg-io writes and
# reads back L scattered pages at 64 MiB of /dev/DISK with one WRITE(10)
# and one READ(10) through SG_IO, L = min(max_segments, max_hw_sectors_kb
# / 4) of 6.1 for HBA from sgb.limits61 on the kernel command line
# (hba_limits61 in common/lib.sh), not of the running kernel.  A
# passthrough command cannot be split: it must pass, and HOST's driver must
# get one command of L segments (the scsi_dispatch_cmd_start events, which
# the plan enables).  Prints "NAME<TAB>passed|failed<TAB>why", NAME
# HBA/sg-io-scattered-L.
sgio_scattered() {
	local hba=$1 disk=$2 host=$3 q=/sys/block/$2/queue seg61 kb61 L lba out st
	set -- $(tr ' ' '\n' </proc/cmdline | sed -n 's/^sgb\.limits61=//p' | tr , '\n' |
		awk -F: -v h="$hba" '$1 == h { print $2, $3 }')
	if [ $# -ne 2 ]; then
		printf '%s\t%s\t%s\n' "$hba/sg-io-scattered-none" failed \
			"no 6.1 limits for $hba in sgb.limits61 (hba_limits61 in common/lib.sh)"
		return
	fi
	seg61=$1 kb61=$2 L=$1
	[ $((kb61 / 4)) -lt "$L" ] && L=$((kb61 / 4))
	lba=$((64 * 1024 * 1024 / $(cat $q/logical_block_size)))
	echo "$(date +%T) $hba SG_IO of $L scattered pages" >&2
	echo >/sys/kernel/tracing/trace
	out=$(scatterio --sg-io /dev/$disk $L $lba 2>&1)
	st=$?
	set -- $(scsi_segs $host)
	printf '%s\t%s\t%s\n' "$hba/sg-io-scattered-$L" \
		"$([ $st -eq 0 ] && [ "$2" -eq "$L" ] && echo passed || echo failed)" \
		"this kernel's max_segments $(cat $q/max_segments), max_hw_sectors_kb $(cat $q/max_hw_sectors_kb); L = 6.1's min(max_segments $seg61, max_hw_sectors_kb $kb61 / 4); $1 commands, at most $2 segments; ${out#scatterio: }"
}

# settle: wait until the kernel runs on its final clocksource (tsc, which it
# switches to about a second after boot, with the tick leaving periodic
# mode on the next tick).  Before that, every timer interrupt costs
# differently, so a plan that counts instructions (bench/attrib.sh,
# tests/plugin.sh) starts measuring only after it.  Under icount the wait
# itself is the same every boot.
settle() {
	local i=0 cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
	while ! grep -qx tsc $cs && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
	grep -qx tsc $cs || { echo "settle: the clocksource is still $(cat $cs) after 10 s" >&2; return 1; }
	sleep 0.1
}
