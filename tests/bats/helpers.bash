# helpers.bash - shared set-up for the bats tests: the binary, scratch
# space, loop devices over /dev/shm and blkio throttles (cgroup v1).

EBSBENCH="${EBSBENCH:-$BATS_TEST_DIRNAME/../../build/ebsbench}"
load_bats_libs() {
	load /usr/lib/bats/bats-support/load
	load /usr/lib/bats/bats-assert/load
	load /usr/lib/bats/bats-file/load
}

# make_loop SIZE_MIB -> prints /dev/loopN backed by a file in /dev/shm.
# Every device made here is detached by cleanup_loops.
make_loop() {
	local backing
	backing=$(mktemp /dev/shm/ebsbench-test.XXXXXX)
	truncate -s "${1}M" "$backing"
	local dev
	dev=$(losetup --find --show "$backing") || return 1
	echo "$dev $backing" >>"$BATS_FILE_TMPDIR/loops"
	echo "$dev"
}

cleanup_loops() {
	[ -f "$BATS_FILE_TMPDIR/loops" ] || return 0
	while read -r dev backing; do
		losetup -d "$dev" 2>/dev/null || true
		rm -f "$backing"
	done <"$BATS_FILE_TMPDIR/loops"
	rm -f "$BATS_FILE_TMPDIR/loops"
}

# throttle_group NAME DEV READ_IOPS WRITE_IOPS [READ_BPS] -> a blkio cgroup
# capping DEV; run a command in it with in_group NAME CMD...
BLKIO=/sys/fs/cgroup/blkio
throttle_group() {
	local name=$1 dev=$2 riops=$3 wiops=$4 rbps=${5:-0}
	local majmin
	majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
	mkdir -p "$BLKIO/$name"
	[ "$riops" = 0 ] || echo "$majmin $riops" >"$BLKIO/$name/blkio.throttle.read_iops_device"
	[ "$wiops" = 0 ] || echo "$majmin $wiops" >"$BLKIO/$name/blkio.throttle.write_iops_device"
	[ "$rbps" = 0 ] || echo "$majmin $rbps" >"$BLKIO/$name/blkio.throttle.read_bps_device"
}

in_group() {
	local name=$1
	shift
	(echo "$BASHPID" >"$BLKIO/$name/cgroup.procs" && exec "$@")
}

remove_group() {
	rmdir "$BLKIO/$1" 2>/dev/null || true
}
