#!/usr/bin/env bats
# submit_batch.bats - --iodepth_batch_submit (fio's option, alias
# --iodepth_batch): at most N I/Os per submit call, ebsbench's default 4
# (fio's 1), 0 for iodepth.  The JSON's iodepth_submit and
# iodepth_complete are counted, not fixed: each submit call and each reap
# that returned completions, bucketed as fio's io_u_mark_submit/complete.
# The device is a loop device capped at 3,000 read IOPS by a blkio cgroup,
# so completions come far slower than a submit call: the queue still
# reaches iodepth in chunks of 4, and an unbatched first fill carries all 32.

# run-bats: alone: how full the queue gets between completions under a blkio cap

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

setup_file() {
	require_ebsbench
	LOOP=$(make_filled_loop 64 /dev/zero)
	export LOOP
	G_CAP=$(unique_name batch3000)
	make_group "$G_CAP" "$LOOP" 3000 0
	export G_CAP
}

teardown_file() {
	cleanup_groups
	cleanup_loops
}

# capped_json ENGINE OPTION...: 1,024 4k random reads at qd32 on the capped
# device; the job's JSON in $output.
capped_json() {
	local engine=$1
	shift
	run --separate-stderr in_group "$G_CAP" "$EBSBENCH" fio --name=batch --filename="$LOOP" \
		--rw=randread --bs=4k --size=4M --iodepth=32 --direct=1 --ioengine="$engine" \
		--output-format=json "$@"
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[ "$(jq -r '.jobs[0].read.total_ios' <<<"$output")" = 1024 ] || fail "total_ios: $output"
}

# bucket KEY LABEL: the percentage of .jobs[0][KEY][LABEL] in $output.
bucket() {
	jq -r --arg k "$1" --arg l "$2" '.jobs[0][$k][$l]' <<<"$output"
}

@test "by default every submit carries 1 to 4 I/Os and the queue still reaches iodepth (io_uring, libaio)" {
	require_blkio_throttle
	local engine
	for engine in io_uring libaio; do
		capped_json "$engine"
		[ "$(bucket iodepth_submit 4)" = 100 ] || fail "$engine submits: $(jq -c '.jobs[0].iodepth_submit' <<<"$output")"
		awk -v p="$(bucket iodepth_level 32)" 'BEGIN { exit !(p > 0) }' ||
			fail "$engine never had 32 in flight: $(jq -c '.jobs[0].iodepth_level' <<<"$output")"
		# Every reap that returned completions is counted somewhere.
		jq -e '[.jobs[0].iodepth_complete[]] | add | . > 99.9 and . < 100.1' <<<"$output" >/dev/null ||
			fail "$engine completions: $(jq -c '.jobs[0].iodepth_complete' <<<"$output")"
	done
}

@test "--iodepth_batch_submit=0 submits up to iodepth at once: the first fill carries all 32" {
	require_blkio_throttle
	capped_json io_uring --iodepth_batch_submit=0
	awk -v p="$(bucket iodepth_submit 32)" 'BEGIN { exit !(p > 0) }' ||
		fail "no submit of 17-32: $(jq -c '.jobs[0].iodepth_submit' <<<"$output")"
	[ "$(jq -r '.jobs[0]["job options"].iodepth_batch_submit' <<<"$output")" = 0 ] ||
		fail "job options: $(jq -c '.jobs[0]["job options"]' <<<"$output")"
}

@test "--iodepth_batch=8, fio's alias, at iodepth 8: the first fill goes in one call, in the normal output too" {
	require_blkio_throttle
	local eight
	run --separate-stderr in_group "$G_CAP" "$EBSBENCH" fio --name=eight --filename="$LOOP" \
		--rw=randread --bs=4k --size=1M --iodepth=8 --direct=1 --iodepth_batch=8
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	# The default (4) would leave the "8" bucket (5-8 per call) empty.
	[[ $output =~ submit\ +:\ 0=0\.0%,\ 4=[0-9.]+%,\ 8=([0-9.]+)%, ]] || fail "no submit line: $output"
	eight=${BASH_REMATCH[1]}
	awk -v p="$eight" 'BEGIN { exit !(p > 0) }' || fail "no submit of 5-8: $output"
}

@test "an --iodepth_batch_submit out of range is a one-line error naming it, exit 2" {
	run --separate-stderr "$EBSBENCH" fio --name=bad --filename="$LOOP" --rw=randread \
		--iodepth_batch_submit=4097
	[ "$status" -eq 2 ] || fail "exit $status: $stderr"
	[ "$(wc -l <<<"$stderr")" -eq 1 ] || fail "stderr: $stderr"
	[[ $stderr == *iodepth_batch_submit* ]] || fail "stderr: $stderr"
}

@test "the options are in docs/fio.md's options list and in the fio usage" {
	local list opt
	list=$(sed -n '/^Options: `--name/,/`\.$/p' "$HELPERS_DIR/../../docs/fio.md")
	[ -n "$list" ] || fail "no options list in docs/fio.md"
	run "$EBSBENCH" fio --help
	for opt in iodepth_batch_submit iodepth_batch; do
		[[ $list == *"--$opt "* || $list == *"--$opt"$'\n'* ]] || fail "docs/fio.md's options list lacks --$opt"
		[[ $output == *"--$opt="* ]] || fail "ebsbench fio --help lacks --$opt: $output"
	done
}
