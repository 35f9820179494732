#!/usr/bin/env bats
# seccomp.bats - io_uring refused by a real seccomp filter (build/no-io-uring:
# io_uring_setup fails with ENOSYS or EPERM, as container runtimes' default
# profiles make it): `ebsbench fio` and `ebsbench run` fall back to libaio,
# do the I/O, and say which engine ran; without the filter io_uring runs.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

NO_IO_URING="${NO_IO_URING:-$BATS_TEST_DIRNAME/../../build/no-io-uring}"
FOREIGN_SYSCALL="${FOREIGN_SYSCALL:-$BATS_TEST_DIRNAME/../../build/foreign-syscall}"

setup_file() {
	require_ebsbench
	require_built "$NO_IO_URING" "make build/no-io-uring"
	require_built "$FOREIGN_SYSCALL" "make build/foreign-syscall"
	LOOP=$(make_loop 64)
	export LOOP
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# fio_under [MODE]: a 1 s io_uring randread on LOOP, under the filter in
# MODE (none: no filter); stdout in out.json, stderr in $stderr.
fio_under() {
	local wrap=()
	[ -z "${1:-}" ] || wrap=("$NO_IO_URING" "$1")
	run --separate-stderr "${wrap[@]}" "$EBSBENCH" fio --name=refused --filename="$LOOP" \
		--rw=randread --bs=4k --iodepth=8 --runtime=1 --time_based --ioengine=io_uring \
		--direct=1 --output-format=json
	printf '%s\n' "$output" >out.json
	[ "$status" -eq 0 ] || fail "exit $status, stderr: $stderr"
	json_doc out.json || fail "stdout is not one JSON document: $output"
	assert_equal "$(jq -r '.jobs[0].error' out.json)" 0
	local ios
	ios=$(jnum out.json '.jobs[0].read.total_ios') || fail "no read.total_ios"
	[ "$ios" -gt 0 ] || fail "no I/O done: total_ios $ios"
	[ "$(jnum out.json '.jobs[0].read.io_bytes')" -eq $((ios * 4096)) ] ||
		fail "io_bytes is not total_ios x 4k"
}

# assert_fell_back FILE PREFIX WHY: the job at PREFIX (".jobs[0]",
# ".phases[0].job") ran libaio and its note names io_uring and WHY.
assert_fell_back() {
	local file=$1 at=$2 why=$3
	assert_equal "$(jq -r "$at.ebsbench.ioengine" "$file")" libaio
	local note
	note=$(jq -r "$at.ebsbench.engine_note // \"\"" "$file")
	[[ $note == *io_uring* ]] || fail "engine note does not name io_uring: '$note'"
	[[ $note == *"$why"* ]] || fail "engine note does not say '$why': '$note'"
	[[ $note == *libaio* ]] || fail "engine note does not name libaio: '$note'"
}

@test "fio: io_uring_setup refused with ENOSYS by seccomp: runs libaio and says why" {
	fio_under ENOSYS
	assert_fell_back out.json '.jobs[0]' "Function not implemented"
}

@test "fio: io_uring_setup refused with EPERM by seccomp: runs libaio and says why" {
	fio_under EPERM
	assert_fell_back out.json '.jobs[0]' "Operation not permitted"
}

@test "fio control: without the filter io_uring runs, with no note" {
	fio_under
	assert_equal "$(jq -r '.jobs[0].ebsbench.ioengine' out.json)" io_uring
	assert_equal "$(jq -r '.jobs[0].ebsbench.engine_note // "none"' out.json)" none
}

# run_under [MODE]: `ebsbench run` of a layout (writes) and a randread on a
# blank device of its own with ioengine io_uring, under the filter in MODE.
# A fresh device each time: a previous layout left data on the last one.
run_under() {
	local dev
	dev=$(make_loop 64) || fail "no loop device"
	cat >cfg.json <<-JSON
	{"devices": [{"path": "$dev", "label": "vol", "type": "gp3", "size_gib": 100}],
	 "time_scale": 0.01, "test_size": "16M", "output_dir": "out", "ioengine": "io_uring",
	 "phases": [{"phase": "layout"}, {"phase": "randread", "runtime": 100}]}
	JSON
	local wrap=()
	[ -z "${1:-}" ] || wrap=("$NO_IO_URING" "$1")
	run --separate-stderr "${wrap[@]}" "$EBSBENCH" run --config cfg.json
	[ "$status" -eq 0 ] || fail "exit $status, stderr: $stderr"
	[ "$(jq '.phases | length' out/results.json)" = 2 ] || fail "not two phases in results.json"
	assert_equal "$(jq -r '[.phases[].phase] | join(",")' out/results.json)" layout,randread
	# Both phases did their I/O: the layout wrote test_size, the read read.
	[ "$(jnum out/results.json '.phases[0].job.write.io_bytes')" -eq $((16 << 20)) ] ||
		fail "the layout did not write 16 MiB"
	[ "$(jnum out/results.json '.phases[1].job.read.total_ios')" -gt 0 ] ||
		fail "the randread did no I/O"
	# And the kernel counted the same I/O on the device.
	[ "$(jq '[.phases[] | .disk_check.agrees] | all' out/results.json)" = true ] ||
		fail "kernel and engine I/O counts disagree: $(jq -c '[.phases[].disk_check]' out/results.json)"
}

@test "run: under seccomp ENOSYS every phase in results.json records libaio and why" {
	run_under ENOSYS
	assert_fell_back out/results.json '.phases[0].job' "Function not implemented"
	assert_fell_back out/results.json '.phases[1].job' "Function not implemented"
}

@test "run: under seccomp EPERM every phase in results.json records libaio and why" {
	run_under EPERM
	assert_fell_back out/results.json '.phases[0].job' "Operation not permitted"
	assert_fell_back out/results.json '.phases[1].job' "Operation not permitted"
}

@test "run control: without the filter every phase records io_uring" {
	run_under
	assert_equal "$(jq -r '[.phases[].job.ebsbench.ioengine] | join(",")' out/results.json)" \
		io_uring,io_uring
	assert_equal "$(jq -r '.phases | map(.job.ebsbench.engine_note // "none") | join(",")' \
		out/results.json)" none,none
}

@test "no-io-uring refuses an unknown mode and a missing command, and passes the exit code on" {
	run --separate-stderr "$NO_IO_URING" EINVAL true
	assert_equal "$status" 2
	[[ $stderr == *"unknown mode 'EINVAL'"* ]] || fail "stderr: $stderr"
	run --separate-stderr "$NO_IO_URING" ENOSYS
	assert_equal "$status" 2
	run -127 --separate-stderr "$NO_IO_URING" ENOSYS /no/such/program
	assert_equal "$status" 127
	run "$NO_IO_URING" EPERM sh -c 'exit 7'
	assert_equal "$status" 7
}

# The filter matches io_uring_setup by its x86-64 number: a call through
# another ABI's table (where that number means something else, and
# io_uring_setup has another) must not get past it.
# assert_foreign_call_killed ABI: without the filter the call returns (x32
# may say ENOSYS); under it the process dies of SIGSYS.
assert_foreign_call_killed() {
	local abi=$1
	run "$FOREIGN_SYSCALL" "$abi"
	assert_success
	[[ $output =~ ^-?[0-9]+$ ]] || fail "$abi: unfiltered output '$output'"
	run "$NO_IO_URING" ENOSYS "$FOREIGN_SYSCALL" "$abi"
	[ "$status" -eq $((128 + 31)) ] ||
		fail "$abi: not killed by SIGSYS under the filter: exit $status, output '$output'"
}

# The i386 table is reached through int 0x80, which some kernels do not
# serve to a 64-bit process (ia32_emulation=0, or a hypervisor such as PVM
# that leaves the gate out): there the unfiltered call already dies of
# SIGSEGV, the kernel itself shuts that door, and the filter has nothing
# to shut.  Found out first, then tested where it is served.
@test "no-io-uring kills a process making a system call through the i386 table" {
	run "$FOREIGN_SYSCALL" i386
	if [ "$status" -eq $((128 + 11)) ]; then
		skip_unavailable no-ia32-int80 "foreign-syscall i386 died of SIGSEGV with no filter installed"
	fi
	assert_foreign_call_killed i386
}

@test "no-io-uring kills a process making a system call through the x32 table" {
	assert_foreign_call_killed x32
}

# The finding-out itself, on a host that serves int 0x80 or not: a stand-in
# for foreign-syscall that dies of SIGSEGV on the i386 call, as the call does
# where the kernel does not serve it.
@test "where int 0x80 ends in SIGSEGV, the i386 case is a listed skip and the x32 case still runs" {
	cat >segv-i386 <<-SH
	#!/bin/sh
	[ "\$1" != i386 ] || kill -SEGV \$\$
	exec "$FOREIGN_SYSCALL" "\$@"
	SH
	chmod +x segv-i386
	run env FOREIGN_SYSCALL="$PWD/segv-i386" bats --tap --filter 'through the (i386|x32) table$' \
		"$BATS_TEST_FILENAME"
	assert_success
	assert_line --index 0 "1..2"
	assert_line --index 1 --regexp '^ok 1 no-io-uring kills a process making a system call through the i386 table # skip no-ia32-int80: the kernel does not serve int 0x80 '
	assert_line --index 2 "ok 2 no-io-uring kills a process making a system call through the x32 table"
}
