# helpers.bash - shared set-up for the bats tests: the binary, scratch
# space, loop devices over /dev/shm and blkio throttles (cgroup v1).  Also
# sourced by tests/bench/parity.sh (which sets BATS_FILE_TMPDIR itself).

HELPERS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EBSBENCH="${EBSBENCH:-$HELPERS_DIR/../../build/ebsbench}"
load_bats_libs() {
	load /usr/lib/bats/bats-support/load
	load /usr/lib/bats/bats-assert/load
	load /usr/lib/bats/bats-file/load
}

# make_loop SIZE_MIB -> prints /dev/loopN backed by a file in /dev/shm.
# Every device made here is detached by cleanup_loops.  Each step says
# when it fails: inside DEV=$(make_loop N) set -e does not apply.
make_loop() {
	local backing dev
	backing=$(mktemp /dev/shm/ebsbench-test.XXXXXX) || return 1
	truncate -s "${1}M" "$backing" || return 1
	dev=$(losetup --find --show "$backing") || return 1
	echo "$dev $backing" >>"$BATS_FILE_TMPDIR/loops" || return 1
	echo "$dev"
}

# make_filled_loop SIZE_MIB SOURCE -> prints /dev/loopN as make_loop does,
# with every block written once from SOURCE: /dev/zero puts tmpfs pages
# under every block (no read hits a hole), /dev/urandom real data (as
# after a layout phase).
make_filled_loop() {
	local dev
	dev=$(make_loop "$1") || return 1
	dd if="$2" of="$dev" bs=1M count="$1" oflag=direct status=none || return 1
	echo "$dev"
}

# cleanup_loops: detach each device made here, only while it is still
# backed by our file: a number detached early (by a test) may already be
# another run's device on a shared machine.
cleanup_loops() {
	[ -f "$BATS_FILE_TMPDIR/loops" ] || return 0
	while read -r dev backing; do
		if [ "$(losetup -nO BACK-FILE "$dev" 2>/dev/null)" = "$backing" ]; then
			losetup -d "$dev" 2>/dev/null || true
		fi
		rm -f "$backing"
	done <"$BATS_FILE_TMPDIR/loops"
	rm -f "$BATS_FILE_TMPDIR/loops"
}

# writes_of DEV -> "writes completed, sectors written" from /sys/block/DEV/stat.
writes_of() {
	awk '{ print $5, $7 }' "/sys/block/${1#/dev/}/stat"
}

# assert_refused DEV WHAT CMD...: CMD refuses to write DEV as the write guard
# does: exit 3, one stderr line naming DEV, WHAT and allow_destroy, and not a
# byte of DEV changed nor a write to it counted by the kernel
# (safety.bats, read_first.bats).
assert_refused() {
	local dev=$1 what=$2 before writes
	shift 2
	sync
	before=$(sha256sum "$dev" | cut -d' ' -f1)
	writes=$(writes_of "$dev")
	run --separate-stderr "$@"
	[ "$status" -eq 3 ] || fail "exit $status on $what, want 3; stderr: $stderr"
	[ "$(wc -l <<<"$stderr")" = 1 ] || fail "want one line, got: $stderr"
	[[ $stderr == *"$dev"* ]] || fail "the refusal does not name $dev: $stderr"
	[[ $stderr == *"$what"* ]] || fail "the refusal does not say '$what': $stderr"
	[[ $stderr == *allow_destroy* ]] || fail "the refusal does not say how to override: $stderr"
	[ "$(writes_of "$dev")" = "$writes" ] || fail "the kernel counted writes to $dev"
	[ "$(sha256sum "$dev" | cut -d' ' -f1)" = "$before" ] || fail "$dev changed"
}

# throttle_group NAME DEV READ_IOPS WRITE_IOPS [READ_BPS] -> a blkio cgroup
# capping DEV; run a command in it with in_group NAME CMD...  Fails, saying
# why, when a cap cannot be set (make_group calls it after ||, where set -e
# does not apply, so every step is checked here).
BLKIO=/sys/fs/cgroup/blkio
throttle_group() {
	local name=$1 dev=$2 riops=$3 wiops=$4 rbps=${5:-0}
	local majmin
	majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
	[[ $majmin =~ ^[0-9]+:[0-9]+$ ]] || {
		echo "# throttle_group: no MAJ:MIN for $dev" >&2
		return 1
	}
	mkdir -p "$BLKIO/$name" || return 1
	set_cap "$BLKIO/$name/blkio.throttle.read_iops_device" "$majmin" "$riops" || return 1
	set_cap "$BLKIO/$name/blkio.throttle.write_iops_device" "$majmin" "$wiops" || return 1
	set_cap "$BLKIO/$name/blkio.throttle.read_bps_device" "$majmin" "$rbps"
}

# set_cap FILE MAJ:MIN VALUE: write a blkio throttle (0: leave it unset)
# and read it back.
set_cap() {
	[ "$3" != 0 ] || return 0
	echo "$2 $3" >"$1" || return 1
	grep -qx "$2 $3" "$1" || {
		echo "# set_cap: $1 does not hold '$2 $3'" >&2
		return 1
	}
}

# blkio_throttle: the kernel caps I/O through cgroup v1's blkio controller,
# as every cap here does.  A machine with cgroup v2 alone has none: there
# make_group makes nothing and each test needing a cap starts with
# require_blkio_throttle, a listed skip (tests/bats/skips.list).
blkio_throttle() {
	[ -f "$BLKIO/blkio.throttle.read_iops_device" ]
}

require_blkio_throttle() {
	blkio_throttle || skip_unavailable no-blkio-throttle "no $BLKIO/blkio.throttle.read_iops_device"
}

in_group() {
	local name=$1
	shift
	(echo "$BASHPID" >"$BLKIO/$name/cgroup.procs" && exec "$@")
}

remove_group() {
	rmdir "$BLKIO/$1" 2>/dev/null || true
}

# ---------------------------------------------------------------------------
# Shared by fio_cli.bats, fio_output.bats and parity.bats.

# unique_name TAG -> a name no concurrent test run shares (cgroups, mounts).
unique_name() {
	echo "ebsbench-$1-${BATS_ROOT_PID:-$$}"
}

# make_group NAME DEV READ_IOPS WRITE_IOPS [READ_BPS]: throttle_group, and
# remember the group (first: a failed cap still leaves its directory) so
# cleanup_groups removes it; nothing where blkio_throttle is false.
make_group() {
	blkio_throttle || return 0
	echo "$1" >>"$BATS_FILE_TMPDIR/groups" || return 1
	throttle_group "$@"
}

cleanup_groups() {
	[ -f "$BATS_FILE_TMPDIR/groups" ] || return 0
	local g
	while read -r g; do
		# A group still holding a process cannot go: move stragglers out.
		if [ -f "$BLKIO/$g/cgroup.procs" ]; then
			local p
			while read -r p; do
				echo "$p" >"$BLKIO/cgroup.procs" 2>/dev/null || true
			done <"$BLKIO/$g/cgroup.procs"
		fi
		remove_group "$g"
	done <"$BATS_FILE_TMPDIR/groups"
	rm -f "$BATS_FILE_TMPDIR/groups"
}

# require_built FILE HOW: fail early and clearly, saying how to build it,
# when the executable FILE is missing (a setup_file's first lines).
require_built() {
	[ -x "$1" ] || {
		echo "# $1 is missing: run $2" >&2
		return 1
	}
}

# require_ebsbench: the same for the binary under test.
require_ebsbench() {
	require_built "$EBSBENCH" "make (or set EBSBENCH)"
}

# The real AWS CLI v2: Debian's awscli at /usr/bin/aws (an older v1 may
# come first on PATH), which make deps installs; tests call it as $AWS.
AWS=/usr/bin/aws
require_aws_cli_v2() {
	[[ $("$AWS" --version 2>&1) == aws-cli/2.* ]] || {
		echo "# $AWS is not the AWS CLI v2 (make deps installs Debian's awscli)" >&2
		return 1
	}
}

# short_config DEV PHASES_JSON [EXTRA_JSON_MEMBERS] -> on stdout, a run
# config for DEV alone (label vol, a 100 GiB gp3) with a 16 MiB test
# region, output_dir out, time_scale 0.01 (a runtime of 100 s lasts 1 s)
# and the phases given; run.bats, safety.bats and upload_helpers.bash
# write theirs from it.
short_config() {
	cat <<-JSON
	{"devices": [{"path": "$1", "label": "vol", "type": "gp3", "size_gib": 100}],
	 "time_scale": 0.01, "test_size": "16M", "output_dir": "out",
	 "phases": $2${3:+, $3}}
	JSON
}

# jnum FILE FILTER -> the number FILTER selects; fails if it is not a number.
jnum() {
	jq -er "($2) | numbers" "$1"
}

# json_doc FILE: the file holds exactly one JSON document and nothing else.
json_doc() {
	jq -e . "$1" >/dev/null && [ "$(jq -s length "$1")" = 1 ]
}

# pct_diff OURS REF -> signed difference in percent of REF, 3 decimals.
pct_diff() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (a - b) * 100 / b }'
}

# within_pct OURS REF TOL: |OURS - REF| <= TOL % of REF.
within_pct() {
	awk -v a="$1" -v b="$2" -v t="$3" \
		'BEGIN { d = (a - b) * 100 / b; if (d < 0) d = -d; exit !(d <= t) }'
}

# median N... -> the middle value (the lower middle for an even count).
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# check_window_log FILE DDIR ROWS MS: FILE has exactly ROWS rows of
# direction DDIR, the k-th at time k*MS exactly, with bs and offset 0 and a
# non-negative integer value.  Prints what is wrong and fails otherwise.
check_window_log() {
	local file=$1 ddir=$2 rows=$3 ms=$4
	[ -f "$file" ] || {
		echo "no log $file"
		return 1
	}
	awk -F', *' -v d="$ddir" -v n="$rows" -v ms="$ms" '
		NF != 5 { printf "line %d has %d fields: %s\n", NR, NF, $0; bad = 1; next }
		$3 == d {
			k++
			if ($1 != k * ms) { printf "row %d of ddir %s: time %s, want %d\n", k, d, $1, k * ms; bad = 1 }
			if ($2 !~ /^[0-9]+$/) { printf "row %d: value %s\n", k, $2; bad = 1 }
			if ($4 != 0 || $5 != 0) { printf "row %d: bs/offset %s/%s, want 0/0\n", k, $4, $5; bad = 1 }
		}
		END {
			if (k != n) { printf "%d rows of ddir %s in %s, want %d\n", k, d, FILENAME, n; bad = 1 }
			exit bad
		}' "$file"
}

# log_series FILE -> an IOPS log read back as results.json's iops_series: a
# line per window, the rows of one time (its directions) summed.
log_series() {
	awk -F', *' 'NR > 1 && $1 != t { print s; s = 0 } { s += $2; t = $1 } END { if (NR) print s }' "$1"
}

# hist_windows FILE -> a histogram log read back as results.json's
# clat_hist windows: a line per window, the rows of one time summed, as
# "FIRST:C C C" from its first to its last non-empty bin ("" when empty).
hist_windows() {
	awk -F', *' '
		function flush(  f, l, j, line) {
			for (j = 1; j <= nb; j++)
				if (s[j]) { if (!f) f = j; l = j }
			line = f ? (f - 1) ":" : ""
			for (j = f; f && j <= l; j++)
				line = line (j > f ? " " : "") s[j]
			print line
			split("", s)
		}
		NR > 1 && $1 != t { flush() }
		{ nb = NF - 3; for (j = 4; j <= NF; j++) s[j - 3] += $j; t = $1 }
		END { if (NR) flush() }' "$1"
}

# log_sum FILE DDIR -> the sum of the value column for DDIR.
log_sum() {
	awk -F', *' -v d="$2" '$3 == d { s += $2 } END { printf "%d\n", s }' "$1"
}

# Mounts made by a test: track_mount DIR, cleaned by cleanup_mounts.
track_mount() {
	echo "$1" >>"$BATS_FILE_TMPDIR/mounts"
}

cleanup_mounts() {
	[ -f "$BATS_FILE_TMPDIR/mounts" ] || return 0
	local m
	while read -r m; do
		if mountpoint -q "$m" 2>/dev/null; then
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
		fi
	done <"$BATS_FILE_TMPDIR/mounts"
	rm -f "$BATS_FILE_TMPDIR/mounts"
}

# skip_unavailable ID [DETAIL]: skip this test because the machine lacks
# what the entry ID of tests/bats/skips.list names (the only allowed
# reasons); an ID that is not listed fails the test instead.
SKIPS_LIST="$HELPERS_DIR/skips.list"
skip_unavailable() {
	local id=$1 reason
	reason=$(awk -v id="$id" '!/^#/ && $1 == id { sub(/^[^ \t]+[ \t]+/, ""); print; found = 1 }
		END { exit !found }' "$SKIPS_LIST") || {
		echo "# skip_unavailable: '$id' is not an allowed skip in $SKIPS_LIST" >&2
		return 1
	}
	skip "$id: $reason${2:+ ($2)}"
}
