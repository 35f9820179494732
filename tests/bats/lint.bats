#!/usr/bin/env bats
# lint.bats - the checks on the checks: tests/lint-bats.sh flags exactly the
# known bad lines of a sample and nothing of a sample of what is fine
# (conditions, [[ ]], (( )), $(...), heredocs, multi-line quotes, line
# continuations); skip_unavailable takes only listed reasons; run-bats.sh
# counts skips apart, lists them and fails on an unlisted one.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

ROOT="$BATS_TEST_DIRNAME/../.."
LINT="$ROOT/tests/lint-bats.sh"

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# The samples spell @test as @TEST, turned back by sed as they are written:
# bats would otherwise take a sample's tests for this file's own.

@test "lint-bats flags each bad line of a sample with its rule, and nothing else" {
	# Each bad line ends in "#= RULE"; the expected findings come from them.
	sed 's/@TEST/@test/' >bad.bats <<'BATS'
@TEST "bad" {
	run true
	[ -s a ] && [ -s b ] #= and-list
	! grep -q x y #= negation
	[ -f a ] || true #= or-true
	assert_equal 1 1 || : #= or-true
	[ -n "$x" ] | cat #= pipe
	command -v tool >/dev/null || true #= tool-true
	command -v fio2gnuplot || skip "not installed" #= bare-skip
	for f in a b; do
		[ -s "$f" ] && echo "$f" #= and-list
	done
	if true; then
		! false #= negation
	fi
	node -e '#= and-list
}
' && echo "a closing brace in a quote ends nothing"
	cat <<-EOF
	}
	EOF
	test -e a && echo "nor in a heredoc" #= and-list
	[ -s a ] && #= and-list
		[ -s b ]
	mkdir g && cd g #= and-list
	echo last
}

helper() {
	test -e a && echo yes #= and-list
	! cmd #= negation
	[ -s x ] || { echo "x"; skip "in a group"; } #= bare-skip
	echo done
}

@TEST "ends in run" {
	true
	run false #= run-last
}
BATS
	run --separate-stderr "$LINT" bad.bats
	assert_failure 1
	local want
	want=$(grep -n '#= ' bad.bats | sed -E 's/^([0-9]+):.*#= (.*)$/\1: \2/')
	assert_equal "$(cut -d: -f2,3 <<<"$output" | sed 's/^ *//' | sort -n)" "$want"
	[[ $stderr == *"assertions that cannot fail"* ]] || fail "no summary on stderr: $stderr"
}

@test "lint-bats passes what checks what it seems to: conditions, [[ ]], (( )), \$(...), heredocs, quotes" {
	sed 's/@TEST/@test/' >good.bats <<'BATS'
#!/usr/bin/env bats
X=$(true && echo file level)

@TEST "good" {
	if [ -s a ] && [ -s b ]; then echo both; fi
	while [ -n "$x" ] && ! false; do break; done
	until [ -s a ] || [ -s b ]; do sleep 1; done
	if (( 1 && 2 )) && ! false; then :; elif [ -s a ] && true; then :; else echo no; fi
	while read -r l; do echo "$l"; done < <(true && echo x)
	[[ -n $a && -n $b ]]
	[[ $x == *"&&"* || ! -e $y ]]
	(( 1 && 2 ))
	x=$( [ -s a ] && echo yes || true)
	y="$(false && true) and $(! false)"
	local z=${a:-b && c}
	awk '$1 && $2 { print }
		! seen[$0]++ && x' /dev/null
	cat <<-EOF
		a && b
		! cmd
		don't
	EOF
	python3 - <<-'PY'
	if a and b: print("a && b")
	PY
	# [ -s a ] && [ -s b ] in a comment
	[ -s a ] && [ -s b ] || fail "no a or b"
	[ -s a ] && [ -s b ] ||
		fail "no a or b"
	grep -q x y && fail "x in y"
	for i in 1 2; do [ -s "$i" ] && break; done
	[ -s a ] && return 0
	[ "$x" = 0 ] && x=1 || x=0
	(cd / && false)
	! grep -q x y || echo "negated, then a fallback"
	sleep 1 &
	cat out 2>/dev/null || true
	run -1 false
	run ! true
	run --separate-stderr false
	assert_failure
	f() { echo inline; }
	ok=$(cat "$f") || return 1
	[ -s a ] && [ -s b ]
}

@TEST "a negation last" {
	true
	! false
}

helper() {
	[ -s a ] && [ -s b ]
}
BATS
	run --separate-stderr "$LINT" good.bats
	assert_success
	assert_output ""
}

@test "lint-bats: docs/development.md quotes tests/bats/skips.list exactly" {
	run --separate-stderr "$LINT" --skips-readme
	assert_success
}

# suite FILE: a bats file for run-bats.sh, with these tests: one passing,
# one skipping for a listed reason, and the body given.
suite() {
	sed 's/@TEST/@test/' >"$1" <<BATS
load $BATS_TEST_DIRNAME/helpers
@TEST "passes" {
	true
}
@TEST "md arrays" {
	skip_unavailable no-md-driver "no /proc/mdstat here"
}
BATS
	sed 's/@TEST/@test/' >>"$1"
}

# run_suite NAME: tests/run-bats.sh on NAME.bats (its TAP kept apart from
# the one this run writes), through bats' run.
run_suite() {
	BATS_TAP=$BATS_TEST_TMPDIR/$1.tap run --separate-stderr "$ROOT/tests/run-bats.sh" \
		"$BATS_TEST_TMPDIR/$1.bats"
}

@test "run-bats.sh: skips counted apart and listed with their reasons; an unlisted reason fails the run" {
	suite listed.bats </dev/null
	run_suite listed
	assert_success
	[ -s listed.tap ] # its own TAP, not the outer run's build/bats.tap
	assert_line "bats: 1 passed, 0 failed, 1 skipped"
	assert_line "skipped: $BATS_TEST_TMPDIR/listed.bats: md arrays: no-md-driver: the kernel has no md (software RAID) driver, so no md array can be created to write its superblock (no /proc/mdstat here)"
	# An ID that is not listed fails in the test itself.
	suite unknown.bats <<-'BATS'
	@TEST "unknown id" {
		skip_unavailable busy-machine
	}
	BATS
	run_suite unknown
	assert_failure
	assert_line "bats: 1 passed, 1 failed, 1 skipped"
	[[ $output == *"'busy-machine' is not an allowed skip"* ]] || fail "no reason given: $output"
}

@test "run-bats.sh: a skip that bypasses the helper fails the run, naming the test and its reason" {
	# What the lint stops up front (a bare skip) and, were it missed, the
	# closing check catches: a skip reason that is not a listed ID.
	suite bypass.bats <<-'BATS'
	@TEST "sneaky" {
		eval 'sk''ip "the machine is busy"'
	}
	@TEST "fails" {
		false
	}
	BATS
	run_suite bypass
	assert_failure
	assert_line "bats: 1 passed, 1 failed, 2 skipped"
	[[ $stderr == *"'sneaky' ($BATS_TEST_TMPDIR/bypass.bats) skipped for a reason not in tests/bats/skips.list: the machine is busy"* ]] ||
		fail "the unlisted skip is not named: $stderr"
	# The lint stops a plain one before anything runs.
	suite plain.bats <<-'BATS'
	@TEST "plain" {
		skip "the machine is busy"
	}
	BATS
	run_suite plain
	assert_failure
	assert_line "bats: 0 passed, 0 failed, 0 skipped"
	[[ $stderr == *"bare-skip"* ]] || fail "the lint did not name the skip: $stderr"
	[ ! -e "$BATS_TEST_TMPDIR/plain.tap" ]
}

# lint-layers.sh on a copy of the tree and of its objects (make test builds
# them first; copied after the sources, so newer), so each test can break
# one rule.
layers_copy() {
	mkdir -p tree/tests tree/build
	cp -r "$ROOT/runner" "$ROOT/init" tree/
	cp -r "$ROOT/build/musl" tree/build/
	cp "$ROOT/tests/lint-layers.sh" tree/tests/
}

# layers_add FOLDER NAME CODE: a C file in the copy and its object.
layers_add() {
	printf '%s\n' "$3" >"tree/runner/$1/$2.c"
	cc -std=c11 -c -Itree/runner -o "tree/build/musl/$1/$2.o" "tree/runner/$1/$2.c"
}

@test "lint-layers: the tree as it is keeps its floors" {
	layers_copy
	run bash tree/tests/lint-layers.sh
	assert_success
	assert_output "lint-layers: runner/ keeps its floors"
}

@test "lint-layers: an include that climbs a floor fails, naming the file and the floor" {
	layers_copy
	sed -i '0,/^#include "/s//#include "report\/report.h"\n#include "/' tree/runner/job/offsets.c
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_output --partial "runner/job/offsets.c: includes report/report.h, a floor not below its own (job)"
}

@test "lint-layers: an inner header of another folder fails, naming its face" {
	layers_copy
	sed -i '0,/^#include "/s//#include "net\/http_response.h"\n#include "/' tree/runner/upload/upload.c
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_output --partial "upload/upload.c: includes net/http_response.h; outside net/ use its face net/net.h"
}

@test "lint-layers: a C file over 600 lines fails; PID 1 reaching past lib and net fails" {
	layers_copy
	yes '/* filler */' | head -n 600 >>tree/runner/lib/clock.h
	sed -i '0,/^#include "/s//#include "run\/run.h"\n#include "/' tree/init/imds.c
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_output --partial "runner/lib/clock.h: "
	assert_output --partial "init/imds.c: includes run/run.h; PID 1 uses only lib/lib.h and net/net.h"
}

@test "lint-layers: a folder without a face header or a floor fails" {
	layers_copy
	mkdir tree/runner/extra
	echo '/* x.c - a stray module. */' >tree/runner/extra/x.c
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_output --partial "runner/extra/ has no floor in tests/lint-layers.sh"
	assert_output --partial "runner/extra/ has no face header extra/extra.h"
}

@test "lint-layers: files of one folder calling round in a loop fail, naming each call that closes it" {
	layers_copy
	# ping -> pong -> pang -> ping, each declared in its own header.
	for f in ping pong pang; do
		printf 'int %s_fn(int n);\n' "$f" >"tree/runner/stats/$f.h"
	done
	layers_add stats ping '#include "stats/pong.h"
int ping_fn(int n) { return n ? pong_fn(n - 1) : 0; }'
	layers_add stats pong '#include "stats/pang.h"
int pong_fn(int n) { return n ? pang_fn(n - 1) : 1; }'
	layers_add stats pang '#include "stats/ping.h"
int pang_fn(int n) { return n ? ping_fn(n - 1) : 2; }'
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_line --partial "runner/stats/: files that call each other: "
	assert_output --partial "ping.c uses pong_fn of pong.c"
	assert_output --partial "pong.c uses pang_fn of pang.c"
	assert_output --partial "pang.c uses ping_fn of ping.c"
	assert_equal "$(grep -c 'lint-layers: ' <<<"$output")" 1
}

@test "lint-layers: a call one way only passes; two headers including each other fail" {
	layers_copy
	printf 'int ping_fn(int n);\n' >tree/runner/stats/ping.h
	layers_add stats ping 'int ping_fn(int n) { return n; }'
	layers_add stats pong '#include "stats/ping.h"
int pong_fn(int n);
int pong_fn(int n) { return ping_fn(n); }'
	printf 'int pong_fn(int n);\n' >tree/runner/stats/pong.h
	run bash tree/tests/lint-layers.sh
	assert_success
	printf '#include "stats/pong.h"\n' >>tree/runner/stats/ping.h
	printf '#include "stats/ping.h"\n' >>tree/runner/stats/pong.h
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_output --partial "runner/stats/: headers that include each other: "
	assert_output --partial "ping.h uses include of pong.h"
	assert_output --partial "pong.h uses include of ping.h"
}

@test "lint-layers: a function declared only in another file's header fails; a stale or empty object fails" {
	layers_copy
	printf 'unsigned stats_stray(void);\n' >>tree/runner/stats/histogram.h
	layers_add stats stray 'unsigned stats_stray(void) { return 7; }'
	touch -d '+1 minute' tree/runner/stats/cpu_idle.c
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_output --partial "runner/stats/stray.c: stats_stray is declared neither in stray.h, nor in the face stats.h"
	assert_output --partial "runner/stats/cpu_idle.c: no object"
	# A stale or empty object alone fails too, named (nm reads an empty
	# file as a silent error: a copy taken mid-build once made it exit 1
	# with nothing said).
	rm tree/runner/stats/stray.c tree/build/musl/stats/stray.o
	sed -i '/stats_stray/d' tree/runner/stats/histogram.h
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_output "lint-layers: runner/stats/cpu_idle.c: no object build/musl/stats/cpu_idle.o newer than it, so its calls are unread (make lint builds it)"
	touch -d '+2 minutes' tree/build/musl/stats/cpu_idle.o
	: >tree/build/musl/stats/histogram.o
	: >tree/build/musl/main.o
	run bash tree/tests/lint-layers.sh
	assert_failure
	assert_line "lint-layers: runner/stats/histogram.c: its object build/musl/stats/histogram.o is empty (a build cut short?), so its calls are unread"
	assert_line "lint-layers: build/musl/main.o: missing or empty, so its calls are unread (make lint builds it)"
	refute_output --partial "cpu_idle"
	refute_output --partial "failed"
}
