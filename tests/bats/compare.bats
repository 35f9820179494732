#!/usr/bin/env bats
# compare.bats - `ebsbench compare A B` end to end on the real binary:
#   - bad input: one line naming the problem on stderr, exit 2, nothing on
#     stdout (an unknown flag, one results instead of two, a path that is
#     not there, a newer schema);
#   - --out DIR writes compare.md and compare.json, the same text and
#     document stdout gives; `ebsbench help` lists the command;
#   - the acceptance point: `make demo`'s job (the appliance under QEMU, a
#     100 GiB gp2 and a 3,000-IOPS gp3, time scale 0.01) run twice; the
#     gp3 randread IOPS are "not significant", the gp2 cliff time's change
#     is named with both times and its resolution, and a copy of one run's
#     results.json with another environment.instance_type gives the
#     instance-type warning (two demo runs give none).

# run-bats: alone: two runs of one job under QEMU must differ by nothing significant

bats_require_minimum_version 1.5.0

QEMU_DIR="$BATS_TEST_DIRNAME/../qemu"
ROOT="$BATS_TEST_DIRNAME/../.."
FIXTURES=$ROOT/tests/unit/fixtures
SEED=$FIXTURES/results-seed000.json
load helpers
load_bats_libs
load ../peers/peers
load qemu_helpers

setup_file() {
	require_ebsbench
	qemu_peers_setup_file
}

teardown_file() {
	qemu_peers_teardown_file
}

# bad_usage ARGS...: exit 2, one line on stderr that says why, empty stdout.
bad_usage() {
	run --separate-stderr "$EBSBENCH" compare "$@"
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
	[[ $stderr == "ebsbench compare: "* ]] || fail "stderr does not name the command: $stderr"
}

@test "compare: bad input is one line on stderr and exit 2" {
	bad_usage "$SEED" "$SEED" --bogus
	assert_equal "$stderr" "ebsbench compare: unknown option --bogus (try ebsbench compare --help)"
	bad_usage "$SEED"
	assert_equal "$stderr" "ebsbench compare: needs two results: A and B (try ebsbench compare --help)"
	bad_usage "$SEED" "$BATS_TEST_TMPDIR/nothing-here"
	assert_equal "$stderr" "ebsbench compare: $BATS_TEST_TMPDIR/nothing-here: No such file or directory"
	jq '.schema = 5' "$SEED" >"$BATS_TEST_TMPDIR/newer.json"
	bad_usage "$BATS_TEST_TMPDIR/newer.json" "$SEED"
	[[ $stderr == *"written by a newer ebsbench: schema 5, this one reads 1 to 4" ]] ||
		fail "the newer schema is not named: $stderr"
	bad_usage "$SEED" "$SEED" --out
	assert_equal "$stderr" "ebsbench compare: --out needs a directory (try ebsbench compare --help)"
}

@test "compare: --out writes compare.md and compare.json, as stdout gives them" {
	run --separate-stderr "$EBSBENCH" compare "$SEED" "$SEED"
	assert_success
	local md=$output
	run --separate-stderr "$EBSBENCH" compare --json "$SEED" "$SEED"
	assert_success
	local json=$output
	run --separate-stderr "$EBSBENCH" compare "$SEED" "$SEED" --out "$BATS_TEST_TMPDIR/cmp"
	assert_success
	assert_equal "$output" ""
	assert_equal "$(cat "$BATS_TEST_TMPDIR/cmp/compare.md")" "$md"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/cmp/compare.json")" "$json"
	jq -e '.warnings == [] and (.phases | length) > 0' "$BATS_TEST_TMPDIR/cmp/compare.json" >/dev/null ||
		fail "a run against itself: $(jq -c .warnings "$BATS_TEST_TMPDIR/cmp/compare.json")"
	[[ $md == *"| gp3 | randread | IOPS |"*"| not significant |"* ]] || fail "no gp3 randread row: $md"
}

@test "compare: ebsbench help lists it" {
	run --separate-stderr "$EBSBENCH" help
	assert_success
	assert_line --regexp '^  compare +two runs phase by phase'
}

# demo_run OUT: `make demo`'s job under QEMU, results fetched back from S3.
demo_run() {
	boot_past_stalls "$1" --config "$QEMU_DIR/demo-config.json" --s3 "$GUEST_S3" --ca "$CA_FILE"
	if [ "$status" -ne 0 ] || [ ! -f "$1/results/results.json" ]; then
		echo "$output"
		tail -n 40 "$1/console.txt" 2>/dev/null || true
		return 1
	fi
}

@test "appliance: two demo runs: gp3 IOPS not significant, the gp2 cliff change named, another instance type warned" {
	local a="$BATS_FILE_TMPDIR/demo-a" b="$BATS_FILE_TMPDIR/demo-b"
	demo_run "$a"
	demo_run "$b"
	run --separate-stderr "$EBSBENCH" compare --json "$a/results" "$b/results"
	assert_success
	local doc="$BATS_TEST_TMPDIR/compare.json"
	printf '%s\n' "$output" >"$doc"
	jq -r '.phases[] | select(.device == "gp3" and .phase == "randread") | .metrics[]
		| "# gp3 randread \(.metric): A \(.a.estimate) [\(.a.low), \(.a.high)], B \(.b.estimate) [\(.b.low), \(.b.high)]: \(.verdict)"' "$doc" >&3
	jq -r '.cliffs[] | "# \(.device) cliff: A \(.a_s) s, B \(.b_s) s, resolution \(.resolution_s) s: \(.verdict)"' "$doc" >&3
	jq -r '.warnings[] | "# warning: \(.)"' "$doc" >&3
	local verdict
	verdict=$(jq -r '.phases[] | select(.device == "gp3" and .phase == "randread" and .level == "whole")
		| .metrics[] | select(.metric == "iops") | .verdict' "$doc")
	assert_equal "$verdict" "not significant"
	# The intervals say so: they overlap.
	jq -e '.phases[] | select(.device == "gp3" and .phase == "randread") | .metrics[]
		| select(.metric == "iops") | .a.low <= .b.high and .b.low <= .a.high' "$doc" >/dev/null ||
		fail "the gp3 randread intervals do not overlap"
	# Every verdict as its intervals say.
	jq -e '[.phases[].metrics[] | .verdict == (if .a.low == null or .b.low == null then "no interval"
		elif .b.low > .a.high then "higher" elif .b.high < .a.low then "lower"
		else "not significant" end)] | all' "$doc" >/dev/null ||
		fail "a verdict disagrees with its intervals"
	# gp2: both cliffs found, their change and resolution (one 10 ms window).
	jq -e '.cliffs[] | select(.device == "gp2") | (.a_s | type) == "number" and (.b_s | type) == "number"
		and ((.change_s - (.b_s - .a_s)) | fabs) < 1e-9 and .resolution_s == 0.01' "$doc" >/dev/null ||
		fail "no gp2 cliff change: $(jq -c .cliffs "$doc")"
	jq -e '.warnings | map(select(test("instance type"))) | length == 0' "$doc" >/dev/null ||
		fail "two runs on the same machine warned of the instance type"
	run --separate-stderr "$EBSBENCH" compare "$a/results" "$b/results"
	assert_success
	local sa sb
	sa=$(jq -r '.cliffs[] | select(.device == "gp2") | .a_s' "$doc")
	sb=$(jq -r '.cliffs[] | select(.device == "gp2") | .b_s' "$doc")
	sa=$(printf '%.2f' "$sa")
	sb=$(printf '%.2f' "$sb")
	[[ $output == *"- gp2: the cliff came at $sa s in A and $sb s in B"* ]] ||
		fail "the Markdown does not name the gp2 cliff times $sa and $sb: $(grep -F 'gp2: ' <<<"$output")"
	[[ $output == *"resolution of one window (0.01 s)"* ]] || fail "the resolution is not named"
	# The same run, its instance type changed: warned, naming both.
	jq '.environment.instance_type = "m5.large"' "$a/results/results.json" >"$BATS_TEST_TMPDIR/m5large.json"
	run --separate-stderr "$EBSBENCH" compare "$a/results" "$BATS_TEST_TMPDIR/m5large.json"
	assert_success
	local was
	was=$(jq -r '.environment.instance_type // "unknown"' "$a/results/results.json")
	[[ $output == *"- A ran on instance type $was, B on m5.large: the instance's EBS limits differ."* ]] ||
		fail "no instance-type warning: $(grep -F -- '- ' <<<"$output" | head -5)"
}
