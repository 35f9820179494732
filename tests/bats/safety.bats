#!/usr/bin/env bats
# safety.bats - a writing plan never touches a device that holds data.
#
# Each format is made on a loop device by its own Debian tool (and every
# image of util-linux's own libblkid test suite is written to one); a
# writing plan must exit 3 before any I/O, name the device and what it
# found, and leave every byte as it was (whole-device sha256 and the
# kernel's write counters).  A device that ebsbench itself wrote is taken
# again without allow_destroy; --dry-run writes nothing.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

IMAGES="$BATS_TEST_DIRNAME/../../build/deps/share/blkid-images"

setup_file() {
	require_ebsbench
	[ -d "$IMAGES/images-fs" ] || {
		echo "# $IMAGES is missing: make deps installs util-linux's test images" >&2
		return 1
	}
}

teardown_file() {
	cleanup_mounts
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# plan_for DEV [EXTRA_JSON_MEMBERS]: a writing plan on DEV in cfg.json.
plan_for() {
	short_config "$1" '[{"phase": "layout"}, {"phase": "randwrite", "runtime": 50}]' "${2:-}" \
		>cfg.json
}

# refused DEV WHAT: a writing plan on DEV exits 3 with one line naming DEV
# and WHAT, writes nothing (no byte changed, no write counted by the
# kernel) and leaves no results.
refused() {
	plan_for "$1"
	assert_refused "$1" "$2" "$EBSBENCH" run --config cfg.json
	[ ! -e out/results.json ] || fail "a refused run left results"
}

# A 320 MiB device (XFS's minimum is 300 MiB) with a tree of files to put
# into the image formats.
fresh() {
	DEV=$(make_loop 320)
	mkdir -p tree/sub
	echo "keep me" >tree/notes.txt
	head -c 65536 /dev/urandom >tree/sub/data.bin
}

# image_onto DEV IMAGE: an image made by a tool that writes files, onto DEV.
image_onto() {
	dd if="$2" of="$1" bs=1M conv=notrunc,fsync status=none
}

@test "vfat (FAT32, every EFI system partition) is refused" {
	fresh
	mkfs.vfat -F 32 "$DEV" >/dev/null
	refused "$DEV" "vfat filesystem"
}

@test "FAT16 is refused" {
	fresh
	mkfs.vfat -F 16 "$DEV" >/dev/null
	refused "$DEV" "vfat filesystem"
}

@test "exFAT is refused" {
	fresh
	mkfs.exfat "$DEV" >/dev/null
	refused "$DEV" "exfat filesystem"
}

@test "NTFS is refused" {
	fresh
	mkfs.ntfs -Q -F "$DEV" >/dev/null 2>&1
	refused "$DEV" "ntfs filesystem"
}

@test "ISO 9660 is refused" {
	fresh
	genisoimage -quiet -R -J -o img.iso tree
	image_onto "$DEV" img.iso
	refused "$DEV" "iso9660 filesystem"
}

@test "UDF is refused" {
	fresh
	mkudffs "$DEV" >/dev/null
	refused "$DEV" "udf filesystem"
}

@test "squashfs is refused" {
	fresh
	mksquashfs tree img.sqfs -quiet -no-progress >/dev/null
	image_onto "$DEV" img.sqfs
	refused "$DEV" "squashfs filesystem"
}

@test "EROFS is refused" {
	fresh
	mkfs.erofs img.erofs tree >/dev/null
	image_onto "$DEV" img.erofs
	refused "$DEV" "erofs filesystem"
}

@test "ext2, ext3 and ext4 are refused" {
	fresh
	for t in ext2 ext3 ext4; do
		mke2fs -q -F -t "$t" "$DEV"
		refused "$DEV" "$t filesystem"
	done
}

@test "XFS is refused" {
	fresh
	mkfs.xfs -q -f "$DEV"
	refused "$DEV" "xfs filesystem"
}

@test "Btrfs is refused" {
	fresh
	mkfs.btrfs -q -f "$DEV"
	refused "$DEV" "btrfs filesystem"
}

@test "F2FS is refused" {
	fresh
	mkfs.f2fs -q -f "$DEV"
	refused "$DEV" "f2fs filesystem"
}

@test "NILFS2, JFS and ReiserFS are refused" {
	fresh
	mkfs.nilfs2 -q -f "$DEV"
	refused "$DEV" "nilfs2 filesystem"
	mkfs.jfs -q "$DEV" >/dev/null
	refused "$DEV" "jfs filesystem"
	mkfs.reiserfs -q -f "$DEV" >/dev/null 2>&1
	refused "$DEV" "reiserfs filesystem"
}

@test "swap is refused" {
	fresh
	mkswap "$DEV" >/dev/null
	refused "$DEV" "swap"
}

@test "LUKS1 and LUKS2 are refused" {
	fresh
	head -c 32 /dev/urandom >key
	for t in luks1 luks2; do
		cryptsetup luksFormat -q --type "$t" --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
			--key-file key "$DEV"
		refused "$DEV" "crypto_LUKS encrypted volume"
	done
}

@test "an LVM2 physical volume is refused" {
	fresh
	pvcreate -q -f "$DEV" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
	refused "$DEV" "LVM2_member RAID member"
	pvremove -q -f "$DEV" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
}

@test "bcache backing and cache devices are refused" {
	fresh
	make-bcache -B "$DEV" >/dev/null
	refused "$DEV" "bcache"
	wipefs -q -a "$DEV"
	make-bcache -C "$DEV" >/dev/null
	refused "$DEV" "bcache"
}

@test "an MBR partition table is refused" {
	fresh
	echo 'label: dos
	,64M,83' | sfdisk -q "$DEV"
	refused "$DEV" "MBR partition table"
}

@test "a GPT partition table is refused" {
	fresh
	sgdisk -o -n 1:0:+64M "$DEV" >/dev/null
	refused "$DEV" "GPT partition table"
}

@test "a GPT with only its backup header (first MiB wiped) is refused" {
	fresh
	sgdisk -o -n 1:0:+64M "$DEV" >/dev/null
	dd if=/dev/zero of="$DEV" bs=1M count=1 conv=notrunc,fsync status=none
	refused "$DEV" "GPT partition table"
}

@test "random bytes with no signature are refused as unrecognised data" {
	fresh
	head -c $((2 << 20)) /dev/urandom | dd of="$DEV" bs=1M conv=notrunc,fsync status=none
	refused "$DEV" "unrecognised data"
	refused "$DEV" "at byte 0 "
}

@test "data left in the middle after wipefs is refused as unrecognised data" {
	fresh
	# ext4 with a file at its middle, then its signatures wiped: the
	# ends hold nothing a probe knows, the samples between them do.
	mkfs.ext4 -q -F -E nodiscard "$DEV"
	mkdir mnt
	mount "$DEV" mnt
	track_mount "$PWD/mnt"
	head -c $((200 << 20)) /dev/urandom >mnt/big.bin
	umount mnt
	wipefs -q -a "$DEV"
	dd if=/dev/zero of="$DEV" bs=1M count=8 conv=notrunc,fsync status=none
	dd if=/dev/zero of="$DEV" bs=1M seek=312 count=8 conv=notrunc,fsync status=none
	refused "$DEV" "unrecognised data"
}

@test "every util-linux libblkid test image is refused" {
	local n=0 img what list="$BATS_TEST_DIRNAME/../../build/safety-images.txt"
	: >"$list"
	for img in "$IMAGES"/images-fs/*.img.xz "$IMAGES"/images-pt/*.img.xz; do
		# As it is (RAID formats keep their metadata at the very end),
		# padded to whole sectors, which is all a loop device shows.
		xz -dc "$img" >img
		truncate -s $((($(stat -c %s img) + 511) / 512 * 512)) img
		DEV=$(losetup --find --show img)
		echo "$DEV img" >>"$BATS_FILE_TMPDIR/loops"
		what=$("$EBSBENCH" discover --all --json | jq -r --arg p "$DEV" '.[] | select(.path == $p) | .signatures')
		echo "$(basename "$img" .img.xz): ${what:-nothing}" >>"$list"
		[ -n "$what" ] || fail "$(basename "$img"): nothing found"
		refused "$DEV" "$DEV"
		losetup -d "$DEV"
		n=$((n + 1))
	done
	[ "$n" -ge 100 ] || fail "only $n images"
	echo "# $n images refused, $(grep -vc ': unrecognised data$' "$list") of them named by libblkid (list: build/safety-images.txt)" >&3
}

@test "discover shows TYPE, USAGE and PTTYPE in the table and the JSON" {
	fresh
	sgdisk -o -n 1:0:+64M "$DEV" >/dev/null
	run --separate-stderr "$EBSBENCH" discover --all --json
	assert_success
	assert_equal "$(jq -r --arg p "$DEV" '.[] | select(.path == $p) | .contents.pttype' <<<"$output")" gpt
	mkfs.vfat -F 32 "$DEV" >/dev/null
	run --separate-stderr "$EBSBENCH" discover --all --json
	assert_success
	local c
	c=$(jq -c --arg p "$DEV" '.[] | select(.path == $p) | .contents' <<<"$output")
	assert_equal "$(jq -r .type <<<"$c")" vfat
	assert_equal "$(jq -r .usage <<<"$c")" filesystem
	assert_equal "$(jq -r .unrecognised_data_at <<<"$c")" null
	run --separate-stderr "$EBSBENCH" discover --all
	assert_success
	assert_output --regexp "$DEV .* vfat"
}

@test "a blank device runs; a second run on what ebsbench wrote goes ahead without allow_destroy" {
	fresh
	plan_for "$DEV"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	# The layout wrote the test region: the device is no longer zeros.
	[ "$(head -c 16M "$DEV" | tr -d '\0' | head -c 1 | wc -c)" = 1 ]
	run --separate-stderr "$EBSBENCH" discover --all --json
	assert_equal "$(jq -r --arg p "$DEV" '.[] | select(.path == $p) | .contents.ebsbench_data' <<<"$output")" true
	assert_equal "$(jq -r --arg p "$DEV" '.[] | select(.path == $p) | .signatures' <<<"$output")" ""
	rm -rf out
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	assert_equal "$(jq '.phases | length' out/results.json)" 2
	# Then 4 KiB of someone else's at the start: refused again.
	head -c 4096 /dev/urandom | dd of="$DEV" bs=4096 seek=2 conv=notrunc,fsync status=none
	rm -rf out
	refused "$DEV" "unrecognised data (non-zero bytes at byte 8192 "
}

@test "allow_destroy naming the device lets the plan overwrite it" {
	fresh
	mkfs.vfat -F 32 "$DEV" >/dev/null
	plan_for "$DEV" "\"allow_destroy\": [\"$DEV\"]"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	assert_equal "$(jq '.phases | length' out/results.json)" 2
}

@test "--dry-run writes nothing, even on a device it would overwrite" {
	fresh
	local writes
	sync
	writes=$(writes_of "$DEV")
	plan_for "$DEV"
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_success
	[ "$(jq -r .writes <<<"$output")" = true ]
	[ "$(writes_of "$DEV")" = "$writes" ] || fail "the kernel counted writes during --dry-run"
	[ ! -e out/results.json ]
}
