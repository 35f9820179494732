#!/usr/bin/env bats
# binary_size.bats - the appliance's binary stays within its 1 MiB budget
# (1,048,576 bytes, static and stripped): what goes into the initramfs, the
# OCI image and every launch's upload.  The Makefile keeps it there with no
# unwind tables and the rooms that run once a command built for size; the
# per-I/O rooms (job/, engine/, stats/, device/) stay at -O2.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

ROOT="$BATS_TEST_DIRNAME/../.."
BUDGET=1048576

setup_file() {
	make -C "$ROOT" build/ebsbench >/dev/null
}

@test "ebsbench: static, stripped, within 1 MiB (1,048,576 bytes)" {
	local size
	size=$(stat -c %s "$EBSBENCH")
	echo "ebsbench: $size bytes of $BUDGET" >&3
	((size <= BUDGET)) || fail "$EBSBENCH is $size bytes (the budget is $BUDGET): what grew it?"
	run file "$EBSBENCH"
	assert_output --partial 'statically linked'
	assert_output --partial 'stripped'
	refute_output --partial 'not stripped'
}

@test "the per-I/O rooms are built for speed (-O2), a command's once-only rooms for size (-Os)" {
	local f
	for f in job/job engine/io_uring stats/stats device/ebs_stats; do
		run make -C "$ROOT" -n -B "build/musl/$f.o"
		assert_success
		assert_output --regexp ' -O2 '
	done
	for f in report/summary decide/recommend analysis/analysis cli/cmd_run; do
		run make -C "$ROOT" -n -B "build/musl/$f.o"
		assert_success
		assert_output --regexp ' -Os '
	done
}
