#!/usr/bin/env bash
# run-bats.sh - lint the bats files, run the suites, and end with the one
# line CI reads: "bats: N passed, N failed, N skipped", skips counted apart
# (never as passes), then each skipped test with its reason.  The exit
# status is non-zero when the lint finds an assertion that cannot fail, a
# test fails, a test skips for a reason tests/bats/skips.list does not
# list, or fewer tests report than bats planned.
# Usage: tests/run-bats.sh [FILE.bats|DIR...]   (default: tests/bats); the
# TAP goes to build/bats.tap, or BATS_TAP.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
mkdir -p build
TAP=${BATS_TAP:-build/bats.tap}
LIST=tests/bats/skips.list
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

bats --tap "${targets[@]}" | tee "$TAP"
status=${PIPESTATUS[0]}

planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$TAP" | head -1)
passed=$(grep -Ec '^ok [0-9]+ ' "$TAP")
skipped=$(grep -Ec '^ok [0-9]+ .* # skip( |$)' "$TAP")
passed=$((passed - skipped))
failed=$(grep -Ec '^not ok [0-9]+ ' "$TAP")
echo "bats: ${passed} passed, ${failed} failed, ${skipped} skipped"

# test_file NAME -> the .bats file defining the test NAME (for the list).
test_file() {
	grep -lF -- "@test \"$1\"" "${files[@]}" 2>/dev/null | head -1
}

# allowed REASON: the reason starts with an ID listed in skips.list.
allowed() {
	local id=${1%%:*}
	[ "$id" != "$1" ] || return 1
	awk -v id="$id" '!/^#/ && $1 == id { found = 1 } END { exit !found }' "$LIST"
}

unlisted=0
while IFS= read -r line; do
	name=$(sed -E 's/^ok [0-9]+ //; s/ # skip( .*)?$//' <<<"$line")
	reason=$(sed -nE 's/^.* # skip (.*)$/\1/p' <<<"$line")
	file=$(test_file "$name")
	echo "skipped: ${file:+$file: }$name: ${reason:-(no reason given)}"
	if ! allowed "$reason"; then
		echo "bats: '$name'${file:+ ($file)} skipped for a reason not in $LIST: ${reason:-(none)}" >&2
		unlisted=$((unlisted + 1))
	fi
done < <(grep -E '^ok [0-9]+ .* # skip( |$)' "$TAP")

if [ -n "$planned" ] && [ $((passed + failed + skipped)) -ne "$planned" ]; then
	echo "bats: $planned tests planned, $((passed + failed + skipped)) reported: some never ran" >&2
	[ "$status" -ne 0 ] || status=1
fi
if [ "$unlisted" -gt 0 ]; then
	echo "bats: $unlisted skip(s) for a reason the environment can provide: make them run" >&2
	[ "$status" -ne 0 ] || status=1
fi
exit "$status"
