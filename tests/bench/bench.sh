#!/bin/bash
# bench.sh - `make bench`: ebsbench against Debian's fio 3.33 and fio's own
# peak tool t/io_uring (built by `make deps` from the same fio source) on
# two uncapped loop beds over /dev/shm:
#   sparse  a file of holes: reading one is nearly free, so the tool's own
#           CPU is the bottleneck;
#   data    the same size filled once from /dev/urandom, as a device after
#           a layout phase: the loop worker's copy is the bottleneck.
# Both backing files live in /dev/shm (BENCH_SIZE_MIB, 1024, each) so the
# device side is memory, not this machine's shared disk.
#
# Per bed and engine (io_uring, libaio): 4k randread qd32 --direct=1,
# BENCH_SECONDS (5) s, BENCH_ROUNDS (3) rounds run alternately (fio,
# t/io_uring, ebsbench, fio, ...; t/io_uring on io_uring rows only, as
# `-d32 -s1 -c1 -p0 -B0 -F1`: same depth, no polling, no fixed buffers).
# Each run is measured from outside by /usr/bin/time for every tool alike:
#   IOPS            from the JSON (t/io_uring: the device's read count / s)
#   CPU s / M I/O   user + system CPU seconds of the process per million
#                   I/Os the device counted
#   waits / k I/O   voluntary context switches (the tool slept) per 1000
#   peak RSS        MiB, /usr/bin/time's %M
# Then per bed a qd1 row: p50 and p99 clat (io_uring), fio beside ebsbench,
# medians of the same alternating rounds.
# Targets: IOPS >= fio (both engines) and >= 0.95 x t/io_uring (io_uring),
# CPU per I/O <= 0.9 x fio, RSS <= 8 MiB, binary <= 1 MiB, each run's read
# count matching the device's; the qd1 row and the waits are figures only.
# The table goes to stdout, progress to stderr; the exit status is 1 when a
# target fails, 2 when the bench cannot run.  Then --ioengine=null (no device,
# no data: each tool's own cost per I/O, 4k randread qd1), the same rounds and
# measures, printed beside the rest and asserted on nothing.
set -euo pipefail

# shellcheck disable=SC2034 # read by fio_bench.sh and lib.sh's say/die
PROG=bench
# shellcheck source=fio_bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/fio_bench.sh"
SECONDS_PER_RUN=${BENCH_SECONDS:-5}
ROUNDS=${BENCH_ROUNDS:-3}
SIZE_MIB=${BENCH_SIZE_MIB:-1024}
ENGINES=${BENCH_ENGINES:-"io_uring libaio"}
BEDS=${BENCH_BEDS:-"sparse data"}
T_IO_URING=${T_IO_URING:-$ROOT/build/deps/bin/t-io_uring}
TIME=/usr/bin/time

[ -x "$TIME" ] || die "$TIME is missing: make deps installs Debian's package 'time'"
[ -x "$T_IO_URING" ] || die "$T_IO_URING is missing: run make deps (or set T_IO_URING)"
for bed in $BEDS; do
	case $bed in sparse | data) ;; *) die "BENCH_BEDS: unknown bed '$bed' (expected sparse, data)" ;; esac
done

# bed_device BED -> a new loop device of SIZE_MIB over /dev/shm: holes
# (sparse) or every block written once from /dev/urandom (data).
bed_device() {
	if [ "$1" = sparse ]; then
		make_loop "$SIZE_MIB"
	else
		make_filled_loop "$SIZE_MIB" /dev/urandom
	fi
}

# dev_reads DEV -> reads completed + reads merged on the loop device.
dev_reads() {
	awk '{ print $1 + $2 }' "/sys/block/${1#/dev/}/stat"
}

DEVICE_MISMATCH=0
# run_tool TOOL DEV ENGINE DEPTH BASE: one run, its JSON (fio, ours) or
# output (tio) in BASE.json, /usr/bin/time's "%U %S %M %w" in BASE.time;
# prints the reads the device counted.
run_tool() {
	local tool=$1 dev=$2 engine=$3 depth=$4 base=$5 cmd before
	case $tool in
	fio) cmd=(fio) ;;
	ours) cmd=("$EBSBENCH" fio) ;;
	tio) cmd=("$T_IO_URING" "-d$depth" -s1 -c1 -p0 -B0 -F1 "-r$SECONDS_PER_RUN" "$dev") ;;
	esac
	if [ "$tool" != tio ]; then
		cmd+=(--name=bench --filename="$dev" --rw=randread --bs=4k --iodepth="$depth" --direct=1
			--ioengine="$engine" --runtime="$SECONDS_PER_RUN" --time_based --output-format=json)
	fi
	before=$(dev_reads "$dev")
	if ! "$TIME" -f '%U %S %M %w' -o "$base.time" "${cmd[@]}" >"$base.json" 2>"$base.err"; then
		say "$tool ($engine, qd$depth) failed:"
		cat "$base.err" >&2
		exit 2
	fi
	echo $(($(dev_reads "$dev") - before))
}

# one TOOL BED DEV ENGINE ROUND: a qd32 run; appends "iops cpu_per_mio
# rss_mib waits_per_kio" to $WORK/BED.ENGINE.TOOL.
one() {
	local tool=$1 bed=$2 dev=$3 engine=$4 round=$5
	local base="$WORK/$bed.$engine.$tool.$round" counted iops ios
	counted=$(run_tool "$tool" "$dev" "$engine" 32 "$base")
	if [ "$tool" = tio ]; then
		ios=$counted
		iops=$(awk -v n="$ios" -v s="$SECONDS_PER_RUN" 'BEGIN { print n / s }')
	else
		iops=$(jq -er '.jobs[0].read.iops | numbers' "$base.json") ||
			die "$tool ($engine): no IOPS in its JSON ($base.json)"
		ios=$(jq -er '.jobs[0].read.total_ios | numbers' "$base.json")
		# The device saw what the tool says it did (both tools alike).
		if ! awk -v d="$counted" -v t="$ios" 'BEGIN { x = d - t; if (x < 0) x = -x; exit !(x <= t / 100 + 64) }'; then
			say "$tool ($engine, $bed) reports $ios reads, the device counted $counted"
			DEVICE_MISMATCH=1
		fi
	fi
	if [ "$tool" = ours ]; then
		local ran
		ran=$(jq -r '.jobs[0].ebsbench.ioengine' "$base.json")
		[ "$ran" = "$engine" ] || die "ebsbench ran $ran, not $engine"
	fi
	[ "$ios" -gt 0 ] || die "$tool ($engine, $bed): no I/O counted"
	# /usr/bin/time's last line is ours (earlier lines: "Command exited ...").
	tail -1 "$base.time" | awk -v ios="$ios" -v iops="$iops" \
		'{ printf "%.1f %.4f %.2f %.3f\n", iops, ($1 + $2) * 1e6 / ios, $3 / 1024, $4 * 1000 / ios }' \
		>>"$WORK/$bed.$engine.$tool"
	say "  $bed round $round $(printf '%-4s' "$tool") $engine: $(tail -1 "$WORK/$bed.$engine.$tool" |
		awk '{ printf "%.0f IOPS, %.3f CPU s/M I/O, %.1f MiB RSS, %.2f waits/k I/O", $1, $2, $3, $4 }')"
}

# qd1 TOOL BED DEV ROUND: a qd1 io_uring run; appends "p50_us p99_us" of
# its clat to $WORK/BED.qd1.TOOL.
qd1() {
	local tool=$1 bed=$2 dev=$3 round=$4
	local base="$WORK/$bed.qd1.$tool.$round"
	run_tool "$tool" "$dev" io_uring 1 "$base" >/dev/null
	jq -er '.jobs[0].read.clat_ns.percentile | [.["50.000000"], .["99.000000"]] |
		map(numbers / 1000) | "\(.[0]) \(.[1])"' "$base.json" >>"$WORK/$bed.qd1.$tool" ||
		die "$tool (qd1, $bed): no clat percentiles in its JSON ($base.json)"
	say "  $bed round $round $(printf '%-4s' "$tool") qd1: p50 $(tail -1 "$WORK/$bed.qd1.$tool" |
		awk '{ printf "%.1f us, p99 %.1f us", $1, $2 }')"
}

# tools ENGINE -> the tools of an engine's rows, in their running order.
tools() {
	if [ "$1" = io_uring ]; then echo fio tio ours; else echo fio ours; fi
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

# rounds FILE COLUMN FORMAT -> each round's value, comma-separated.
rounds() {
	awk -v c="$2" -v f="$3" '{ printf("%s" f, (NR > 1 ? "," : ""), $c) }' "$1"
}

for bed in $BEDS; do
	dev=$(bed_device "$bed") || die "no loop device for the $bed bed"
	say "$bed bed: $dev, ${SIZE_MIB} MiB over /dev/shm"
	for engine in $ENGINES; do
		say "$bed $engine: $ROUNDS rounds of ${SECONDS_PER_RUN} s, $(tools "$engine") alternately"
		for round in $(seq 1 "$ROUNDS"); do
			for tool in $(tools "$engine"); do one "$tool" "$bed" "$dev" "$engine" "$round"; done
		done
	done
	say "$bed qd1 (io_uring): $ROUNDS rounds, fio and ebsbench alternately"
	for round in $(seq 1 "$ROUNDS"); do
		qd1 fio "$bed" "$dev" "$round"
		qd1 ours "$bed" "$dev" "$round"
	done
done

say "null: $ROUNDS rounds of ${SECONDS_PER_RUN} s, fio and ebsbench alternately"
for round in $(seq 1 "$ROUNDS"); do
	one_null fio "$round"
	one_null ours "$round"
done

FAILED=0
# row METRIC FIO TIO OURS TARGET_TEXT VERDICT(1 pass, 0 fail, - none):
# a table row with ebsbench/fio and ebsbench/t-io_uring.
row() {
	local verdict=-
	if [ "$6" = 1 ]; then verdict=PASS; elif [ "$6" = 0 ]; then
		verdict=FAIL
		FAILED=1
	fi
	printf '%-24s %22s %22s %22s %7s %7s  %-22s %s\n' "$1" "$2" "$3" "$4" \
		"$(ratio "$4" "$2")" "$(ratio "$4" "$3")" "$5" "$verdict"
}

# ratio A B -> A / B to 3 places, "-" when either is not a number.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b == 0) print "-"; else printf "%.3f", a / b }'
}

cmp_ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }' && echo 1 || echo 0; }
cmp_le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo 1 || echo 0; }

# engine_rows BED ENGINE: the IOPS, CPU, waits and RSS rows of one engine.
engine_rows() {
	local bed=$1 engine=$2 p="$WORK/$1.$2" f_iops o_iops t_iops="-" t_cpu="-" t_w="-" t_rss="-"
	f_iops=$(med "$p.fio" 1)
	o_iops=$(med "$p.ours" 1)
	local iops_ok target=">= fio"
	iops_ok=$(cmp_ge "$o_iops" "$f_iops")
	if [ -f "$p.tio" ]; then
		t_iops=$(med "$p.tio" 1)
		t_cpu=$(med "$p.tio" 2)
		t_rss=$(med "$p.tio" 3)
		t_w=$(med "$p.tio" 4)
		target=">= fio, >= 0.95 x t/io"
		[ "$(cmp_ge "$o_iops" "$(awk -v t="$t_iops" 'BEGIN { print 0.95 * t }')")" = 1 ] || iops_ok=0
	fi
	row "$engine IOPS" "$(printf '%.0f' "$f_iops")" "$([ "$t_iops" = - ] && echo - || printf '%.0f' "$t_iops")" \
		"$(printf '%.0f' "$o_iops")" "$target" "$iops_ok"
	row "  each round" "$(rounds "$p.fio" 1 %.0f)" "$([ -f "$p.tio" ] && rounds "$p.tio" 1 %.0f || echo -)" \
		"$(rounds "$p.ours" 1 %.0f)" "" -
	local f_cpu o_cpu
	f_cpu=$(med "$p.fio" 2)
	o_cpu=$(med "$p.ours" 2)
	row "$engine CPU s / M I/O" "$f_cpu" "$t_cpu" "$o_cpu" "<= 0.9 x fio" \
		"$(cmp_le "$o_cpu" "$(awk -v f="$f_cpu" 'BEGIN { print 0.9 * f }')")"
	row "$engine waits / k I/O" "$(med "$p.fio" 4)" "$t_w" "$(med "$p.ours" 4)" "" -
	local o_rss
	o_rss=$(med "$p.ours" 3)
	row "$engine peak RSS MiB" "$(med "$p.fio" 3)" "$t_rss" "$o_rss" "<= 8 MiB" "$(cmp_le "$o_rss" 8)"
}

# qd1_rows BED: p50 and p99 clat at qd1, fio beside ebsbench.
qd1_rows() {
	local p="$WORK/$1.qd1"
	row "qd1 p50 clat us" "$(med "$p.fio" 1)" - "$(med "$p.ours" 1)" "" -
	row "qd1 p99 clat us" "$(med "$p.fio" 2)" - "$(med "$p.ours" 2)" "" -
}

echo "ebsbench bench: 4k randread direct, ${SECONDS_PER_RUN} s runs, median of $ROUNDS alternating rounds,"
echo "uncapped loop devices (${SIZE_MIB} MiB over /dev/shm), $(nproc) CPUs, $(uname -r), $(fio --version),"
echo "t/io_uring -d32 -s1 -c1 -p0 -B0 -F1; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for bed in $BEDS; do
	echo
	echo "$bed bed (qd32 unless named)"
	printf '%-24s %22s %22s %22s %7s %7s  %-22s %s\n' metric fio t/io_uring ebsbench /fio /t-io target result
	for engine in $ENGINES; do engine_rows "$bed" "$engine"; done
	qd1_rows "$bed"
done
echo
echo "null engine (no device: each tool's own cost per I/O, qd1; printed only)"
row "null IOPS" "$(printf '%.0f' "$(med "$WORK/fio.null" 1)")" - \
	"$(printf '%.0f' "$(med "$WORK/ours.null" 1)")" "" -
row "null CPU s / M I/O" "$(med "$WORK/fio.null" 2)" - "$(med "$WORK/ours.null" 2)" "" -
echo
size=$(stat -c %s "$EBSBENCH")
row "binary size bytes" - - "$size" "<= 1 MiB" "$(cmp_le "$size" $((1 << 20)))"
if readelf -l "$EBSBENCH" 2>/dev/null | grep -q INTERP; then
	say "note: $EBSBENCH is dynamically linked; its size and RSS are not the static build's"
fi
if [ "$DEVICE_MISMATCH" = 1 ]; then
	echo "device check: FAIL (a tool's I/O count differs from the device's; see stderr)"
	FAILED=1
else
	echo "device check: PASS (each fio and ebsbench run's reads match the loop device's count within 1 %)"
fi
if [ "$FAILED" = 1 ]; then
	say "a target failed"
	exit 1
fi
say "all targets met"
