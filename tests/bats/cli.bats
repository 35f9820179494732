#!/usr/bin/env bats
# cli.bats - the command line's own face: `ebsbench --help` lists every
# command main.c dispatches, each command answers --help on stdout with
# exit 0, and a wrong command is one line on stderr with exit 2.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

COMMANDS=(run discover report recommend observe compare presign k8s ec2 fetch fio version)

@test "--help lists every command, one line each, on stdout" {
	run --separate-stderr "$EBSBENCH" --help
	assert_success
	assert_line --index 0 --partial "usage: ebsbench COMMAND"
	for c in "${COMMANDS[@]}"; do
		assert_line --regexp "^  $c +[a-z]"
	done
	# Nothing listed that does not exist: one line per command.
	[ "$(grep -c '^  [a-z]' <<<"$output")" -eq "${#COMMANDS[@]}" ]
}

@test "every command answers --help with its own usage and exit 0" {
	for c in "${COMMANDS[@]}"; do
		run --separate-stderr "$EBSBENCH" "$c" --help
		assert_success
		assert_output --partial "usage: ebsbench $c"
		[ -z "$stderr" ]
	done
}

@test "no command: usage on stderr, exit 2" {
	run --separate-stderr "$EBSBENCH"
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$(grep -c '^  run ' <<<"$stderr")" 1
}

@test "an unknown command is one line naming it, exit 2" {
	run --separate-stderr "$EBSBENCH" bench
	assert_failure 2
	[ -z "$output" ]
	assert_equal "$stderr" "ebsbench: unknown command 'bench' (try ebsbench --help)"
}

@test "run --help speaks the users' words" {
	run --separate-stderr "$EBSBENCH" run --help
	assert_success
	assert_output --partial "EKS gp2/gp3 benchmark"
	refute_output --partial "seed"
}
