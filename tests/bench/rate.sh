#!/bin/bash
# rate.sh - `make bench-rate`: the rate-limited figures that depend on the
# machine's load, printed beside fio's (Debian's fio 3.33), never asserted
# (tests/bats/rate.bats asserts what holds under any load).  On one loop
# device over /dev/shm capped at 3,000 read IOPS by blkio, 4k randread:
#   - the uncapped qd1 service time (p50 clat), the reference;
#   - qd32 at --rate_iops=1500, linear and poisson, RATE_SECONDS (10) s:
#     IOPS, p50 and p99 latency; ebsbench's lat counts from the due time,
#     fio's from the submission, so they differ once a queue forms;
#   - qd4 at 4,000 IOPS (above the cap): how far each tool's p50 and p99
#     say the load fell behind.
# The table goes to stdout, progress to stderr; exit 2 when it cannot run.
set -euo pipefail

PROG=bench-rate
# shellcheck source=fio_bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/fio_bench.sh"
SECONDS_PER_RUN=${RATE_SECONDS:-10}
IOPS_CAP=3000

LOOP=$(make_filled_loop 256 /dev/zero) || die "no loop device"
G_CAP=$(unique_name rate-bench)
make_group "$G_CAP" "$LOOP" "$IOPS_CAP" 0 || die "cannot cap $LOOP at $IOPS_CAP IOPS (cgroup v1 blkio)"

# run TOOL GROUP OUT ARGS...: one 4k randread job of TOOL (fio or ebsbench)
# on the device, in GROUP unless "-", its JSON in OUT.
run() {
	local tool=$1 group=$2 out=$3 bin
	shift 3
	bin=$([ "$tool" = fio ] && command -v fio || echo "$EBSBENCH")
	[ "$tool" = fio ] && set -- --lat_percentiles=1 "$@"
	[ "$tool" = ebsbench ] && set -- fio "$@"
	say "$tool ${*:2}"
	if [ "$group" = - ]; then
		"$bin" "$@" --name=rate --filename="$LOOP" --rw=randread --bs=4k --direct=1 \
			--ioengine=libaio --output-format=json >"$out" 2>>"$WORK/stderr.log"
	else
		in_group "$group" "$bin" "$@" --name=rate --filename="$LOOP" --rw=randread --bs=4k \
			--direct=1 --ioengine=libaio --output-format=json >"$out" 2>>"$WORK/stderr.log"
	fi || die "$tool failed: $(tail -3 "$WORK/stderr.log")"
}

# row LABEL FILE: IOPS, mean, p50 and p99 of lat (fio: lat_percentiles=1;
# an unrated ebsbench job has no lat percentiles: 0) and p50 of clat, in
# microseconds.
row() {
	jq -r --arg name "$1" '.jobs[0].read as $r | ($r.lat_ns.percentile // {}) as $p
		| [$name, ($r.iops | floor), ($r.lat_ns.mean / 1000 | floor),
		   (($p["50.000000"] // 0) / 1000 | floor), (($p["99.000000"] // 0) / 1000 | floor),
		   ($r.clat_ns.percentile["50.000000"] / 1000 | floor)] | @tsv' "$2"
}

printf 'case\tIOPS\tmean lat us\tp50 lat us\tp99 lat us\tp50 clat us\n'
for tool in fio ebsbench; do
	run "$tool" - "$WORK/$tool-service.json" --iodepth=1 --runtime=3 --time_based
	row "$tool qd1 uncapped (service time)" "$WORK/$tool-service.json"
done
for process in linear poisson; do
	for tool in fio ebsbench; do
		run "$tool" "$G_CAP" "$WORK/$tool-$process.json" --iodepth=32 --rate_iops=1500 \
			--rate_process="$process" --runtime="$SECONDS_PER_RUN" --time_based
		row "$tool qd32 1500 IOPS $process (cap $IOPS_CAP)" "$WORK/$tool-$process.json"
	done
done
for tool in fio ebsbench; do
	run "$tool" "$G_CAP" "$WORK/$tool-over.json" --iodepth=4 --rate_iops=4000 \
		--runtime="$SECONDS_PER_RUN" --time_based
	row "$tool qd4 4000 IOPS linear (cap $IOPS_CAP)" "$WORK/$tool-over.json"
done
