#!/usr/bin/env bats
# fio_tests.bats - fio's own test scripts, from Debian's fio source package
# of the installed fio's version (make deps puts them in
# build/deps/share/fio-source/t/), run with `ebsbench fio` as the fio they
# drive, through the one-line wrapper a user would write.
#
# t/latency_percentiles.py runs 22 jobs and checks, against the per-I/O
# latency logs, the slat/clat/lat percentiles in JSON, json+ bins and the
# terse line, unified_rw_reporting's "mixed" and cmdprio's per-priority
# latencies; test 3 a randtrim job's trim block, test 9 --fsync's "sync"
# block (its percentiles and json+ bins).  Each test's outcome is asserted
# one by one: all 22 must pass.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

FIO_T="$HELPERS_DIR/../../build/deps/share/fio-source/t"
PYTHON=/usr/bin/python3

# Every test passes.  3 is rw=randtrim on the null engine, 9 --fsync=32;
# 12, 13, 14, 20 and 22 are 1, 4, 8, 19 and 21 with --numjobs=4 and
# group_reporting (four clones, one entry).
PASSING=({1..22})

# One run of the whole script for the file: about two minutes of jobs.
setup_file() {
	require_ebsbench
	[ -f "$FIO_T/latency_percentiles.py" ] ||
		fail "$FIO_T/latency_percentiles.py is missing: make deps unpacks fio's source"
	WRAPPER="$BATS_FILE_TMPDIR/fio"
	printf '#!/bin/sh\nexec "%s" fio "$@"\n' "$(realpath "$EBSBENCH")" >"$WRAPPER"
	chmod +x "$WRAPPER"
	LP_ROOT="$BATS_FILE_TMPDIR/latency"
	(cd "$BATS_FILE_TMPDIR" && "$PYTHON" "$FIO_T/latency_percentiles.py" -f "$WRAPPER" \
		-a "$LP_ROOT") >"$BATS_FILE_TMPDIR/latency.log" 2>&1 || true
	export LP_ROOT LP_LOG="$BATS_FILE_TMPDIR/latency.log"
}

# outcome ID -> PASSED, FAILED or SKIPPED... as the script printed it.
outcome() {
	sed -n "s/^\*\{10\}Test $1 \(.*\)\*\{10\}\$/\1/p" "$LP_LOG"
}

@test "t/latency_percentiles.py ran all 22 tests, none skipped" {
	run grep -c '^\*\{10\}Test [0-9]* ' "$LP_LOG"
	[ "$output" = 22 ] || fail "want 22 test outcomes, got $output: $(tail -5 "$LP_LOG")"
	run grep -E '^[0-9]+ tests passed, [0-9]+ failed, 0 skipped$' "$LP_LOG"
	[ "$status" -eq 0 ] || fail "summary: $(tail -1 "$LP_LOG")"
	local want="22 tests passed, 0 failed, 0 skipped"
	[ "$(tail -1 "$LP_LOG")" = "$want" ] || fail "want '$want', got '$(tail -1 "$LP_LOG")'"
}

@test "t/latency_percentiles.py: each of the 22 tests passes" {
	local id bad=()
	for id in "${PASSING[@]}"; do
		[ "$(outcome "$id")" = PASSED ] || bad+=("$id: $(outcome "$id")")
	done
	[ "${#bad[@]}" -eq 0 ] || fail "not passed: ${bad[*]} (see $LP_ROOT)"
}

# keys_of FILE -> every key path of jobs[0] that fio also writes, one a line
# (ours adds "ebsbench"; values and "job options" differ by nature).
keys_of() {
	jq -r '.jobs[0] | del(.ebsbench, ."job options") | paths | map(tostring) | join(".")' "$1" |
		sed -E 's/\.(bins|percentile)\.[0-9.]+$/.\1.N/' | sort -u
}

@test "null engine, percentile flags, unified_rw_reporting=both: fio's JSON keys and terse fields" {
	cd "$BATS_TEST_TMPDIR"
	local args=(--name=keys --ioengine=null --size=16M --rw=randrw --runtime=1 --time_based
		--slat_percentiles=1 --clat_percentiles=0 --lat_percentiles=1
		--unified_rw_reporting=both --output-format=terse,json+)
	fio "${args[@]}" --output=fio.out || fail "fio itself failed"
	"$EBSBENCH" fio "${args[@]}" --output=ours.out 2>/dev/null || fail "ebsbench failed"
	local f
	for f in fio ours; do
		head -1 "$f.out" >"$f.terse"
		tail -n +2 "$f.out" >"$f.json"
	done
	run diff <(keys_of fio.json) <(keys_of ours.json)
	[ "$status" -eq 0 ] || fail "JSON keys differ from fio's (< fio, > ours): $output"
	# percentiles under lat_ns only (synchronous: no slat samples), and mixed.
	[ "$(jq '.jobs[0].mixed.lat_ns.percentile | length' ours.json)" -eq 17 ] ||
		fail "no lat percentiles in mixed: $(jq -c '.jobs[0].mixed.lat_ns' ours.json)"
	[ "$(jq '.jobs[0].read.slat_ns.N' ours.json)" -eq 0 ] || fail "a synchronous engine has slat"
	run awk -F';' '{ print NF }' fio.terse ours.terse
	[ "${lines[0]}" = 162 ] || fail "fio's terse line has ${lines[0]} fields, not 162"
	[ "${lines[1]}" = "${lines[0]}" ] || fail "ours has ${lines[1]} fields, fio's ${lines[0]}"
}

@test "randtrim and randwrite --fsync=32 on null: fio's JSON keys; trim and sync filled as fio fills them" {
	cd "$BATS_TEST_TMPDIR"
	local rw f
	for rw in "--rw=randtrim" "--rw=randwrite --fsync=32"; do
		# shellcheck disable=SC2086
		local args=(--name=keys --ioengine=null --size=16M --bs=4k $rw --output-format=json+)
		fio "${args[@]}" --output=fio.json || fail "fio itself failed ($rw)"
		"$EBSBENCH" fio "${args[@]}" --output=ours.json 2>/dev/null || fail "ebsbench failed ($rw)"
		run diff <(keys_of fio.json) <(keys_of ours.json)
		[ "$status" -eq 0 ] || fail "$rw: JSON keys differ from fio's (< fio, > ours): $output"
		for f in fio ours; do
			jq -c '.jobs[0] | [.read.total_ios, .write.total_ios, .trim.total_ios,
				.trim.io_bytes, .sync.total_ios, .sync.lat_ns.N]' "$f.json" >"$f.counts"
		done
		[ "$(cat ours.counts)" = "$(cat fio.counts)" ] ||
			fail "$rw: counts (r, w, t, trim bytes, syncs, sync N): fio $(cat fio.counts), ours $(cat ours.counts)"
	done
}
