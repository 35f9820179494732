#!/usr/bin/env bash
# run-bats.sh - lint the bats files, run the suites, and end with each
# file's wall time (slowest first), the ten slowest tests, and the one line
# CI reads: "bats: N passed, N failed, N skipped", skips counted apart
# (never as passes), then each skipped test with its reason.  The exit
# status is non-zero when the lint finds an assertion that cannot fail, a
# test fails, a test skips for a reason tests/bats/skips.list does not
# list, or fewer tests report than bats planned.
#
# Each file is its own bats process, timing each test (bats --timing).
# Files that measure no timing run side by side, BATS_JOBS at a time
# (default 3: most of their time is spent waiting on peers, guests and the
# URL-expiry run, not on the 2 CPUs); a file whose header holds the line
#     # run-bats: alone: WHY
# (it measures rates, latencies or cliffs a neighbour would disturb) runs
# after them, with nothing beside it.  Each file's TAP is printed whole
# when it ends, under a "# FILE: N tests, S s" line, and the progress goes
# to stderr.
# Usage: tests/run-bats.sh [FILE.bats|DIR...]   (default: tests/bats); the
# whole TAP, numbered through, goes to build/bats.tap (or BATS_TAP), each
# file's beside it in build/bats.d/.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
mkdir -p build
TAP=${BATS_TAP:-build/bats.tap}
OUT=${TAP%.tap}.d
LIST=tests/bats/skips.list
JOBS=${BATS_JOBS:-3}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || {
	echo "run-bats.sh: BATS_JOBS must be a positive integer, not '$JOBS'" >&2
	exit 2
}
targets=("${@:-tests/bats}")

# bats_files TARGET... -> the .bats files the targets name, one a line.
bats_files() {
	local t
	for t in "$@"; do
		if [ -d "$t" ]; then
			printf '%s\n' "$t"/*.bats
		else
			printf '%s\n' "$t"
		fi
	done
}
mapfile -t files < <(bats_files "${targets[@]}")

# What runs must first pass the lint (tests/lint-bats.sh: no `a && b` or
# `! cmd` mid-test, no bare skip, ...), with the helpers they load.
if ! bash tests/lint-bats.sh "${files[@]}" tests/bats/*.bash tests/peers/peers.bash >&2 ||
	! bash tests/lint-bats.sh --skips-readme; then
	echo "bats: not run: tests/lint-bats.sh failed (above)" >&2
	echo "bats: 0 passed, 0 failed, 0 skipped"
	exit 1
fi

rm -rf "$OUT" "$TAP"
mkdir -p "$OUT"

# alone FILE: its header asks to run with nothing beside it.
alone() {
	grep -q '^# run-bats: alone: ' "$1"
}

# run_file I FILE: bats on FILE; its TAP in OUT/I.tap, stderr in OUT/I.err,
# exit status in OUT/I.rc, wall time in seconds in OUT/I.s.
run_file() {
	local i=$1 f=$2 t0 rc=0
	t0=$EPOCHREALTIME
	bats --tap --timing "$f" >"$OUT/$i.tap" 2>"$OUT/$i.err" </dev/null || rc=$?
	echo "$rc" >"$OUT/$i.rc"
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' >"$OUT/$i.s"
}

# report_file I: FILE's TAP on stdout under one line naming it (so files
# ending side by side never interleave), its stderr after, and a line of
# progress on stderr.
done_count=0
report_file() {
	local i=$1 n
	n=$(grep -Ec '^(not )?ok [0-9]+ ' "$OUT/$i.tap")
	done_count=$((done_count + 1))
	echo "# ${files[$i]}: $n tests, $(cat "$OUT/$i.s") s"
	cat "$OUT/$i.tap"
	[ ! -s "$OUT/$i.err" ] || sed 's/^/# stderr: /' "$OUT/$i.err"
	echo "bats: [$done_count/${#files[@]}] ${files[$i]}: $(grep -Ec '^not ok ' "$OUT/$i.tap") failed, $(cat "$OUT/$i.s") s" >&2
}

# The side-by-side files first, at most JOBS running; then the lone ones.
# Both sets keep the order given (bats' own: by name).
declare -A running=()
together=() lone=()
for i in "${!files[@]}"; do
	if alone "${files[$i]}"; then lone+=("$i"); else together+=("$i"); fi
done
for i in "${together[@]}"; do
	while [ "${#running[@]}" -ge "$JOBS" ]; do
		wait -n -p pid
		report_file "${running[$pid]}"
		unset "running[$pid]"
	done
	run_file "$i" "${files[$i]}" &
	running[$!]=$i
done
while [ "${#running[@]}" -gt 0 ]; do
	wait -n -p pid
	report_file "${running[$pid]}"
	unset "running[$pid]"
done
for i in "${lone[@]}"; do
	run_file "$i" "${files[$i]}"
	report_file "$i"
done

# The whole TAP, numbered through in the files' order; a file whose bats
# planned nothing, or exited non-zero with no test failing, fails the run.
status=0 planned=0 offset=0
: >"$TAP"
for i in "${!files[@]}"; do
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$OUT/$i.tap" | head -1)
	if [ -z "$plan" ]; then
		echo "bats: ${files[$i]}: bats planned no tests (exit $(cat "$OUT/$i.rc")): $(head -c 300 "$OUT/$i.err")" >&2
		status=1
		plan=0
	fi
	[ "$(cat "$OUT/$i.rc")" -eq 0 ] || status=1
	planned=$((planned + plan))
	awk -v off="$offset" '
		/^1\.\.[0-9]+$/ { next }
		match($0, /^(not )?ok [0-9]+/) {
			head = substr($0, 1, RLENGTH)
			n = head
			sub(/^(not )?ok /, "", n)
			print substr(head, 1, length(head) - length(n)) (n + off) substr($0, RLENGTH + 1)
			next
		}
		{ print }' "$OUT/$i.tap" >>"$TAP"
	offset=$((offset + plan))
done
sed -i "1i 1..$planned" "$TAP"

# Each file's wall time, slowest first, then the verdict line.
echo "bats: wall time per file, slowest first (BATS_JOBS=$JOBS side by side; alone: after them, one at a time)"
for i in "${!files[@]}"; do
	how=together
	! alone "${files[$i]}" || how=alone
	printf '%8s s  %-40s %3s tests  %s\n' "$(cat "$OUT/$i.s")" "${files[$i]}" \
		"$(grep -Ec '^(not )?ok [0-9]+ ' "$OUT/$i.tap")" "$how"
done | sort -k1,1gr

# And the ten slowest tests (bats --timing: "ok N NAME in MSms").
echo "bats: the slowest tests"
sed -nE 's/^(not )?ok [0-9]+ (.*) in ([0-9]+)ms( # skip.*)?$/\3 \2/p' "$TAP" | sort -k1,1nr | head -10 |
	awk '{ ms = $1; sub(/^[0-9]+ /, ""); printf "%8.1f s  %s\n", ms / 1000, $0 }'

passed=$(grep -Ec '^ok [0-9]+ ' "$TAP")
skipped=$(grep -Ec '^ok [0-9]+ .* # skip( |$)' "$TAP")
passed=$((passed - skipped))
failed=$(grep -Ec '^not ok [0-9]+ ' "$TAP")
echo "bats: ${passed} passed, ${failed} failed, ${skipped} skipped"

# allowed REASON: the reason starts with an ID listed in skips.list.
allowed() {
	local id=${1%%:*}
	[ "$id" != "$1" ] || return 1
	awk -v id="$id" '!/^#/ && $1 == id { found = 1 } END { exit !found }' "$LIST"
}

unlisted=0
for i in "${!files[@]}"; do
	file=${files[$i]}
	while IFS= read -r line; do
		name=$(sed -E 's/^ok [0-9]+ //; s/ # skip( .*)?$//; s/ in [0-9]+ms$//' <<<"$line")
		reason=$(sed -nE 's/^.* # skip (.*)$/\1/p' <<<"$line")
		echo "skipped: $file: $name: ${reason:-(no reason given)}"
		if ! allowed "$reason"; then
			echo "bats: '$name' ($file) skipped for a reason not in $LIST: ${reason:-(none)}" >&2
			unlisted=$((unlisted + 1))
		fi
	done < <(grep -E '^ok [0-9]+ .* # skip( |$)' "$OUT/$i.tap")
done

if [ $((passed + failed + skipped)) -ne "$planned" ]; then
	echo "bats: $planned tests planned, $((passed + failed + skipped)) reported: some never ran" >&2
	status=1
fi
[ "$failed" -eq 0 ] || status=1
if [ "$unlisted" -gt 0 ]; then
	echo "bats: $unlisted skip(s) for a reason the environment can provide: make them run" >&2
	status=1
fi
exit "$status"
