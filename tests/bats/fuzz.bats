#!/usr/bin/env bats
# fuzz.bats - tests/fuzz/run.sh, the driver of `make fuzz` and fuzz-smoke,
# on a toy libFuzzer target with known bugs: a clean run prints its figures,
# and a crash or a leak, in the corpus or found while fuzzing, fails it.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

RUN_SH="$BATS_TEST_DIRNAME/../fuzz/run.sh"

# toy: "boom" overflows the heap, "leak" leaks, anything starting "Z" is a
# null dereference; the rest is clean.  clean: a few branches, no bug.
setup_file() {
	export FUZZ_BIN_DIR="$BATS_FILE_TMPDIR/bin"
	mkdir -p "$FUZZ_BIN_DIR"
	cat >"$BATS_FILE_TMPDIR/toy.c" <<-'C'
		#include <stdint.h>
		#include <stdlib.h>
		#include <string.h>
		int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
		{
			if (n >= 4 && !memcmp(d, "boom", 4)) {
				char *volatile p = malloc(4);
				p[4] = 0;
				free(p);
			}
			if (n >= 4 && !memcmp(d, "leak", 4)) {
				void *volatile p = malloc(64);
				(void)p;
			}
			if (n >= 1 && d[0] == 'Z')
				*(volatile int *)(uintptr_t)(n - n) = 1;
			return 0;
		}
	C
	cat >"$BATS_FILE_TMPDIR/clean.c" <<-'C'
		#include <stdint.h>
		#include <stddef.h>
		int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
		{
			int sum = 0;
			for (size_t i = 0; i < n; i++)
				sum += d[i] > 'm' ? 1 : d[i] == ' ' ? 2 : 3;
			return sum > 1000000 ? 0 : 0;
		}
	C
	for t in toy clean; do
		clang -g -O1 -fsanitize=fuzzer,address,undefined -o "$FUZZ_BIN_DIR/$t" "$BATS_FILE_TMPDIR/$t.c"
	done
}

setup() {
	export FUZZ_CORPUS_DIR="$BATS_TEST_TMPDIR/corpus"
	mkdir -p "$FUZZ_CORPUS_DIR/toy" "$FUZZ_CORPUS_DIR/clean"
	rm -rf "$FUZZ_BIN_DIR/crashes" "$FUZZ_BIN_DIR/work"
}

@test "fuzz: a clean target prints executions, coverage and corpus size" {
	printf 'hello' >"$FUZZ_CORPUS_DIR/clean/seed"
	run --separate-stderr bash "$RUN_SH" --replay --seconds 1 clean
	assert_success
	assert_line 'fuzz: clean: replayed 1 corpus files'
	assert_line --regexp '^fuzz: clean +[1-9][0-9]* execs in 1s  cov +[1-9][0-9]*  ft +[1-9][0-9]*  corpus 1 '
	assert_line 'fuzz: 1 targets clean'
	[ -n "$(ls "$FUZZ_BIN_DIR/work/clean")" ] || fail "nothing new in the work corpus"
	[ "$(ls "$FUZZ_CORPUS_DIR/clean")" = seed ] || fail "the seed corpus was written to"
}

@test "fuzz: a crashing corpus file fails the replay and is saved" {
	printf 'boom' >"$FUZZ_CORPUS_DIR/toy/heap-overflow"
	run --separate-stderr bash "$RUN_SH" --replay --seconds 0 toy
	assert_failure 1
	[[ $stderr == *"fuzz: toy FAILED"* ]] || fail "no FAILED line: $stderr"
	[[ $stderr == *"heap-buffer-overflow"* ]] || fail "no ASan report: $stderr"
	[[ $stderr == *"1 of 1 targets failed: toy"* ]] || fail "no closing count: $stderr"
	compgen -G "$FUZZ_BIN_DIR/crashes/toy-crash-*" >/dev/null || fail "crash input not saved"
}

@test "fuzz: a leak fails the replay" {
	printf 'leak' >"$FUZZ_CORPUS_DIR/toy/leak"
	run --separate-stderr bash "$RUN_SH" --replay --seconds 0 toy
	assert_failure 1
	[[ $stderr == *"LeakSanitizer"* ]] || fail "no leak report: $stderr"
}

@test "fuzz: a crash found while fuzzing fails the run" {
	printf 'Y' >"$FUZZ_CORPUS_DIR/toy/seed"
	run --separate-stderr bash "$RUN_SH" --seconds 20 toy
	assert_failure 1
	# Whichever of the toy's bugs the fuzzer reaches first.
	[[ $stderr =~ ERROR:\ (AddressSanitizer|LeakSanitizer) ]] || fail "no sanitizer report: $stderr"
	compgen -G "$FUZZ_BIN_DIR/crashes/toy-*" >/dev/null || fail "failing input not saved"
}

@test "fuzz: a target without a seed corpus is a usage error" {
	rmdir "$FUZZ_CORPUS_DIR/toy"
	run --separate-stderr bash "$RUN_SH" --replay toy
	assert_failure 2
	[[ $stderr == *"no seed corpus"* ]] || fail "unclear error: $stderr"
}
