#!/bin/bash
# parity.sh - `make bench` (and `make bench-parity`): ebsbench beside Debian's
# fio 3.33 on one loop device over /dev/shm, run alternately (fio, ebsbench,
# fio, ...), the medians side by side with their difference:
#   (a) 4k randread qd32 capped at 3,000 read IOPS by blkio, libaio and
#       io_uring, PARITY_SECONDS (15) s after a 2 s ramp: IOPS within 1 %,
#       mean clat within 2 %, iodepth_level[32] within 5 points;
#   (b) 1 MiB sequential read qd8 capped at 100 MiB/s: bandwidth within 2 %;
#   (c) 4k randread qd1 uncapped, both tools pinned to the last CPU, 4 s
#       runs: the median of the per-pair ratios of p50 clat within 5 %
#       (the loop device's qd1 latency flips between levels for seconds at
#       a time; each pair runs back to back, so a ratio is not biased by it).
# (a) and (b) run PARITY_ROUNDS (3) pairs, (c) PARITY_QD1_PAIRS (7).  These
# depend on the machine's load as much as on ebsbench, which is why they
# are here and not in the bats tests (tests/bats/parity.bats keeps what
# holds under any load).  A row whose reference cannot be trusted says so
# instead of passing: fio below the cap (the machine is too loaded to
# sustain it), or fio's own qd1 p50 spread over +-10 %.  The table goes to
# stdout, progress to stderr; exit 1 when a row with a valid reference is
# out of tolerance, 2 when the bench cannot run.
set -euo pipefail

PROG=parity
# shellcheck source=fio_bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/fio_bench.sh"
SECONDS_PER_RUN=${PARITY_SECONDS:-15}
ROUNDS=${PARITY_ROUNDS:-3}
QD1_PAIRS=${PARITY_QD1_PAIRS:-7}
IOPS_CAP=3000
BW_CAP=$((100 << 20))

LOOP=$(make_loop 1024) || die "no loop device"
say "device $LOOP: 1024 MiB over /dev/shm; filling it"
dd if=/dev/zero of="$LOOP" bs=1M count=1024 oflag=direct status=none
G_IOPS=$(unique_name parity-iops)
G_BW=$(unique_name parity-bw)
make_group "$G_IOPS" "$LOOP" "$IOPS_CAP" 0 || die "cannot cap $LOOP at $IOPS_CAP IOPS (cgroup v1 blkio)"
make_group "$G_BW" "$LOOP" 0 0 "$BW_CAP" || die "cannot cap $LOOP at 100 MiB/s (cgroup v1 blkio)"

# run_tool fio|ours GROUP|- OUT ARGS...: one run, in GROUP unless "-",
# pinned with $PIN if set; the JSON in OUT.
PIN=()
run_tool() {
	local tool=$1 group=$2 out=$3 cmd=(fio)
	shift 3
	[ "$tool" = fio ] || cmd=("$EBSBENCH" fio)
	cmd=("${PIN[@]}" "${cmd[@]}" --filename="$LOOP" "$@" --output-format=json)
	if [ "$group" = - ]; then
		"${cmd[@]}" >"$out" 2>"$out.err"
	else
		in_group "$group" "${cmd[@]}" >"$out" 2>"$out.err"
	fi || die "$tool failed: $(tail -3 "$out.err")"
	json_doc "$out" || die "$tool wrote no clean JSON: $(head -c 300 "$out")"
}

# pairs NAME GROUP N ARGS...: N rounds, fio then ebsbench, same arguments;
# round I of TOOL in $WORK/NAME.TOOL.I.json.
pairs() {
	local name=$1 group=$2 n=$3 i
	shift 3
	say "$name: $n pairs"
	for i in $(seq 1 "$n"); do
		run_tool fio "$group" "$WORK/$name.fio.$i.json" "$@"
		run_tool ours "$group" "$WORK/$name.ours.$i.json" "$@"
	done
}

# values NAME TOOL FILTER N -> FILTER over rounds 1..N, one a line.
values() {
	local i
	for i in $(seq 1 "$4"); do
		jnum "$WORK/$1.$2.$i.json" "$3" || die "$1 round $i: $3 is not a number in $2's JSON"
	done
}

# med NAME TOOL FILTER N -> the median of FILTER over the rounds.
med() {
	# shellcheck disable=SC2046 # one value a word
	median $(values "$@")
}

FAILED=0
NOREF=0
# row LABEL FIO OURS SCALE UNIT DIFF TOLERANCE OK REF: one line of the
# table; OK 1 when DIFF is within TOLERANCE, REF 0 when the reference
# cannot be trusted (then the result says why instead of PASS or FAIL).
row() {
	local verdict=PASS
	if [ "$9" != 1 ]; then
		verdict="NO REFERENCE: $9"
		NOREF=1
	elif [ "$8" != 1 ]; then
		verdict=FAIL
		FAILED=1
	fi
	printf '%-34s %12s %12s %-6s %10s %10s  %s\n' "$1" \
		"$(awk -v v="$2" -v s="$4" 'BEGIN { printf "%.3f", v / s }')" \
		"$(awk -v v="$3" -v s="$4" 'BEGIN { printf "%.3f", v / s }')" "$5" "$6" "$7" "$verdict"
}

# ok_pct OURS FIO TOL -> 1 when within TOL % of FIO, else 0.
ok_pct() { if within_pct "$1" "$2" "$3"; then echo 1; else echo 0; fi; }

# at_cap V CAP -> 1 when fio reached CAP (within 3 %), else the reason.
at_cap() {
	if awk -v v="$1" -v c="$2" 'BEGIN { exit !(v >= c * 0.97) }'; then
		echo 1
	else
		echo "fio reached only $(awk -v v="$1" -v c="$2" 'BEGIN { printf "%.1f", v * 100 / c }') % of the cap"
	fi
}

# compare_pct LABEL NAME FILTER N SCALE UNIT TOL REF: a row of the medians.
compare_pct() {
	local f o
	f=$(med "$2" fio "$3" "$4")
	o=$(med "$2" ours "$3" "$4")
	row "$1" "$f" "$o" "$5" "$6" "$(printf '%+.2f %%' "$(pct_diff "$o" "$f")")" "$7 %" \
		"$(ok_pct "$o" "$f" "$7")" "$8"
}

RUN=(--rw=randread --bs=4k --iodepth=32 --direct=1 --runtime="$SECONDS_PER_RUN" --time_based
	--ramp_time=2)
for engine in libaio io_uring; do
	pairs "capped.$engine" "$G_IOPS" "$ROUNDS" --name=capped --ioengine="$engine" "${RUN[@]}"
done
pairs seqcap "$G_BW" "$ROUNDS" --name=seqcap --rw=read --bs=1M --iodepth=8 --direct=1 \
	--ioengine=libaio --runtime="$SECONDS_PER_RUN" --time_based --ramp_time=2
PIN=(taskset -c $(($(nproc) - 1)))
pairs qd1 - "$QD1_PAIRS" --name=qd1 --rw=randread --bs=4k --iodepth=1 --direct=1 --ioengine=libaio \
	--runtime=4 --time_based
PIN=()

echo "ebsbench parity: ebsbench beside $(fio --version) on one loop device (1024 MiB over /dev/shm),"
echo "alternating runs, medians of $ROUNDS pairs ((c): of $QD1_PAIRS); $(nproc) CPUs, $(uname -r)"
printf '%-34s %12s %12s %-6s %10s %10s  %s\n' comparison fio ebsbench unit diff tolerance result
for engine in libaio io_uring; do
	name=capped.$engine
	ref=$(at_cap "$(med "$name" fio '.jobs[0].read.iops' "$ROUNDS")" "$IOPS_CAP")
	compare_pct "(a) $engine IOPS @3000" "$name" '.jobs[0].read.iops' "$ROUNDS" 1 IOPS 1 "$ref"
	compare_pct "(a) $engine mean clat @3000" "$name" '.jobs[0].read.clat_ns.mean' "$ROUNDS" 1e6 ms 2 "$ref"
	# A queue kept full shows as depth 32 = ~100 % in both tools.
	f=$(med "$name" fio '.jobs[0].iodepth_level["32"]' "$ROUNDS")
	o=$(med "$name" ours '.jobs[0].iodepth_level["32"]' "$ROUNDS")
	d=$(awk -v o="$o" -v f="$f" 'BEGIN { printf "%+.2f", o - f }')
	row "(a) $engine iodepth_level[32]" "$f" "$o" 1 % "$d pt" "5 pt" \
		"$(awk -v d="$d" 'BEGIN { print (d <= 5 && d >= -5) ? 1 : 0 }')" "$ref"
done
ref=$(at_cap "$(med seqcap fio '.jobs[0].read.bw_bytes' "$ROUNDS")" "$BW_CAP")
compare_pct "(b) 1M seqread qd8 @100MiB/s bw" seqcap '.jobs[0].read.bw_bytes' "$ROUNDS" 1048576 MiB/s 2 "$ref"

# (c): the median of the per-pair ratios ours/fio.
P50='.jobs[0].read.clat_ns.percentile["50.000000"]'
mapfile -t fp50 < <(values qd1 fio "$P50" "$QD1_PAIRS")
mapfile -t op50 < <(values qd1 ours "$P50" "$QD1_PAIRS")
ratio=$(paste <(printf '%s\n' "${op50[@]}") <(printf '%s\n' "${fp50[@]}") | awk '{ print $1 / $2 }' |
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
spread=$(printf '%s\n' "${fp50[@]}" | sort -g |
	awk '{ v[NR] = $1 } END { printf "%.1f", (v[NR] - v[1]) * 100 / v[int((NR + 1) / 2)] }')
ref=1
awk -v s="$spread" 'BEGIN { exit !(s <= 20) }' || ref="fio's own p50 spread is $spread % (over +-10 %)"
say "qd1 p50 per pair (ns): fio [${fp50[*]}]  ours [${op50[*]}]"
row "(c) qd1 uncapped p50 clat" "$(median "${fp50[@]}")" "$(median "${op50[@]}")" 1e3 us \
	"$(awk -v r="$ratio" 'BEGIN { printf "%+.2f %%", (r - 1) * 100 }')" "5 %" "$(ok_pct "$ratio" 1 5)" "$ref"

if [ "$NOREF" = 1 ]; then
	say "some rows have no trustworthy reference (the machine is too loaded): run again on a quiet machine"
fi
if [ "$FAILED" = 1 ]; then
	say "a comparison is out of tolerance"
	exit 1
fi
say "every comparison with a reference is within tolerance"
