#!/bin/bash
# drift.sh - do the windowed IOPS log rows stay on the second over a long run?
#
# A time-based run of DRIFT_SECONDS (default 1800) on a loop device capped at
# 3,000 read IOPS by blkio (to keep the CPU cost low): 4k randread qd32,
# --write_iops_log --log_avg_msec=1000.  ebsbench passes with exactly
# DRIFT_SECONDS rows and the k-th row at 1000*k ms (+-2 ms).  fio (whose rows
# drift and skip: a 2 h run gave 7,119 of 7,200) runs the same way with
# DRIFT_FIO=1, for comparison only.  DRIFT_PARALLEL=1 runs the two at once,
# each on its own device and cgroup, to halve the wall time.
#
# Prints one summary line per tool on stdout; exit 0 pass, 1 fail, 2 cannot run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
EBSBENCH=${EBSBENCH:-$ROOT/build/ebsbench}
DRIFT_SECONDS=${DRIFT_SECONDS:-1800}
DRIFT_FIO=${DRIFT_FIO:-0}
DRIFT_PARALLEL=${DRIFT_PARALLEL:-0}
TOLERANCE_MS=2
BLKIO=/sys/fs/cgroup/blkio

PROG=drift DIE_STATUS=2
# shellcheck source=../../image/lib.sh
. "$ROOT/image/lib.sh"

[ "$(id -u)" = 0 ] || die "needs root (loop devices, blkio)"
[ -x "$EBSBENCH" ] || die "$EBSBENCH is missing: run make (or set EBSBENCH)"
[ -d "$BLKIO" ] || die "no cgroup v1 blkio at $BLKIO"
[ "$DRIFT_FIO" = 0 ] || command -v fio >/dev/null || die "DRIFT_FIO=1 but fio is missing"
[[ $DRIFT_SECONDS =~ ^[1-9][0-9]*$ ]] || die "DRIFT_SECONDS must be a whole number of seconds"

WORK=$(mktemp -d /tmp/ebsbench-drift.XXXXXX)
LOOPS=()
BACKINGS=()
GROUPS_MADE=()
PIDS=()
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	local p g i
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	for g in "${GROUPS_MADE[@]}"; do rmdir "$BLKIO/$g" 2>/dev/null || true; done
	for i in "${LOOPS[@]}"; do losetup -d "$i" 2>/dev/null || true; done
	for i in "${BACKINGS[@]}"; do rm -f "$i"; done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# device TAG -> sets DEV and GROUP: a 256 MiB loop device capped at 3,000
# read IOPS for processes in cgroup GROUP.
device() {
	local backing
	backing=$(mktemp /dev/shm/ebsbench-drift.XXXXXX)
	BACKINGS+=("$backing")
	truncate -s 256M "$backing"
	DEV=$(losetup --find --show "$backing")
	LOOPS+=("$DEV")
	GROUP="ebsbench-drift-$1-$$"
	mkdir "$BLKIO/$GROUP"
	GROUPS_MADE+=("$GROUP")
	echo "$(lsblk -dno MAJ:MIN "$DEV" | tr -d ' ') 3000" >"$BLKIO/$GROUP/blkio.throttle.read_iops_device"
}

# run_one TOOL: start TOOL's run in the background; its PID is appended to PIDS.
run_one() {
	local tool=$1 cmd
	device "$tool"
	if [ "$tool" = fio ]; then cmd=(fio); else cmd=("$EBSBENCH" fio); fi
	say "$tool: ${DRIFT_SECONDS} s on $DEV (cgroup $GROUP, 3000 IOPS cap)"
	(
		echo "$BASHPID" >"$BLKIO/$GROUP/cgroup.procs"
		exec "${cmd[@]}" --name=drift --filename="$DEV" --rw=randread --bs=4k --iodepth=32 \
			--direct=1 --ioengine=libaio --runtime="$DRIFT_SECONDS" --time_based \
			--write_iops_log="$WORK/$tool" --log_avg_msec=1000 --output-format=json \
			>"$WORK/$tool.json" 2>"$WORK/$tool.err"
	) &
	PIDS+=($!)
}

wait_all() {
	local p rc=0
	for p in "${PIDS[@]}"; do wait "$p" || rc=1; done
	PIDS=()
	return $rc
}

# analyse TOOL -> "rows max_drift_ms bad_rows last_ms zero_rows"; bad rows are
# those more than TOLERANCE_MS off their second (or out of order).
analyse() {
	awk -F', *' -v tol="$TOLERANCE_MS" '
		$3 == 0 {
			k++
			d = $1 - 1000 * k
			if (d < 0) d = -d
			if (d > max) max = d
			if (d > tol) bad++
			if ($2 == 0) zero++
			last = $1
		}
		END { printf "%d %d %d %d %d\n", k, max, bad, last, zero }' "$WORK/$1_iops.1.log"
}

tools=(ours)
[ "$DRIFT_FIO" = 0 ] || tools+=(fio)
status=0
for tool in "${tools[@]}"; do
	run_one "$tool"
	if [ "$DRIFT_PARALLEL" = 0 ]; then
		wait_all || true
	fi
done
wait_all || true

for tool in "${tools[@]}"; do
	name=$([ "$tool" = ours ] && echo ebsbench || echo fio)
	if ! jq -e '.jobs[0].read.iops' "$WORK/$tool.json" >/dev/null 2>&1; then
		say "$name did not finish cleanly:"
		tail -5 "$WORK/$tool.err" >&2
		[ "$tool" = ours ] && status=1
		continue
	fi
	[ -f "$WORK/${tool}_iops.1.log" ] || {
		say "$name wrote no iops log"
		[ "$tool" = ours ] && status=1
		continue
	}
	read -r rows max bad last zero < <(analyse "$tool")
	iops=$(jq -r '.jobs[0].read.iops | floor' "$WORK/$tool.json")
	if [ "$tool" = ours ]; then
		verdict=PASS
		if [ "$rows" -ne "$DRIFT_SECONDS" ] || [ "$bad" -ne 0 ]; then
			verdict=FAIL
			status=1
		fi
	else
		verdict="(reference)"
	fi
	printf 'drift %-8s %s s: %d/%d rows, max drift %d ms, %d rows off by > %d ms, last row at %d ms, %d empty rows, %s IOPS  %s\n' \
		"$name" "$DRIFT_SECONDS" "$rows" "$DRIFT_SECONDS" "$max" "$bad" "$TOLERANCE_MS" "$last" \
		"$zero" "$iops" "$verdict"
done
exit $status
