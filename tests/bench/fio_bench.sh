# shellcheck shell=bash
# fio_bench.sh - the prologue of the benches that run ebsbench beside fio on
# loop devices (bench.sh uncapped; parity.sh and rate.sh capped by blkio).
# Sourced after setting PROG; sets ROOT, EBSBENCH (unless given) and WORK, a scratch directory
# that also holds the bats helpers' lists (BATS_FILE_TMPDIR), and removes
# it, the loop devices and the groups on exit.  Exits 2 when the bench
# cannot run.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export EBSBENCH=${EBSBENCH:-$ROOT/build/ebsbench}
# shellcheck disable=SC2034 # read by lib.sh's die
DIE_STATUS=2
# shellcheck source=../../image/lib.sh
. "$ROOT/image/lib.sh"

[ "$(id -u)" = 0 ] || die "needs root (loop devices, blkio cgroups)"
[ -x "$EBSBENCH" ] || die "$EBSBENCH is missing: run make (or set EBSBENCH)"
command -v fio >/dev/null || die "fio is missing: make deps installs it"
command -v jq >/dev/null || die "jq is missing: make deps installs it"

WORK=$(mktemp -d "/tmp/ebsbench-$PROG.XXXXXX")
# The bats helpers (loop devices, blkio groups, medians) keep their lists
# in BATS_FILE_TMPDIR.
export BATS_FILE_TMPDIR=$WORK
# shellcheck source=../bats/helpers.bash
. "$ROOT/tests/bats/helpers.bash"
# shellcheck disable=SC2317 # called from the EXIT trap
fio_bench_cleanup() {
	cleanup_groups
	cleanup_loops
	rm -rf "$WORK"
}
trap fio_bench_cleanup EXIT
trap 'exit 130' INT TERM
