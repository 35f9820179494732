#!/usr/bin/env bats
# fio_trim.bats - rw=trim/randtrim/trimwrite and --fsync/--fdatasync on real
# devices: a trim on a loop device really discards (its backing file gets
# holes there, the data around them stays, the trimmed blocks read back as
# zeros) through every engine; --fsync=N gives a sync per N writes in the
# JSON, fio's count, and the kernel counts them as flushes; a trim destroys data as a write
# does, so it meets the same guards: `run` refuses a trim phase on a device
# holding a file system (exit 3, not a byte changed; fio_cli.bats has `fio`
# refusing one on a mounted device, EBUSY); and the plans `run` builds
# itself never trim.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

PYTHON=/usr/bin/python3

setup_file() {
	require_ebsbench
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# backing_of DEV -> the file under loop device DEV.
backing_of() {
	losetup -nO BACK-FILE "$1"
}

# holes FILE -> "OFFSET:LENGTH" of each hole (SEEK_HOLE/SEEK_DATA), a line each.
holes() {
	"$PYTHON" - "$1" <<-'PY'
	import os, sys
	fd = os.open(sys.argv[1], os.O_RDONLY)
	end, pos = os.fstat(fd).st_size, 0
	while pos < end:
	    hole = os.lseek(fd, pos, os.SEEK_HOLE)
	    if hole >= end:
	        break
	    try:
	        data = os.lseek(fd, hole, os.SEEK_DATA)
	    except OSError:
	        data = end
	    print(f"{hole}:{data - hole}")
	    pos = data
	PY
}

@test "rw=trim on a loop device discards: its backing file has a hole exactly there, the rest is kept" {
	local dev backing json
	dev=$(make_filled_loop 64 /dev/urandom)
	backing=$(backing_of "$dev")
	[ -z "$(holes "$backing")" ] || fail "the filled device already has holes: $(holes "$backing")"
	dd if="$dev" bs=1M skip=48 count=16 status=none | sha256sum >tail.sum
	run --separate-stderr "$EBSBENCH" fio --allow_destroy=1 --name=t --filename="$dev" --rw=trim --bs=1M \
		--offset=16M --size=32M --ioengine=psync --output-format=json
	assert_success
	json=$output
	[ "$(jq '.jobs[0].trim.total_ios' <<<"$json")" = 32 ] || fail "trim: $(jq -c '.jobs[0].trim' <<<"$json")"
	[ "$(jq '.jobs[0].trim.io_bytes' <<<"$json")" = $((32 << 20)) ] || fail "trim bytes"
	[ "$(jq '.jobs[0].write.total_ios + .jobs[0].read.total_ios' <<<"$json")" = 0 ] ||
		fail "a trim job read or wrote"
	[ "$(jq '.jobs[0].trim.clat_ns.N' <<<"$json")" = 32 ] || fail "no trim latencies"
	run holes "$backing"
	[ "$output" = "$((16 << 20)):$((32 << 20))" ] || fail "holes in the backing file: '$output'"
	cmp -n $((32 << 20)) <(dd if="$dev" bs=1M skip=16 count=32 iflag=direct status=none) /dev/zero ||
		fail "the trimmed blocks do not read back as zeros"
	[ "$(dd if="$dev" bs=1M skip=48 count=16 status=none | sha256sum)" = "$(cat tail.sum)" ] ||
		fail "data after the trimmed region changed"
}

@test "randtrim through io_uring, libaio and psync: every block of the region discarded, clat without slat" {
	local dev backing engine json
	for engine in io_uring libaio psync; do
		dev=$(make_filled_loop 16 /dev/urandom)
		backing=$(backing_of "$dev")
		run --separate-stderr "$EBSBENCH" fio --allow_destroy=1 --name=t --filename="$dev" --rw=randtrim \
			--bs=64k \
			--size=8M --iodepth=8 --ioengine=$engine --output-format=json
		assert_success
		json=$output
		[ "$(jq '.jobs[0].trim.total_ios' <<<"$json")" = 128 ] ||
			fail "$engine: $(jq -c '.jobs[0].trim' <<<"$json")"
		[ "$(jq -r '.jobs[0].ebsbench.ioengine' <<<"$json")" = "$engine" ] || fail "$engine did not run"
		# Done at once (no discard in io_uring on 6.1, none in AIO): no slat.
		[ "$(jq '.jobs[0].trim.slat_ns.N' <<<"$json")" = 0 ] || fail "$engine: a trim has slat"
		run holes "$backing"
		[ "$output" = "0:$((8 << 20))" ] || fail "$engine: holes '$output', want the first 8 MiB"
	done
}

@test "--fsync=4: a sync per 4 writes in the JSON (fio's count), each a flush the kernel counted (libaio and io_uring, qd8)" {
	local dev engine json flushes_before flushes_after writes syncs args
	dev=$(make_loop 64)
	args=(--name=s --filename="$dev" --rw=randwrite --bs=4k --size=4M --iodepth=8 --direct=1
		--fsync=4 --ioengine=libaio --output-format=json)
	# fio's own count for the same job: after every 4th write but the last.
	run --separate-stderr fio "${args[@]}"
	assert_success
	[ "$(jq '.jobs[0].sync.total_ios' <<<"$output")" = 255 ] ||
		fail "fio itself: $(jq -c '.jobs[0].sync' <<<"$output")"
	for engine in libaio io_uring; do
		flushes_before=$(awk '{ print $16 }' "/sys/block/${dev#/dev/}/stat")
		run --separate-stderr "$EBSBENCH" fio --allow_destroy=1 --name=s --filename="$dev" --rw=randwrite \
			--bs=4k \
			--size=4M --iodepth=8 --direct=1 --fsync=4 --ioengine=$engine --output-format=json+
		assert_success
		json=$output
		flushes_after=$(awk '{ print $16 }' "/sys/block/${dev#/dev/}/stat")
		writes=$(jq '.jobs[0].write.total_ios' <<<"$json")
		syncs=$(jq '.jobs[0].sync.total_ios' <<<"$json")
		[ "$writes" = 1024 ] || fail "$engine: $writes writes"
		[ "$syncs" = 255 ] || fail "$engine: $syncs syncs for $writes writes, want fio's 255"
		[ "$(jq '.jobs[0].sync.lat_ns.N' <<<"$json")" = 255 ] || fail "$engine: sync lat N"
		[ "$(jq '[.jobs[0].sync.lat_ns.bins[]] | add' <<<"$json")" = 255 ] || fail "$engine: sync bins"
		[ "$(jq '.jobs[0].sync.lat_ns.percentile | length' <<<"$json")" = 17 ] ||
			fail "$engine: no sync percentiles"
		((flushes_after - flushes_before >= 255)) ||
			fail "$engine: the kernel counted $((flushes_after - flushes_before)) flushes, want >= 255"
	done
}

@test "--fdatasync=8 in the normal output: fio's sync block and issued rwts" {
	run --separate-stderr "$EBSBENCH" fio --name=d --ioengine=null --size=1M --bs=4k \
		--rw=write --fdatasync=8
	assert_success
	[[ $output == *"fsync/fdatasync/sync_file_range:"* ]] || fail "no sync block: $output"
	[[ $output == *"    sync (nsec): min="* ]] || fail "no sync latency line: $output"
	[[ $output == *"issued rwts: total=0,256,0,31 "* ]] || fail "issued rwts: $output"
}

@test "run refuses a trim phase on a device holding a file system: exit 3, not a byte changed" {
	local dev before
	dev=$(make_loop 64)
	mkfs.ext4 -q -F "$dev"
	sync
	before=$(sha256sum <"$dev")
	short_config "$dev" '[{"phase": "discard", "rw": "randtrim", "bs": "64k", "runtime": 100}]' \
		>cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	[ "$status" -eq 3 ] || fail "exit $status, want 3; stderr: $stderr"
	[[ $stderr == *"$dev"* && $stderr == *ext4* ]] || fail "the refusal does not name $dev and ext4: $stderr"
	[ "$(sha256sum <"$dev")" = "$before" ] || fail "$dev changed"
	# The same plan on a blank device: planned, and planned as writing.
	short_config "$(make_loop 64)" \
		'[{"phase": "discard", "rw": "randtrim", "bs": "64k", "runtime": 100}]' >blank.json
	run --separate-stderr "$EBSBENCH" run --config blank.json --dry-run
	assert_success
	[ "$(jq '.writes' <<<"$output")" = true ] || fail "a trim plan is not a writing plan: $output"
}

@test "the plans run builds itself never trim: the default sequence, the load curve, the sweep" {
	local dev
	dev=$(make_loop 64)
	# No "phases": the plan is run's own (the load curve included).
	cat >cfg.json <<-JSON
	{"devices": [{"path": "$dev", "label": "vol", "type": "gp3", "size_gib": 100, "iops": 3000}],
	 "time_scale": 0.01, "test_size": "16M", "output_dir": "out"}
	JSON
	local phase
	for phase in loadcurve sweep; do
		local args=(--config cfg.json --dry-run)
		[ "$phase" = loadcurve ] || args+=(--plan sweep)
		run --separate-stderr "$EBSBENCH" run "${args[@]}"
		assert_success
		jq -e --arg p "$phase" '[.steps[].phase] | index($p)' <<<"$output" >/dev/null ||
			fail "the plan has no $phase step: $output"
		run jq -r '.steps[].options.rw' <<<"$output"
		assert_success
		[[ $output != *trim* ]] || fail "the $phase plan trims: $output"
	done
}
