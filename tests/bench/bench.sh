#!/bin/bash
# bench.sh - `make bench`: ebsbench against Debian's fio 3.33 on one uncapped
# loop device over /dev/shm, where the tool's own CPU cost shows.
#
# For io_uring and libaio: 4k randread, qd32, --direct=1, time-based
# BENCH_SECONDS (10) s, BENCH_ROUNDS (3) rounds run alternately (fio,
# ebsbench, fio, ...); the median of the rounds counts.  Each run is measured
# from outside by /usr/bin/time for both tools alike:
#   IOPS            from the JSON
#   CPU s / M I/O   (user + system CPU seconds of the process tree) per
#                   million completed I/Os
#   peak RSS        MiB, /usr/bin/time's %M
# Targets: IOPS >= fio, CPU per I/O <= 0.9 x fio, RSS <= 8 MiB, binary
# <= 1 MiB.  Then --ioengine=null (no device, no data: each tool's own cost
# per I/O, 4k randread qd1), the same rounds and measures, printed beside
# the rest and asserted on nothing.  The table goes to stdout, progress to stderr; the exit status is
# non-zero when a target fails (1) or the bench cannot run (2).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
EBSBENCH=${EBSBENCH:-$ROOT/build/ebsbench}
SECONDS_PER_RUN=${BENCH_SECONDS:-10}
ROUNDS=${BENCH_ROUNDS:-3}
SIZE_MIB=${BENCH_SIZE_MIB:-1024}
ENGINES=${BENCH_ENGINES:-"io_uring libaio"}
TIME=/usr/bin/time

PROG=bench DIE_STATUS=2
# shellcheck source=../../image/lib.sh
. "$ROOT/image/lib.sh"

[ "$(id -u)" = 0 ] || die "needs root (loop devices)"
[ -x "$EBSBENCH" ] || die "$EBSBENCH is missing: run make (or set EBSBENCH)"
[ -x "$TIME" ] || die "$TIME is missing: install Debian's package 'time'"
command -v fio >/dev/null || die "fio is missing: install Debian's package 'fio'"
command -v jq >/dev/null || die "jq is missing"

WORK=$(mktemp -d /tmp/ebsbench-bench.XXXXXX)
BACKING=""
LOOP=""
cleanup() {
	[ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null || true
	[ -z "$BACKING" ] || rm -f "$BACKING"
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

BACKING=$(mktemp /dev/shm/ebsbench-bench.XXXXXX)
truncate -s "${SIZE_MIB}M" "$BACKING"
LOOP=$(losetup --find --show "$BACKING")
say "device $LOOP: ${SIZE_MIB} MiB over $BACKING; filling it"
dd if=/dev/zero of="$LOOP" bs=1M count="$SIZE_MIB" oflag=direct status=none

DEVICE_MISMATCH=0
# dev_reads -> reads completed + reads merged on the loop device, its stat.
dev_reads() {
	awk '{ print $1 + $2 }' "/sys/block/${LOOP#/dev/}/stat"
}

# one TOOL ENGINE ROUND: run once, append "iops cpu_per_mio rss_mib" to
# $WORK/TOOL.ENGINE.
one() {
	local tool=$1 engine=$2 round=$3 cmd
	local base="$WORK/$tool.$engine.$round"
	if [ "$tool" = fio ]; then cmd=(fio); else cmd=("$EBSBENCH" fio); fi
	local before after
	before=$(dev_reads)
	if ! "$TIME" -f '%U %S %M' -o "$base.time" "${cmd[@]}" --name=bench --filename="$LOOP" \
		--rw=randread --bs=4k --iodepth=32 --direct=1 --ioengine="$engine" \
		--runtime="$SECONDS_PER_RUN" --time_based --output-format=json \
		>"$base.json" 2>"$base.err"; then
		say "$tool ($engine) failed:"
		cat "$base.err" >&2
		exit 2
	fi
	after=$(dev_reads)
	local iops ios ran
	iops=$(jq -er '.jobs[0].read.iops | numbers' "$base.json") ||
		die "$tool ($engine): no IOPS in its JSON ($base.json)"
	ios=$(jq -er '.jobs[0].read.total_ios | numbers' "$base.json")
	# The device saw what the tool says it did (both tools alike).
	if ! awk -v d=$((after - before)) -v t="$ios" 'BEGIN { x = d - t; if (x < 0) x = -x; exit !(x <= t / 100 + 64) }'; then
		say "$tool ($engine) reports $ios reads, the device counted $((after - before))"
		DEVICE_MISMATCH=1
	fi
	if [ "$tool" = ours ]; then
		ran=$(jq -r '.jobs[0].ebsbench.ioengine' "$base.json")
		[ "$ran" = "$engine" ] || die "ebsbench ran $ran, not $engine"
	fi
	# /usr/bin/time's last line is ours (earlier lines: "Command exited ...").
	tail -1 "$base.time" | awk -v ios="$ios" -v iops="$iops" \
		'{ printf "%.1f %.4f %.2f\n", iops, ($1 + $2) * 1e6 / ios, $3 / 1024 }' \
		>>"$WORK/$tool.$engine"
	say "  round $round $(printf '%-4s' "$tool") $engine: $(tail -1 "$WORK/$tool.$engine" |
		awk '{ printf "%.0f IOPS, %.3f CPU s/M I/O, %.1f MiB RSS", $1, $2, $3 }')"
}

# one_null TOOL ROUND: fio's null engine, run once, measured as one does;
# appends "iops cpu_per_mio rss_mib" to $WORK/TOOL.null.
one_null() {
	local tool=$1 round=$2 cmd
	local base="$WORK/$tool.null.$round"
	if [ "$tool" = fio ]; then cmd=(fio); else cmd=("$EBSBENCH" fio); fi
	(cd "$WORK" && "$TIME" -f '%U %S %M' -o "$base.time" "${cmd[@]}" --name=bench-null \
		--ioengine=null --size=1G --rw=randread --bs=4k --runtime="$SECONDS_PER_RUN" \
		--time_based --output-format=json >"$base.json" 2>"$base.err") ||
		die "$tool (null) failed: $(cat "$base.err")"
	local iops ios
	iops=$(jq -er '.jobs[0].read.iops | numbers' "$base.json") ||
		die "$tool (null): no IOPS in its JSON ($base.json)"
	ios=$(jq -er '.jobs[0].read.total_ios | numbers' "$base.json")
	tail -1 "$base.time" | awk -v ios="$ios" -v iops="$iops" \
		'{ printf "%.1f %.4f %.2f\n", iops, ($1 + $2) * 1e6 / ios, $3 / 1024 }' \
		>>"$WORK/$tool.null"
	say "  round $round $(printf '%-4s' "$tool") null: $(tail -1 "$WORK/$tool.null" |
		awk '{ printf "%.0f IOPS, %.3f CPU s/M I/O, %.1f MiB RSS", $1, $2, $3 }')"
}

# med FILE COLUMN -> the median of a column.
med() {
	awk -v c="$2" '{ print $c }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

for engine in $ENGINES; do
	say "$engine: $ROUNDS rounds of ${SECONDS_PER_RUN} s, fio and ebsbench alternately"
	for round in $(seq 1 "$ROUNDS"); do
		one fio "$engine" "$round"
		one ours "$engine" "$round"
	done
done

say "null: $ROUNDS rounds of ${SECONDS_PER_RUN} s, fio and ebsbench alternately"
for round in $(seq 1 "$ROUNDS"); do
	one_null fio "$round"
	one_null ours "$round"
done

FAILED=0
# row METRIC FIO OURS TARGET_TEXT PASS(0/1)
row() {
	local verdict=PASS
	[ "$5" = 1 ] || {
		verdict=FAIL
		FAILED=1
	}
	local ratio="-"
	if [ "$2" != "-" ]; then
		ratio=$(awk -v o="$3" -v f="$2" 'BEGIN { printf "%.3f", f ? o / f : 0 }')
	fi
	printf '%-28s %12s %12s %8s  %-18s %s\n' "$1" "$2" "$3" "$ratio" "$4" "$verdict"
}

cmp_ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }' && echo 1 || echo 0; }
cmp_le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo 1 || echo 0; }

echo "ebsbench bench: 4k randread qd32 direct, ${SECONDS_PER_RUN} s, median of $ROUNDS alternating rounds,"
echo "uncapped loop device (${SIZE_MIB} MiB over /dev/shm), $(nproc) CPUs, $(uname -r), $(fio --version)"
printf '%-28s %12s %12s %8s  %-18s %s\n' metric fio ebsbench ratio target result
for engine in $ENGINES; do
	f_iops=$(med "$WORK/fio.$engine" 1)
	o_iops=$(med "$WORK/ours.$engine" 1)
	f_cpu=$(med "$WORK/fio.$engine" 2)
	o_cpu=$(med "$WORK/ours.$engine" 2)
	f_rss=$(med "$WORK/fio.$engine" 3)
	o_rss=$(med "$WORK/ours.$engine" 3)
	row "$engine IOPS" "$(printf '%.0f' "$f_iops")" "$(printf '%.0f' "$o_iops")" ">= fio" \
		"$(cmp_ge "$o_iops" "$f_iops")"
	row "$engine CPU s / M I/O" "$f_cpu" "$o_cpu" "<= 0.9 x fio" \
		"$(cmp_le "$o_cpu" "$(awk -v f="$f_cpu" 'BEGIN { print 0.9 * f }')")"
	row "$engine peak RSS MiB" "$f_rss" "$o_rss" "<= 8 MiB" "$(cmp_le "$o_rss" 8)"
done
# The null engine's rows inform; they pass or fail nothing.
info_row() {
	printf '%-28s %12s %12s %8s  %-18s %s\n' "$1" "$2" "$3" \
		"$(awk -v o="$3" -v f="$2" 'BEGIN { printf "%.3f", f ? o / f : 0 }')" "(printed only)" -
}
info_row "null IOPS (qd1, no I/O)" "$(printf '%.0f' "$(med "$WORK/fio.null" 1)")" \
	"$(printf '%.0f' "$(med "$WORK/ours.null" 1)")"
info_row "null CPU s / M I/O" "$(med "$WORK/fio.null" 2)" "$(med "$WORK/ours.null" 2)"
size=$(stat -c %s "$EBSBENCH")
row "binary size bytes" "-" "$size" "<= 1 MiB" "$(cmp_le "$size" $((1 << 20)))"
if readelf -l "$EBSBENCH" 2>/dev/null | grep -q INTERP; then
	say "note: $EBSBENCH is dynamically linked; its size and RSS are not the static build's"
fi
if [ "$DEVICE_MISMATCH" = 1 ]; then
	echo "device check: FAIL (a tool's I/O count differs from the device's; see stderr)"
	FAILED=1
else
	echo "device check: PASS (each run's reported reads match the loop device's count within 1 %)"
fi
if [ "$FAILED" = 1 ]; then
	say "a target failed"
	exit 1
fi
say "all targets met"
