#!/bin/bash
# tests/multihost.sh - make bench-multihost-selftest: run the
# multi-host bench recipe of docs/bench.md for real, with this machine as its own remote, and
# check that its report gives the figures of the same matrix run locally.
#
#   1. an sshd of our own on 127.0.0.1:$SGB_SSH_PORT (default 22022), with a
#      host key, a client key and an authorized_keys file generated under
#      build/multihost/ssh/, started here and stopped at the end (nothing of
#      the machine's own ssh configuration is read or changed: sshd and ssh
#      get their own files with -f and -F);
#   2. two "hosts", sgb-host1 and sgb-host2 (ssh aliases of 127.0.0.1 in
#      that client config), one job slot each; GNU parallel spreads the
#      boots of a tiny icount matrix over them, one boot per job, with
#      BOOTS=, as docs/bench.md says.  Both hosts share this checkout (the
#      kernels and images must be built: make image), so each writes its
#      own results tree, build/multihost/<host>/ (SGB_RESULTS={host}: on
#      real hosts each has its own results/);
#   3. the hosts' raw/ trees and one meta.txt are copied with rsync over
#      ssh into build/multihost/merged/<run>/, and make report renders it;
#   4. the same matrix runs locally, two guests at once
#      (build/multihost/local/<run>/), and tests/bench_same.py compares the
#      two runs point by point (icount: within 0.25 % or one I/O), and the
#      merged report must hold every row of the local one (headline rows,
#      points.csv keys).
# VARIANTS=sg_ring runs it with one kernel (2 boots on the hosts, 2 local).
# It prints one line per result and "N passed, N failed", and writes
# build/multihost/summary.txt.  Needs: common/deps.sh multihost (GNU
# parallel, openssh-client, openssh-server, rsync), which it runs.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/common/lib.sh"
"$top/common/deps.sh" multihost || die "common/deps.sh multihost failed (above)"
py=/usr/bin/python3
mh=$top/build/multihost
ssh_dir=$mh/ssh
port=${SGB_SSH_PORT:-22022}
run=selftest
# the tiny matrix: the kernels (VARIANTS, default all) x 2 repeats
read -r -a kernels <<<"${VARIANTS:-$(variants | tr '\n' ' ')}"
matrix="MODE=icount DEVICES=fake RW=randread BS='4k 1M' QD=1 REPEATS=2 RUNTIME=300ms RAMP=50ms PERF= CEIL= INFLIGHT= MICROBENCH=0 DECISION=0 VARIANTS='${kernels[*]}'"
boots=$(for v in "${kernels[@]}"; do printf 'fake:%s:1\nfake:%s:2\n' "$v" "$v"; done)

for v in "${kernels[@]}"; do
	[ -f "$top/build/$v/.built" ] && [ -f "$top/build/$v/initramfs.cpio" ] ||
		die "$v is not built: run 'make image' first"
done
rm -rf "$mh"
mkdir -p "$ssh_dir"
t0=$(date +%s)
passed=0 failed=0
result() {
	printf '%-60s [%s]%s\n' "$1" "$2" "${3:+  $3}" | tee -a "$mh/summary.txt"
	if [ "$2" = passed ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

# --- 1. our own sshd on 127.0.0.1 ------------------------------------------
ssh-keygen -q -t ed25519 -N '' -C sgbench-host -f "$ssh_dir/host_key" || die "ssh-keygen failed"
ssh-keygen -q -t ed25519 -N '' -C sgbench-client -f "$ssh_dir/id" || die "ssh-keygen failed"
cp "$ssh_dir/id.pub" "$ssh_dir/authorized_keys"
cat >"$ssh_dir/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $ssh_dir/host_key
PidFile $ssh_dir/sshd.pid
AuthorizedKeysFile $ssh_dir/authorized_keys
AllowUsers $(id -un)
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
EOF
cat >"$ssh_dir/ssh_config" <<EOF
Host sgb-host1 sgb-host2
	HostName 127.0.0.1
	Port $port
	User $(id -un)
	IdentityFile $ssh_dir/id
	IdentitiesOnly yes
	UserKnownHostsFile $ssh_dir/known_hosts
	StrictHostKeyChecking accept-new
	BatchMode yes
EOF
# sshd's privilege separation directory (Debian's ssh.service makes it)
[ -d /run/sshd ] || mkdir -p -m 0755 /run/sshd
/usr/sbin/sshd -t -f "$ssh_dir/sshd_config" || die "sshd rejects $ssh_dir/sshd_config (above)"
/usr/sbin/sshd -f "$ssh_dir/sshd_config" -E "$ssh_dir/sshd.log" ||
	die "sshd did not start on 127.0.0.1:$port (see $ssh_dir/sshd.log; another port: SGB_SSH_PORT=)"
stop_sshd() {
	[ -f "$ssh_dir/sshd.pid" ] && kill "$(cat "$ssh_dir/sshd.pid")" && note "multihost: sshd stopped"
}
trap stop_sshd EXIT
for i in $(seq 50); do [ -s "$ssh_dir/sshd.pid" ] && break; sleep 0.1; done
export PARALLEL_SSH="ssh -F $ssh_dir/ssh_config"
if who=$($PARALLEL_SSH sgb-host1 'echo $(id -un)@$(hostname)' 2>"$ssh_dir/ssh-check.err"); then
	result multihost/ssh-to-this-machine passed "$who via 127.0.0.1:$port"
else
	result multihost/ssh-to-this-machine failed "$(tail -n 1 "$ssh_dir/ssh-check.err")"
	exit 1
fi

# --- 2. the recipe: GNU parallel over ssh, one boot per job ----------------
tp=$(date +%s)
cmd="nice -n 19 env $matrix SGB_RESULTS=$mh/{host} RUN_ID=$run BOOTS={} bench/run.sh"
echo "parallel -S 1/sgb-host1,1/sgb-host2 --plus --workdir $top '$cmd' ::: $(echo $boots)" >"$mh/command.txt"
# shellcheck disable=SC2086
if parallel --ssh "$PARALLEL_SSH" -S 1/sgb-host1,1/sgb-host2 --plus --workdir "$top" --joblog "$mh/joblog" \
	--tag "$cmd" ::: $boots >"$mh/parallel.log" 2>&1; then
	result multihost/parallel-over-ssh-runs-every-boot passed "$(echo $boots | wc -w) boots in $(($(date +%s) - tp)) s"
else
	result multihost/parallel-over-ssh-runs-every-boot failed "see ${mh#"$top"/}/parallel.log and joblog"
fi
# each host ran its share: the joblog's Host column
for h in sgb-host1 sgb-host2; do
	n=$(awk -v h="$h" 'NR > 1 && $2 == h && $7 == 0' "$mh/joblog" | wc -l)
	[ "$n" -gt 0 ] && result "multihost/$h-ran-boots" passed "$n boots" ||
		result "multihost/$h-ran-boots" failed "no boot ran on $h (see ${mh#"$top"/}/joblog)"
done

# --- 3. the raw trees merged over ssh, one report --------------------------
merged=$mh/merged/$run
mkdir -p "$merged/raw"
ok=yes
for h in sgb-host1 sgb-host2; do
	rsync -a -e "$PARALLEL_SSH" "$h:$mh/$h/$run/raw/" "$merged/raw/" >>"$mh/rsync.log" 2>&1 || ok=no
done
rsync -a -e "$PARALLEL_SSH" "sgb-host1:$mh/sgb-host1/$run/meta.txt" "$merged/" >>"$mh/rsync.log" 2>&1 || ok=no
if [ $ok = yes ] && make -s -C "$top" report RUN="$merged" >"$mh/report.log" 2>&1 &&
	grep -q '^Status: complete' "$merged/REPORT.md"; then
	result multihost/merged-raw-trees-give-one-complete-report passed "$(find "$merged/raw" -name RESULT | wc -l) boots"
else
	result multihost/merged-raw-trees-give-one-complete-report failed "see ${mh#"$top"/}/rsync.log, report.log"
fi

# --- 4. the same matrix locally --------------------------------------------
tl=$(date +%s)
if eval "nice -n 19 env $matrix PAR=2 SGB_RESULTS=$mh/local RUN_ID=$run $top/bench/run.sh" >"$mh/local.log" 2>&1; then
	result multihost/local-run passed "$(($(date +%s) - tl)) s"
else
	result multihost/local-run failed "see ${mh#"$top"/}/local.log"
fi
PYTHONPATH="$top" "$py" -m tests.bench_same "$mh/local/$run" "$merged" | sed 's|^bench/parallel-equals-serial|multihost/equals-local|' |
	while IFS=$'\t' read -r name st why; do printf '%s\t%s\t%s\n' "$name" "$st" "$why"; done >"$mh/same.tsv"
while IFS=$'\t' read -r name st why; do result "$name" "$st" "$why"; done <"$mh/same.tsv"
# the reports: the merged one must hold every row the local one has (the
# headline's device and size rows, and every device, point, metric and
# kernel of points.csv) and nothing else.  Their figures are compared point
# by point above, within the tolerance of bench_same.py: the two runs are
# different boots whose 9p I/O completes in host time, so their figures
# (and the headline means and intervals made from them) may differ in the
# last digits; demanding identical files failed on 0.047 %.
headline() { sed -n '/^| device | size/,/^$/p' "$1" | cut -d'|' -f2,3; }
keys() { cut -d, -f1-4 "$1"; }
if headline "$mh/local/$run/REPORT.md" >"$mh/headline-local.txt" &&
	headline "$merged/REPORT.md" >"$mh/headline-merged.txt" && cmp -s "$mh/headline-local.txt" "$mh/headline-merged.txt" &&
	[ "$(wc -l <"$merged/points.csv")" -gt 1 ] && keys "$mh/local/$run/points.csv" >"$mh/keys-local.txt" &&
	keys "$merged/points.csv" >"$mh/keys-merged.txt" && cmp -s "$mh/keys-local.txt" "$mh/keys-merged.txt"; then
	result multihost/report-has-every-row-of-local passed "headline $(wc -l <"$mh/headline-local.txt") lines, points.csv $(wc -l <"$merged/points.csv") lines, the same rows"
else
	result multihost/report-has-every-row-of-local failed "diff ${mh#"$top"/}/headline-local.txt headline-merged.txt; keys-local.txt keys-merged.txt"
fi
{ echo "local:"; cat "$mh/headline-local.txt"; echo "merged from the two hosts:"; cat "$mh/headline-merged.txt"; } >>"$mh/summary.txt"
echo "total $(($(date +%s) - t0)) s" | tee -a "$mh/summary.txt"
echo "$passed passed, $failed failed" | tee -a "$mh/summary.txt"
[ "$failed" -eq 0 ]
