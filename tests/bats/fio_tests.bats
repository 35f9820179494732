#!/usr/bin/env bats
# fio_tests.bats - fio's own test scripts, from Debian's fio source package
# of the installed fio's version (make deps puts them in
# build/deps/share/fio-source/t/), run with `ebsbench fio` as the fio they
# drive, through the one-line wrapper a user would write.
#
# t/latency_percentiles.py runs 22 jobs and checks, against the per-I/O
# latency logs, the slat/clat/lat percentiles in JSON, json+ bins and the
# terse line, unified_rw_reporting's "mixed" and cmdprio's per-priority
# latencies.  Each test's outcome is asserted one by one: those ebsbench
# supports must pass; the rest need options ebsbench does not have yet and
# must fail on them loudly, the option named in the one-line error.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

FIO_T="$HELPERS_DIR/../../build/deps/share/fio-source/t"
PYTHON=/usr/bin/python3

# Tests that pass, and for each one that cannot yet, the error naming what
# it needs: 3 rw=randtrim, 9 --fsync.  12, 13, 14, 20 and 22 are 1, 4, 8,
# 19 and 21 with --numjobs=4 and group_reporting (four clones, one entry).
PASSING=(1 2 4 5 6 7 8 10 11 12 13 14 15 16 17 18 19 20 21 22)
declare -gA NEEDS=(
	[3]="option 'rw': invalid value 'randtrim'"
	[9]="unknown or unsupported option 'fsync'"
)

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
	local want="${#PASSING[@]} tests passed, ${#NEEDS[@]} failed, 0 skipped"
	[ "$(tail -1 "$LP_LOG")" = "$want" ] || fail "want '$want', got '$(tail -1 "$LP_LOG")'"
}

@test "t/latency_percentiles.py: each supported test passes" {
	local id bad=()
	for id in "${PASSING[@]}"; do
		[ "$(outcome "$id")" = PASSED ] || bad+=("$id: $(outcome "$id")")
	done
	[ "${#bad[@]}" -eq 0 ] || fail "not passed: ${bad[*]} (see $LP_ROOT)"
}

@test "t/latency_percentiles.py: each other test fails on the option it needs, named" {
	local id dir bad=()
	[ "$((${#PASSING[@]} + ${#NEEDS[@]}))" -eq 22 ] || fail "PASSING and NEEDS must cover 22 tests"
	for id in "${!NEEDS[@]}"; do
		dir=$(printf '%s/%03d' "$LP_ROOT" "$id")
		[ "$(outcome "$id")" = FAILED ] || bad+=("$id: $(outcome "$id"), want FAILED")
		grep -qF "ebsbench fio: ${NEEDS[$id]}" "$dir"/*.stderr ||
			bad+=("$id: stderr '$(cat "$dir"/*.stderr)' does not name ${NEEDS[$id]}")
		[ "$(cat "$dir"/*.exitcode)" = 2 ] || bad+=("$id: exit $(cat "$dir"/*.exitcode), want 2")
	done
	[ "${#bad[@]}" -eq 0 ] || fail "$(printf '%s\n' "${bad[@]}")"
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
