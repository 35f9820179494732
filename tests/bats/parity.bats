#!/usr/bin/env bats
# parity.bats - ebsbench under blkio caps on a loop device (over /dev/shm):
# what must hold however loaded the machine is, so each check fails only
# when ebsbench is wrong:
#   (a) 4k randread qd32 capped at 3,000 read IOPS, libaio and io_uring:
#       never above the cap, at least half of it (a queue kept full needs
#       a thirtieth of one core), Little's law on its own figures (IOPS x
#       mean latency = the 32 in flight, -5 .. +3 %), iodepth_level[32]
#       ~100 %, bytes = I/Os x 4 KiB, IOPS = I/Os / runtime, and the device
#       read at least what ebsbench reports (no upper bound: any process,
#       udev or a `discover` elsewhere, may read a block device meanwhile);
#   (b) 1 MiB sequential read qd8 capped at 100 MiB/s: the same, in bytes;
#   (c) 4k randread qd1 uncapped: never more than one I/O in flight, and
#       most of the time one.
# How close ebsbench comes to fio (IOPS within 1 %, clat within 2 %,
# bandwidth within 2 %, qd1 p50 within 5 %) depends on the machine's load
# as much as on ebsbench: that comparison is `make bench`
# (tests/bench/parity.sh), which prints both tools' figures side by side.

# run-bats: alone: IOPS, bandwidth and Little's law under blkio caps, within a few per cent

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

setup_file() {
	require_ebsbench
	# Allocated pages under every block, so no read hits a tmpfs hole.
	LOOP=$(make_filled_loop 1024 /dev/zero)
	export LOOP
	G_IOPS=$(unique_name iops3000)
	G_BW=$(unique_name bw100m)
	make_group "$G_IOPS" "$LOOP" 3000 0
	make_group "$G_BW" "$LOOP" 0 0 $((100 << 20))
	export G_IOPS G_BW
}

teardown_file() {
	cleanup_groups
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# dev_read_bytes -> bytes the loop device has read so far (its stat file).
dev_read_bytes() {
	awk '{ printf "%.0f\n", $3 * 512 }' "/sys/block/${LOOP#/dev/}/stat"
}

# measure GROUP ARGS...: one `ebsbench fio ARGS` on the loop device, in
# GROUP unless it is "-"; the JSON in ours.json, the bytes the device read
# meanwhile in DEV_BYTES.
measure() {
	local group=$1 before after
	shift
	before=$(dev_read_bytes)
	if [ "$group" = - ]; then
		"$EBSBENCH" fio --filename="$LOOP" "$@" --output-format=json >ours.json 2>stderr.log
	else
		in_group "$group" "$EBSBENCH" fio --filename="$LOOP" "$@" --output-format=json >ours.json 2>stderr.log
	fi || fail "ebsbench failed: $(tail -3 stderr.log)"
	after=$(dev_read_bytes)
	DEV_BYTES=$((after - before))
	json_doc ours.json || fail "no clean JSON: $(head -c 300 ours.json)"
}

# r FILTER -> a number from .jobs[0].read of ours.json.
r() {
	jnum ours.json ".jobs[0].read.$1"
}

# between V LO HI WHAT: LO <= V <= HI, or fail naming WHAT.
between() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$4 = $1, want $2 .. $3"
}

# show LABEL TEXT: one line of figures in the bats output.
show() {
	printf '# %-40s %s\n' "$1" "$2" >&3
}

# consistent BS SECONDS QD: what holds for any run of ours.json: the
# runtime asked for (plus the drain), bytes = I/Os x BS, IOPS and bandwidth
# = I/Os and bytes over the runtime, clat <= lat, Little's law for QD in
# flight (95 .. 103 % of QD: the throttle releases I/Os in slices, so the
# I/Os straddling the window's edges carry more than their share; fio 3.33
# itself shows 32.3 at qd32 here), and the device read at least the bytes
# reported.  Prints the figures.
consistent() {
	local bs=$1 seconds=$2 qd=$3 ios bytes ms iops bw lat clat inflight
	ios=$(r total_ios)
	bytes=$(r io_bytes)
	ms=$(r runtime)
	iops=$(r iops)
	bw=$(r bw_bytes)
	lat=$(r lat_ns.mean)
	clat=$(r clat_ns.mean)
	[ "$ios" -gt 0 ] || fail "no I/O"
	between "$ms" $((seconds * 1000)) $((seconds * 1000 + 500)) "runtime (ms) of a ${seconds} s run"
	assert_equal "$bytes" $((ios * bs))
	between "$iops" "$(awk -v n="$ios" -v t="$ms" 'BEGIN { print n * 1000 / t * 0.995 }')" \
		"$(awk -v n="$ios" -v t="$ms" 'BEGIN { print n * 1000 / t * 1.005 }')" "iops for $ios I/Os in $ms ms"
	between "$bw" "$(awk -v n="$bytes" -v t="$ms" 'BEGIN { print n * 1000 / t * 0.995 }')" \
		"$(awk -v n="$bytes" -v t="$ms" 'BEGIN { print n * 1000 / t * 1.005 }')" "bw_bytes for $bytes B in $ms ms"
	between "$clat" 0 "$lat" "clat_ns.mean (lat_ns.mean $lat)"
	inflight=$(awk -v i="$iops" -v l="$lat" 'BEGIN { printf "%.3f", i * l / 1e9 }')
	between "$inflight" "$(awk -v q="$qd" 'BEGIN { print q * 0.95 }')" \
		"$(awk -v q="$qd" 'BEGIN { print q * 1.03 }')" "IOPS x mean latency (Little's law, qd $qd)"
	[ "$DEV_BYTES" -ge "$bytes" ] || fail "ebsbench reports $bytes bytes read, the device read $DEV_BYTES"
	show "  $ios I/Os in $ms ms" "$(printf '%.1f IOPS, %.2f MiB/s, lat %.3f ms, in flight %s' \
		"$iops" "$(awk -v b="$bw" 'BEGIN { print b / 1048576 }')" "$(awk -v l="$lat" 'BEGIN { print l / 1e6 }')" \
		"$inflight")"
}

# --- (a) 3,000 IOPS cap ---------------------------------------------------------

capped_randread() {
	local engine=$1 iops level
	measure "$G_IOPS" --name=capped --rw=randread --bs=4k --iodepth=32 --direct=1 \
		--ioengine="$engine" --runtime=8 --time_based --ramp_time=1
	show "(a) $engine qd32 @3000 IOPS" ""
	assert_equal "$(jq -r '.jobs[0].ebsbench.ioengine' ours.json)" "$engine"
	consistent 4096 8 32
	iops=$(r iops)
	between "$iops" 1500 $((3000 * 102 / 100)) "IOPS under a cap of 3000"
	# Submissions go 4 at a time (the default --iodepth_batch_submit), each
	# counted at the depth it makes: a refill after a burst of completions
	# climbs back to 32 in steps of 4, its last step at 32 (21 to 28 % of
	# the I/Os measured here).  The queue's average depth is Little's law's
	# (consistent, above).
	assert_equal "$(jnum ours.json '.jobs[0].iodepth_submit["4"]')" 100
	level=$(jnum ours.json '.jobs[0].iodepth_level["32"]')
	show "  iodepth_level[32]" "$level %"
	between "$level" 1 100 "iodepth_level[32] at qd32 on a capped device"
}

@test "(a) libaio 4k randread qd32 capped at 3000 IOPS: at most the cap, Little's law, counts the device agrees with" {
	require_blkio_throttle
	capped_randread libaio
}

@test "(a) io_uring 4k randread qd32 capped at 3000 IOPS: at most the cap, Little's law, counts the device agrees with" {
	require_blkio_throttle
	capped_randread io_uring
}

# --- (b) 100 MiB/s cap ------------------------------------------------------------

@test "(b) 1 MiB sequential read qd8 capped at 100 MiB/s: at most the cap, Little's law, bytes the device agrees with" {
	require_blkio_throttle
	local cap=$((100 << 20)) bw
	measure "$G_BW" --name=seqcap --rw=read --bs=1M --iodepth=8 --direct=1 --ioengine=libaio \
		--runtime=8 --time_based --ramp_time=1
	show "(b) 1M seqread qd8 @100MiB/s" ""
	consistent $((1 << 20)) 8 8
	bw=$(r bw_bytes)
	between "$bw" $((cap / 2)) $((cap * 103 / 100)) "bw_bytes under a cap of $cap B/s"
}

# --- (c) uncapped qd1 -------------------------------------------------------------

@test "(c) 4k randread qd1 uncapped: one I/O in flight (Little's law), bytes the device agrees with" {
	local ios lat iops inflight
	measure - --name=qd1 --rw=randread --bs=4k --iodepth=1 --direct=1 --ioengine=libaio \
		--runtime=3 --time_based
	show "(c) qd1 uncapped" ""
	ios=$(r total_ios)
	iops=$(r iops)
	lat=$(r lat_ns.mean)
	[ "$ios" -gt 0 ] || fail "no I/O"
	assert_equal "$(r io_bytes)" $((ios * 4096))
	# Between a completion and the next submission nothing is in flight:
	# at most one, and most of the time one.
	inflight=$(awk -v i="$iops" -v l="$lat" 'BEGIN { printf "%.3f", i * l / 1e9 }')
	show "  $ios I/Os" "$(printf '%.0f IOPS, lat %.1f us, in flight %s' "$iops" \
		"$(awk -v l="$lat" 'BEGIN { print l / 1e3 }')" "$inflight")"
	between "$inflight" 0.5 1.01 "IOPS x mean latency at qd1"
	[ "$DEV_BYTES" -ge $((ios * 4096)) ] || fail "ebsbench reports $ios reads, the device read $DEV_BYTES bytes"
}
