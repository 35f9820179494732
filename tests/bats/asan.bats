#!/usr/bin/env bats
# asan.bats - build/ebsbench-asan (`make asan`: the whole binary on glibc
# under ASan and UBSan) runs the commands that take outside input with no
# sanitizer report: fio on a regular file, discover, run --dry-run, report.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

ASAN_BIN="$BATS_TEST_DIRNAME/../../build/ebsbench-asan"
FIXTURE="$BATS_TEST_DIRNAME/../unit/fixtures/results-gp2-gp3.json"

setup_file() {
	require_built "$ASAN_BIN" "make asan"
}

# no_sanitizer_report: stderr of the last `run` holds no ASan/UBSan/LSan report.
no_sanitizer_report() {
	if grep -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: ' <<<"$stderr"; then
		fail "sanitizer report on stderr"
	fi
}

@test "asan: fio on a regular file, JSON out" {
	truncate -s 8M "$BATS_TEST_TMPDIR/file"
	run --separate-stderr "$ASAN_BIN" fio --name=x --filename="$BATS_TEST_TMPDIR/file" --size=8M \
		--rw=randread --bs=4k --runtime=1 --time_based --output-format=json
	assert_success
	no_sanitizer_report
	iops=$(jq -r '.jobs[0].read.iops' <<<"$output")
	[[ $iops =~ ^[0-9.]+$ ]] || fail "no read IOPS in the JSON: $iops"
	awk -v v="$iops" 'BEGIN { exit !(v > 0) }' || fail "read IOPS $iops is not > 0"
}

@test "asan: discover, table and JSON" {
	run --separate-stderr "$ASAN_BIN" discover
	assert_success
	no_sanitizer_report
	assert_line --index 0 --regexp '^DEVICE +SIZE'
	run --separate-stderr "$ASAN_BIN" discover --all --json
	assert_success
	no_sanitizer_report
	jq -e 'type == "array"' <<<"$output" >/dev/null || fail "discover --json is not an array"
}

@test "asan: run --dry-run prints the plan" {
	LOOP=$(make_loop 64)
	cat >"$BATS_TEST_TMPDIR/cfg.json" <<-JSON
		{"devices": [{"path": "$LOOP", "label": "gp2", "type": "gp2", "size_gib": 100}],
		 "time_scale": 0.01, "test_size": "16M"}
	JSON
	run --separate-stderr "$ASAN_BIN" run --config "$BATS_TEST_TMPDIR/cfg.json" --dry-run
	cleanup_loops
	assert_success
	no_sanitizer_report
	[ "$(jq '.steps | length' <<<"$output")" -gt 0 ] || fail "no steps in the plan: $output"
}

@test "asan: report re-renders the seed's results" {
	mkdir -p "$BATS_TEST_TMPDIR/res"
	cp "$FIXTURE" "$BATS_TEST_TMPDIR/res/results.json"
	run --separate-stderr "$ASAN_BIN" report --print "$BATS_TEST_TMPDIR/res"
	assert_success
	no_sanitizer_report
	assert_output --partial 'Random read IOPS'
	assert_file_exists "$BATS_TEST_TMPDIR/res/iops_timeline.svg"
}
