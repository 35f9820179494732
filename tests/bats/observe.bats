#!/usr/bin/env bats
# observe.bats - `ebsbench observe` against a loop device under a known fio
# load: fio 3.33 holds 1,500 reads and 500 writes of 4 KiB a second
# (--rate_iops), and every 1 s interval observe writes reports that load
# within 2 % (operations and bytes); it never opens the device (strace sees
# no open of it, for writing or at all); its CSV is what recommend --demand
# reads (and --peak-from); bad input is one line, exit 2.
#
# run-bats: alone: a loop device's I/O counters, which every `discover --all` beside it reads into (71 reads, 5.25 MiB each)

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

setup_file() {
	require_ebsbench
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# within VALUE WANT PCT: |VALUE - WANT| <= PCT % of WANT.
within() {
	awk -v v="$1" -v w="$2" -v p="$3" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(d <= w * p / 100) }'
}

@test "a loop device under fio's 1,500 reads and 500 writes a second: every interval within 2 %, never opened" {
	dev=$(make_loop 256)
	fio --name=known --filename="$dev" --rw=randrw --rwmixread=75 --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=4 --rate_iops=1500,500 --time_based --runtime=10 \
		--output=/dev/null &
	fio_pid=$!
	sleep 2 # fio's start-up and its first, partial second
	run --separate-stderr strace -f -e trace=open,openat -o strace.log \
		"$EBSBENCH" observe "$dev" --interval 1s --duration 6s --out trace.csv
	wait "$fio_pid"
	assert_success
	assert_equal "$(grep -c '^ebsbench observe: [0-9]* s: ' <<<"$stderr")" 6
	rows=0
	while IFS=, read -r t vol interval r w rb wb; do
		[[ $t == time || $t == '#'* ]] && continue
		rows=$((rows + 1))
		assert_equal "$vol $interval" "${dev#/dev/} 1"
		within "$r" 1500 2 || fail "interval $rows: $r reads, not 1,500 within 2 %"
		within "$w" 500 2 || fail "interval $rows: $w writes, not 500 within 2 %"
		within "$rb" $((1500 * 4096)) 2 || fail "interval $rows: $rb bytes read"
		within "$wb" $((500 * 4096)) 2 || fail "interval $rows: $wb bytes written"
	done <trace.csv
	assert_equal "$rows" 6
	# Read-only: the device itself is never opened, for writing or at all.
	run grep -c "open.*\"$dev\"" strace.log
	assert_output 0
	run grep -c 'open.*"/sys/.*/stat"' strace.log
	refute_output 0
	# The trace is what recommend --demand reads, and its peak factor 1 at a minute.
	run --separate-stderr "$EBSBENCH" recommend --demand trace.csv --volume gp3:10 --json
	assert_success
	assert_equal "$(jq -r '.volumes[0] | [.volume, .trace.interval_s, (.trace.mean_iops / 100 | round)] | @tsv' <<<"$output")" \
		"$(printf '%s\t1\t20' "${dev#/dev/}")"
}

@test "observe: not a block device, a bad interval, no device: one line, exit 2" {
	run --separate-stderr "$EBSBENCH" observe /dev/null
	assert_failure 2
	assert_equal "$stderr" "ebsbench observe: /dev/null: not a block device"
	assert_equal "$output" ""
	run --separate-stderr "$EBSBENCH" observe /dev/loop0 --interval 1ms
	assert_failure 2
	assert_equal "$stderr" "ebsbench observe: --interval '1ms': want a duration of at least 10ms (1s, 500ms, 10m)"
	run --separate-stderr "$EBSBENCH" observe
	assert_failure 2
	assert_equal "$stderr" "ebsbench observe: no device given (try ebsbench observe --help)"
}
