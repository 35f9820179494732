#!/usr/bin/env bats
# read_first.bats - before a write touches a block device, every byte it may
# overwrite is read, and must be zeros or ebsbench's own.
#
# Each case is a 512 MiB loop device, zeros but for random bytes with no
# signature, placed where the first look (libblkid, the first and last MiB
# and 62 blocks of 4 KiB between) does not reach: discover must report the
# device blank, and the run must still refuse it (exit 3, one line naming
# the device and the byte, every byte as it was), unless the bytes lie
# outside what the plan writes.  ebsbench fio does the same unless
# allow_destroy=1.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

MIB=1048576
REGION=$((256 * MIB)) # the test_size of every plan here

setup_file() {
	require_ebsbench
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# config_for DEV [EXTRA_JSON_MEMBERS]: a layout and a randwrite over the
# first 256 MiB of DEV, in cfg.json.
config_for() {
	cat >cfg.json <<-JSON
	{"devices": [{"path": "$1", "label": "vol", "type": "gp3", "size_gib": 100}],
	 "time_scale": 0.01, "test_size": "256M", "output_dir": "out",
	 "phases": [{"phase": "layout"}, {"phase": "randwrite", "runtime": 50}]${2:+, $2}}
	JSON
}

# random_at DEV OFFSET LENGTH: random bytes into DEV (bytes, both multiples
# of 4 KiB).
random_at() {
	head -c "$3" /dev/urandom |
		dd of="$1" bs=4096 seek=$(($2 / 4096)) conv=notrunc,fsync status=none
}

# blank_to_discover DEV: the first look finds nothing on DEV.
blank_to_discover() {
	local c
	c=$("$EBSBENCH" discover --all --json | jq -c --arg p "$1" '.[] | select(.path == $p)')
	[ -n "$c" ] || fail "discover does not list $1"
	assert_equal "$(jq -r .signatures <<<"$c")" ""
	assert_equal "$(jq -r .contents.unrecognised_data_at <<<"$c")" null
}

# sha DEV [OFFSET LENGTH]: sha256 of DEV, or of LENGTH bytes at OFFSET.
sha() {
	if [ $# -eq 1 ]; then
		sha256sum "$1" | cut -d' ' -f1
	else
		dd if="$1" bs=$MIB skip=$(($2 / MIB)) count=$(($3 / MIB)) status=none | sha256sum |
			cut -d' ' -f1
	fi
}

# refused_at DEV BYTE CMD...: CMD exits 3 with one line naming DEV, BYTE
# and allow_destroy, and DEV is as it was (assert_refused).
refused_at() {
	local dev=$1 byte=$2
	shift 2
	assert_refused "$dev" "at byte $byte " "$@"
}

@test "random bytes at the start of the second MiB: refused, nothing written" {
	local dev
	dev=$(make_loop 512)
	random_at "$dev" $MIB $MIB
	blank_to_discover "$dev"
	config_for "$dev"
	refused_at "$dev" $MIB "$EBSBENCH" run --config cfg.json
	[ ! -e out/results.json ] || fail "a refused run left results"
}

@test "random bytes in the middle of the test region: refused" {
	local dev
	dev=$(make_loop 512)
	random_at "$dev" $((128 * MIB)) 65536
	blank_to_discover "$dev"
	config_for "$dev"
	refused_at "$dev" $((128 * MIB)) "$EBSBENCH" run --config cfg.json
}

@test "random bytes in the test region's last chunk: refused" {
	local dev
	dev=$(make_loop 512)
	random_at "$dev" $((REGION - 4096)) 4096
	blank_to_discover "$dev"
	config_for "$dev"
	refused_at "$dev" $((REGION - 4096)) "$EBSBENCH" run --config cfg.json
}

@test "random bytes in the first chunk after the test region: the run goes ahead and leaves them" {
	local dev before_after before_region
	dev=$(make_loop 512)
	random_at "$dev" $REGION $MIB
	blank_to_discover "$dev"
	config_for "$dev"
	before_after=$(sha "$dev" $REGION $((256 * MIB)))
	before_region=$(sha "$dev" 0 $REGION)
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	assert_equal "$(sha "$dev" $REGION $((256 * MIB)))" "$before_after"
	[ "$(sha "$dev" 0 $REGION)" != "$before_region" ] || fail "the layout wrote nothing"
	assert_equal "$(jq '.phases | length' out/results.json)" 2
	local rf
	rf=$(jq -c '.devices[0].read_first' out/results.json)
	assert_equal "$(jq .offset <<<"$rf")" 0
	assert_equal "$(jq .bytes <<<"$rf")" $REGION
	assert_equal "$(jq -r .found <<<"$rf")" zeros
	jq -e '.seconds > 0' <<<"$rf" >/dev/null || fail "no read time: $rf"
}

@test "a second run reads back what the first wrote and goes ahead" {
	local dev
	dev=$(make_loop 512)
	config_for "$dev"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	rm -rf out
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	assert_equal "$(jq -r '.devices[0].read_first.found' out/results.json)" "ebsbench data"
}

@test "allow_destroy naming the device: nothing is read first, the data is overwritten" {
	local dev before
	dev=$(make_loop 512)
	random_at "$dev" $MIB $MIB
	before=$(sha "$dev")
	config_for "$dev" "\"allow_destroy\": [\"$dev\"]"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	[ "$(sha "$dev")" != "$before" ] || fail "nothing was written"
	assert_equal "$(jq -c '.devices[0].read_first' out/results.json)" null
}

@test "--dry-run states how many bytes would be read first; a read-only plan reads none" {
	local dev writes
	dev=$(make_loop 512)
	config_for "$dev"
	sync
	writes=$(awk '{ print $5 }' "/sys/block/${dev#/dev/}/stat")
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_success
	assert_equal "$(jq -c '[.read_first[] | .device, .offset, .bytes]' <<<"$output")" "[\"vol\",0,$REGION]"
	[[ $stderr == *"reads 256.0 MiB of $dev"* ]] || fail "stderr does not say it: $stderr"
	assert_equal "$(awk '{ print $5 }' "/sys/block/${dev#/dev/}/stat")" "$writes"
	short_config "$dev" '[{"phase": "randread", "runtime": 50}]' >ro.json
	run --separate-stderr "$EBSBENCH" run --config ro.json --dry-run
	assert_success
	assert_equal "$(jq -c .read_first <<<"$output")" "[]"
}

@test "ebsbench fio: a write job on a block device with data is refused; allow_destroy=1 overwrites it" {
	local dev before
	dev=$(make_loop 512)
	random_at "$dev" $MIB $MIB
	refused_at "$dev" $MIB "$EBSBENCH" fio --name=w --filename="$dev" --rw=write --bs=1M \
		--size=64M --direct=1
	before=$(sha "$dev")
	run --separate-stderr "$EBSBENCH" fio --name=w --filename="$dev" --rw=write --bs=1M \
		--size=64M --direct=1 --allow_destroy=1
	assert_success
	[ "$(sha "$dev")" != "$before" ] || fail "allow_destroy=1 wrote nothing"
}

@test "ebsbench fio: a blank device, and then its own data, are written; data past the job's region stays" {
	local dev after
	dev=$(make_loop 512)
	random_at "$dev" $((64 * MIB)) $MIB
	after=$(sha "$dev" $((64 * MIB)) $MIB)
	run --separate-stderr "$EBSBENCH" fio --name=w --filename="$dev" --rw=randwrite --bs=4k \
		--size=64M --direct=1 --runtime=1 --time_based
	assert_success
	run --separate-stderr "$EBSBENCH" fio --name=w --filename="$dev" --rw=write --bs=1M \
		--size=64M --direct=1
	assert_success
	assert_equal "$(sha "$dev" $((64 * MIB)) $MIB)" "$after"
}

@test "ebsbench fio: a regular file is written as fio writes it, whatever it holds" {
	head -c $((8 * MIB)) /dev/urandom >file
	local before
	before=$(sha file)
	run --separate-stderr "$EBSBENCH" fio --name=w --filename=file --rw=write --bs=1M --size=8M
	assert_success
	[ "$(sha file)" != "$before" ] || fail "the file was not written"
}
